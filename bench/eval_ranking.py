"""The ranking table: the bundled examples' suites under the studio's ranking, plain BM25 and the reference CLI.

For every bundled example pack, runs its discovery suites (train and validation) and its answer-quality
suite at the default budget with ``bm25f`` (the studio's default), ``bm25`` (no field weights) and
``reference`` (the reference CLI's smoke test and dry run), and prints a Markdown table of discovery pass rate,
context recall and MRR, plus the discovery threshold that ``calibrate`` picks on the train suites.

    python bench/eval_ranking.py [--examples resources/examples] [--budget 4000]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from studio.core.evals.discovery import DEFAULT_THRESHOLD, calibrate, catalog_score, catalog_terms
from studio.core.evals.metrics import context_summary, discovery_summary
from studio.core.evals.model import ContextOutcome, DiscoveryOutcome, EvalConfig
from studio.core.evals.runner import run_suite
from studio.core.evals.suites import pack_suites, read_suite
from studio.core.pack import load_pack
from studio.core.resolver import ResolverSession

VARIANTS = ("bm25f", "bm25", "reference")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=Path, default=Path(__file__).resolve().parents[1] / "resources/examples")
    parser.add_argument("--budget", type=int, default=4000)
    args = parser.parse_args()
    packs = [load_pack(p) for p in sorted(args.examples.iterdir()) if (p / "KNOWLEDGE.md").is_file()]
    train_scores: list[tuple[float, bool]] = []
    discovery: dict[str, list[DiscoveryOutcome]] = {v: [] for v in VARIANTS}
    context: dict[str, list[ContextOutcome]] = {v: [] for v in VARIANTS}
    counts = {"discovery": 0, "context": 0, "zh": 0}
    for pack in packs:
        session = ResolverSession()
        entry = catalog_terms(pack)
        for rel in pack_suites(pack.root):
            suite = read_suite(pack.root / rel, pack)
            if rel.endswith("discovery.train.json"):
                train_scores += [(catalog_score(entry, c.prompt).score, c.expected != "reject")
                                 for c in suite.discovery]
            counts[suite.kind or "discovery"] += len(suite.cases)
            counts["zh"] += sum(any("\u4e00" <= ch <= "\u9fff" for ch in c.prompt) for c in suite.cases)
            for variant in VARIANTS:
                run = run_suite(pack, suite, EvalConfig(budget=args.budget, ranking=variant), session=session)
                discovery[variant] += run.discovery
                context[variant] += run.context
    print(f"{len(packs)} packs; {counts['discovery']} discovery and {counts['context']} context cases "
          f"({counts['zh']} in Chinese); budget {args.budget}")
    print(f"discovery threshold: default {DEFAULT_THRESHOLD}, calibrated on the train suites {calibrate(train_scores)}")
    print()
    print("| ranking | discovery pass rate | precision | recall | context recall | MRR | nDCG@10 | recall@5 | tokens |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for variant in VARIANTS:
        d, c = discovery_summary(discovery[variant]), context_summary(context[variant])
        print(f"| {variant} | {d['pass_rate']:.2f} ({d['passed']}/{d['total']}) | {_n(d['precision'])} | "
              f"{_n(d['recall'])} | {_n(c['context_recall'])} | {_n(c['mrr'])} | {_n(c['ndcg_at_10'])} | "
              f"{_n(c['recall_at_5'])} | {c['tokens_mean']:.0f} |")
    field_guide(args.budget)


def field_guide(budget: int) -> None:
    """The same measures on the generated 200-split field guide (bench/field_guide.py), 50 context cases."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from field_guide import build

    with tempfile.TemporaryDirectory() as tmp:
        pack = load_pack(build(Path(tmp)))
        suite = read_suite(pack.root / "evals" / "answer-quality.json", pack)
        print()
        print("Generated 200-split field guide, 50 context cases (5 of them \"fungi near the footpath\"):")
        print()
        print("| ranking | context recall | MRR | nDCG@10 | recall@5 | fungi cases: recall / MRR | fungi cases at "
              "budget 1000: recall |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for variant in VARIANTS:
            run = run_suite(pack, suite, EvalConfig(budget=budget, ranking=variant), session=ResolverSession())
            c = context_summary(run.context)
            fungi = context_summary([o for o in run.context if "fungi" in o.prompt])
            small = run_suite(pack, suite, EvalConfig(budget=1000, ranking=variant), session=ResolverSession())
            fungi_small = context_summary([o for o in small.context if "fungi" in o.prompt])
            print(f"| {variant} | {_n(c['context_recall'])} | {_n(c['mrr'])} | {_n(c['ndcg_at_10'])} | "
                  f"{_n(c['recall_at_5'])} | {_n(fungi['context_recall'])} / {_n(fungi['mrr'])} | "
                  f"{_n(fungi_small['context_recall'])} |")


def _n(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


if __name__ == "__main__":
    main()
