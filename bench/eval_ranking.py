"""The ranking table: the bundled examples' suites under the studio's ranking, plain BM25 and the reference CLI.

For every bundled example pack, runs its discovery suites (train and validation) and its answer-quality
suite at the default budget with ``bm25f`` (the studio's default), ``bm25`` (no field weights) and
``reference`` (the reference CLI's smoke test and dry run), and prints a Markdown table of discovery pass rate,
precision, near-topic prompts rejected, context recall and MRR, plus the discovery threshold that ``calibrate``
picks on the train suites and each discovery case's margin to the threshold.

``--real DIR`` runs the suites written by hand from the real packs in DIR (``bench/real_packs/manifest.json``:
prompts that should select a pack, near-topic prompts that should not, answer cases) instead, each pack alone
and among the packs of DIR as a client settles them (shadowed and quarantined copies hidden).

    python bench/eval_ranking.py [--examples resources/examples] [--budget 4000] [--real ../shared/corpus/real]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from studio.core.evals.discovery import DEFAULT_THRESHOLD, Specificity, calibrate, catalog_score, catalog_terms
from studio.core.evals.metrics import context_summary, discovery_summary
from studio.core.evals.model import ContextOutcome, DiscoveryOutcome, EvalConfig
from studio.core.evals.runner import run_suite
from studio.core.evals.suites import pack_suites, read_suite
from studio.core.pack import load_pack
from studio.core.resolver import ResolverSession
from studio.core.scan import find_pack_dirs
from studio.core.shadowing import apply, settle

VARIANTS = ("bm25f", "bm25", "reference")
REAL_SUITES = Path(__file__).resolve().parent / "real_packs"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=Path, default=Path(__file__).resolve().parents[1] / "resources/examples")
    parser.add_argument("--budget", type=int, default=4000)
    parser.add_argument("--real", type=Path, metavar="DIR", help="run the real-pack suites against the packs in DIR")
    args = parser.parse_args()
    if args.real:
        real_packs(args.real, args.budget)
        return
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
                train_scores += [(catalog_score(entry, c.prompt, Specificity.of(pack)).score, c.expected != "reject")
                                 for c in suite.discovery]
            counts[suite.kind or "discovery"] += len(suite.cases)
            counts["zh"] += sum(any("\u4e00" <= ch <= "\u9fff" for ch in c.prompt) for c in suite.cases)
            for variant in VARIANTS:
                run = run_suite(pack, suite, EvalConfig(budget=args.budget, ranking=variant), session=session)
                discovery[variant] += [_named(o, pack.name) for o in run.discovery]
                context[variant] += run.context
    print(f"{len(packs)} packs; {counts['discovery']} discovery and {counts['context']} context cases "
          f"({counts['zh']} in Chinese); budget {args.budget}")
    print(f"discovery threshold: default {DEFAULT_THRESHOLD}, calibrated on the train suites {calibrate(train_scores)}")
    print()
    print("| ranking | discovery pass rate | precision | near-topic rejected | recall | context recall | MRR | "
          "nDCG@10 | recall@5 | tokens |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for variant in VARIANTS:
        print("| " + variant + " | " + " | ".join(_row(discovery[variant], context[variant])) + " |")
    margins(discovery["bm25f"])
    field_guide(args.budget)


def _named(outcome: DiscoveryOutcome, pack: str) -> DiscoveryOutcome:
    """The outcome with its pack in the id, for the per-case table."""
    from dataclasses import replace

    return replace(outcome, id=f"{pack}: {outcome.id}")


def _row(discovery: Sequence[DiscoveryOutcome], context: Sequence[ContextOutcome]) -> list[str]:
    d, c = discovery_summary(discovery), context_summary(context)
    near = [o for o in discovery if o.expected == "reject"]
    rejected = sum(o.actual == "reject" for o in near)
    return [f"{d['pass_rate']:.2f} ({d['passed']}/{d['total']})", _n(d["precision"]), f"{rejected}/{len(near)}",
            _n(d["recall"]), _n(c["context_recall"]), _n(c["mrr"]), _n(c["ndcg_at_10"]), _n(c["recall_at_5"]),
            f"{c['tokens_mean']:.0f}" if c["tokens_mean"] is not None else "-"]


def margins(outcomes: Sequence[DiscoveryOutcome]) -> None:
    """Each case's margin to the threshold (score minus threshold), closest to the line first."""
    print()
    print("Discovery cases by margin to the threshold (bm25f; negative: below the line):")
    print()
    print("| case | expected | got | score | margin |")
    print("| --- | --- | --- | --- | --- |")
    for o in sorted(outcomes, key=lambda o: abs(o.margin) if o.margin is not None else 9.0):
        mark = "" if o.passed else " ✗"
        margin = "-" if o.margin is None else f"{o.margin:+.2f}"
        print(f"| {o.id} | {o.expected} | {o.actual}{mark} | {o.score:.2f} | {margin} |")


