"""Benchmark: the coverage report of a pack with 1,000 recorded queries and two suites, against resolving the
same tasks one by one, in the same run.

Builds the 200-split field guide (``field_guide.py``) with its answer-quality suite, adds a 50-case discovery
suite and 1,000 ``runs/context-*.json`` records (900 distinct queries, some asked twice; a third of them about
things the guide never mentions), then measures, alternating and repeated:

(a) one plain resolve per task the report has (each recorded query once, each case's prompt) in a fresh
    ``ResolverSession``: what a curator would do by hand;
(b) the whole report: read the suites and the 1,000 records, resolve every task in a fresh session, decide
    answered or not, collect the never-selected files, and cluster the gaps.

Goal (issue 33): (b) <= 1 s and (b) <= 1.5 x (a). ``--huge`` also times a report over a pack with 100,000
records (read_runs reads at most ``MAX_RUN_FILES`` of them and says so; the report must stay bounded).

    python bench/bench_coverage.py [--repeat 5] [--huge]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from field_guide import TOPICS, build  # noqa: E402

from studio.core.coverage import CoverageOptions, cluster_gaps, compute_coverage  # noqa: E402
from studio.core.coverage.sources import known_tasks  # noqa: E402
from studio.core.pack import load_pack  # noqa: E402
from studio.core.resolver import ResolveRequest, ResolverSession  # noqa: E402
from studio.core.tokens import get_tokenizer  # noqa: E402

UNKNOWN = ("volcano", "lava", "permit", "parking", "ticket", "refund", "wifi", "drone", "campfire", "kayak")
VERBS = ("where can I find", "what do I know about", "tell me about", "is there anything on", "notes on")


def add_tasks(root: Path, records: int = 1000, seed: int = 11) -> None:
    rng = random.Random(seed)
    cases = [{"id": f"d{i}", "prompt": f"{rng.choice(VERBS)} {rng.choice(TOPICS)} in Elm Valley",
              "expected": "select"} for i in range(40)]
    cases += [{"id": f"n{i}", "prompt": f"book a {rng.choice(UNKNOWN)} in Paris", "expected": "reject"}
              for i in range(10)]
    (root / "evals" / "discovery.validation.json").write_text(
        json.dumps({"pack_name": "field-guide", "cases": cases}, indent=2) + "\n", encoding="utf-8")
    runs = root / "runs"
    runs.mkdir(exist_ok=True)
    distinct = [_query(rng, i) for i in range(records * 9 // 10)]
    for i in range(records):
        query = distinct[i] if i < len(distinct) else rng.choice(distinct)
        stamp = f"2026-11-{i // 1440 % 28 + 1:02d}T{i // 60 % 24:02d}-{i % 60:02d}-00Z"
        (runs / f"context-{stamp}-{i}.json").write_text(json.dumps(
            {"run_id": f"r{i}", "query": query, "status": "passed", "activated_packs": []}), encoding="utf-8")


def _query(rng: random.Random, i: int) -> str:
    if i % 3 == 0:
        return f"{rng.choice(VERBS)} {rng.choice(UNKNOWN)} {rng.choice(UNKNOWN)} rules {i}"
    return f"{rng.choice(VERBS)} {rng.choice(TOPICS)} by the footpath, note {i % 200}"


def task_texts(root: Path) -> list[str]:
    known = known_tasks(load_pack(root))
    return ([c.prompt for _, c in known.context_cases] + [c.prompt for _, c in known.discovery_prompts]
            + [q.text for q in known.queries])


def plain(root: Path, texts: list[str]) -> float:
    pack = load_pack(root)
    session = ResolverSession()
    start = time.perf_counter()
    for text in texts:
        session.resolve(ResolveRequest(text, [pack], grounding_override="required"))
    return time.perf_counter() - start


def report(root: Path) -> tuple[float, str]:
    pack = load_pack(root)
    start = time.perf_counter()
    rep = compute_coverage([pack], CoverageOptions())[0]
    clusters = cluster_gaps(rep.tasks)
    took = time.perf_counter() - start
    s = rep.summary()
    return took, (f"{s['tasks']} tasks, {s['answered']} answered, {s['gaps']} gaps in {len(clusters)} clusters, "
                  f"{len(rep.never_selected)} files never selected, {len(rep.skipped)} inputs skipped")


def huge(out: Path) -> None:
    root = build(out / "huge")
    add_tasks(root, records=100_000)
    took, line = report(root)
    print(f"100,000 records: report {took:.3f} s ({line})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--huge", action="store_true", help="also time a pack with 100,000 records")
    args = parser.parse_args()
    get_tokenizer("cl100k_base")  # loading the tokenizer is a process cost, not a per-report one
    with tempfile.TemporaryDirectory() as tmp:
        root = build(Path(tmp))
        add_tasks(root)
        texts = task_texts(root)
        plain_times, report_times, line = [], [], ""
        for _ in range(args.repeat):
            plain_times.append(plain(root, texts))
            took, line = report(root)
            report_times.append(took)
        a, b = statistics.median(plain_times), statistics.median(report_times)
        print(f"tasks resolved: {len(texts)} (1,000 records, two suites)")
        print(f"(a) resolving them one by one: median {a:.3f} s over {args.repeat} runs")
        print(f"(b) the coverage report:       median {b:.3f} s  ({line})")
        print(f"(b)/(a) = {b / a:.2f} (goal <= 1.5); (b) {'<=' if b <= 1.0 else '>'} 1 s (goal <= 1 s)")
        if args.huge:
            huge(Path(tmp))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
