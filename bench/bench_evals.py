"""Benchmark: a 50-case context eval suite against 50 plain resolves of the same tasks, in the same run.

Builds the 200-split field guide (``field_guide.py``) in a temp dir with its 50-case answer-quality suite, then
measures, alternating and repeated:

(a) 50 plain resolves of the suite's prompts in a fresh ``ResolverSession`` (what a curator would do by hand);
(b) the whole suite: read and check the suite file, run every case in a fresh session (resolve, the full
    candidate ranking, recall) and compute the ranking measures with ir-measures.

Goal (issue 17): (b) <= 2 x (a). The first (b) of the process also pays for importing ir-measures (numpy,
pytrec_eval); it is reported on its own line and left out of the medians.

    python bench/bench_evals.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from field_guide import build  # noqa: E402

from studio.core.evals.model import EvalConfig  # noqa: E402
from studio.core.evals.runner import run_suite  # noqa: E402
from studio.core.evals.suites import read_suite  # noqa: E402
from studio.core.pack import load_pack  # noqa: E402
from studio.core.resolver import ResolveRequest, ResolverSession  # noqa: E402
from studio.core.tokens import get_tokenizer  # noqa: E402


def plain(pack_root: Path, prompts: list[str]) -> float:
    pack = load_pack(pack_root)
    session = ResolverSession()
    start = time.perf_counter()
    for prompt in prompts:
        session.resolve(ResolveRequest(prompt, [pack], budget=4000))
    return time.perf_counter() - start


def suite_run(pack_root: Path) -> tuple[float, float | None]:
    pack = load_pack(pack_root)
    start = time.perf_counter()
    suite = read_suite(pack_root / "evals" / "answer-quality.json", pack)
    run = run_suite(pack, suite, EvalConfig(budget=4000), session=ResolverSession())
    elapsed = time.perf_counter() - start
    recalls = [o.context_recall for o in run.context if o.context_recall is not None]
    return elapsed, (sum(recalls) / len(recalls) if recalls else None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    get_tokenizer("cl100k_base").count("warm-up")
    with tempfile.TemporaryDirectory() as tmp:
        root = build(Path(tmp))
        prompts = [c.prompt for c in read_suite(root / "evals" / "answer-quality.json").context]
        print(f"pack: 200 splits; suite: {len(prompts)} context cases")
        first, recall = suite_run(root)  # includes importing ir-measures
        a_times, b_times = [], []
        for _ in range(args.repeat):
            a_times.append(plain(root, prompts))
            b_times.append(suite_run(root)[0])
        med = statistics.median
        paired = med(b / a for a, b in zip(a_times, b_times, strict=True))
        print(f"(a) 50 plain resolves:   {med(a_times) * 1000:8.1f} ms")
        ratio = med(b_times) / med(a_times)
        print(f"(b) the whole suite:     {med(b_times) * 1000:8.1f} ms   ratio (b)/(a) = {ratio:.2f}  (goal <= 2); "
              f"paired {paired:.2f}")
        print(f"    first suite run of the process (imports ir-measures): {first * 1000:.1f} ms; mean context "
              f"recall {recall:.2f}")


if __name__ == "__main__":
    main()