def real_packs(corpus: Path, budget: int) -> None:
    """The hand-written real-pack suites, each pack alone and among the settled packs of ``corpus``."""
    manifest = json.loads((REAL_SUITES / "manifest.json").read_text(encoding="utf-8"))
    loaded = [load_pack(p) for p in find_pack_dirs(corpus).pack_dirs]
    workspace = apply(loaded, settle(loaded))
    by_root = {p.root: p for p in workspace}
    rows: dict[str, dict[str, list[DiscoveryOutcome]]] = {w: {"discovery": [], "cross": []} for w in ("alone", "ws")}
    context: list[ContextOutcome] = []
    session = ResolverSession()
    config = EvalConfig(budget=budget)
    notes: list[str] = []
    for entry in manifest["packs"]:
        root = (corpus / entry["dir"]).resolve()
        settled = by_root.get(root)
        alone = load_pack(root)
        among = alone.with_verdict(settled.verdict) if settled is not None else alone
        for key, kind in (("discovery", "discovery"), ("cross_language", "cross")):
            if key not in entry:
                continue
            suite = read_suite(REAL_SUITES / entry[key], alone)
            for where, pack, others in (("alone", alone, []), ("ws", among, workspace)):
                run = run_suite(pack, suite, config, others, session)
                rows[where][kind] += [_named(o, Path(entry[key]).name.split(".")[0]) for o in run.discovery]
                notes += [f"{entry['dir']}: {n}" for n in run.notes if where == "ws"]
        if "context" in entry:
            suite = read_suite(REAL_SUITES / entry["context"], alone)
            context += run_suite(alone, suite, config, session=session).context
    total = sum(len(e) for e in rows["alone"].values())
    print(f"Real packs in {corpus}: {len(manifest['packs'])} packs with suites, {len(workspace)} packs in the "
          f"workspace; {total} discovery cases ({len(rows['alone']['cross'])} cross-language), {len(context)} "
          f"answer cases; threshold {DEFAULT_THRESHOLD}, budget {budget}")
    print()
    print("| discovery | pass rate | precision | near-topic rejected | recall |")
    print("| --- | --- | --- | --- | --- |")
    for where, label in (("alone", "each pack alone"), ("ws", "with --workspace")):
        row = _row(rows[where]["discovery"], [])
        print(f"| {label} | {row[0]} | {row[1]} | {row[2]} | {row[3]} |")
        cross = discovery_summary(rows[where]["cross"])
        print(f"| {label}, cross-language prompts | {cross['pass_rate']:.2f} ({cross['passed']}/{cross['total']}) "
              f"| - | - | - |")
    c = context_summary(context)
    print()
    print("| answer cases | context recall | MRR | nDCG@10 | recall@5 | tokens |")
    print("| --- | --- | --- | --- | --- | --- |")
    print(f"| {c['measured']} | {_n(c['context_recall'])} | {_n(c['mrr'])} | {_n(c['ndcg_at_10'])} | "
          f"{_n(c['recall_at_5'])} | {c['tokens_mean']} |")
    for o in context:
        print(f"  {o.id}: recall {_n(o.context_recall)}, RR {_n(o.reciprocal_rank)}; task-ranked "
              f"{', '.join(o.ranking[:3]) or '(nothing)'}; by policy {', '.join(o.policy_loaded) or '-'}")
    margins(rows["ws"]["discovery"])
    failed = [o for where in rows.values() for group in where.values() for o in group if not o.passed]
    if failed:
        print()
        print("Failing cases and why:")
        for o in dict((o.id + o.reason, o) for o in failed).values():
            print(f"- {o.id} (expected {o.expected}, got {o.actual}): {o.reason}")
    if notes:
        print()
        print("Notes:", *sorted(set(notes)), sep="\n- ")


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
