"""``pack-studio eval PACK --suite FILE``: run a discovery or answer-quality suite against a pack.

PACK is a pack directory or a pack name found in the scopes (``_scope.pack_argument``); a suite file that exists
neither in the pack nor in the current folder is a usage error.

Discovery suites (``cases``) simulate implicit activation from the tier-1 catalog; answer-quality suites
(``evals``) run the resolver for each prompt and measure the picked context against ``required_context``
(``studio.core.evals``). The JSON output is the reference CLI's ``eval`` envelope as a superset:
``{ok, status, command: "eval", pack, suite, kind, results, summary, findings}``; ``--reference`` adds the
reference CLI's own decisions (discovery) or its dry-run selection (context) for comparison; ``--compare``
runs a second configuration (``last`` recorded run, ``ranking=bm25``, ``budget=2000``, ``profile=hybrid``)
and adds per-case deltas. ``--write-run`` records the run under ``runs/`` (the only write).
Exit status: 0 every case passed, 1 a case failed or the suite has errors, 2 usage or environment errors.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from studio.cli._budget import add_budget_option, refused_budget
from studio.cli._output import add_encoding_option, add_format_option, write_json
from studio.cli._readonly import refuse_builtin
from studio.cli._scope import add_pack_options, pack_argument
from studio.core.diagnostics import Diagnostic, Severity
from studio.core.evals.compare import Comparison, compare_runs
from studio.core.evals.model import ContextOutcome, DiscoveryOutcome, EvalConfig, EvalRun
from studio.core.evals.records import summary_of, write_eval_record
from studio.core.evals.runner import last_recorded, run_suite, suite_path
from studio.core.evals.suites import read_suite
from studio.core.model import PROFILES, Pack
from studio.core.pack import load_pack
from studio.core.resolver import ResolverSession
from studio.core.resolver.budget import budget_problem
from studio.core.resolver.rank import RANKINGS
from studio.core.terminal import printable
from studio.core.tokens import get_tokenizer

RANKING_CHOICES = (*RANKINGS, "reference")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("eval", help="run a discovery or answer-quality eval suite against a pack",
                       description="Run an eval suite (evals/discovery.*.json or evals/answer-quality.json) against "
                       "PACK and report per-case results and a summary.")
    add_pack_options(p)
    p.add_argument("--suite", required=True, metavar="FILE",
                   help="suite file, relative to the pack (as the reference CLI reads it) or to the current folder")
    p.add_argument("--workspace", type=Path, metavar="DIR",
                   help="discovery: the other packs under DIR compete for each prompt")
    add_budget_option(p, "token budget per context case")
    p.add_argument("--profile", choices=PROFILES, default=None, help="override the pack's profile")
    add_encoding_option(p, "tokenizer encoding")
    p.add_argument("--ranking", choices=RANKING_CHOICES, default="bm25f",
                   help="bm25f (titles and headings weighted; default), bm25 (plain), or reference (the "
                   "reference CLI's choices)")
    p.add_argument("--threshold", type=float, default=None, help="discovery activation threshold (0-1)")
    p.add_argument("--reference", action="store_true", help="also give the reference CLI's decisions")
    p.add_argument("--compare", metavar="WHAT",
                   help="compare with a second configuration: last, ranking=R, budget=N, profile=P, threshold=T")
    p.add_argument("--write-run", action="store_true",
                   help="record the run: runs/eval-discovery-<UTC>.json or runs/eval-<UTC>/answer-results.json")
    add_format_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if refused_budget("eval", args.budget):
        return 2
    if args.threshold is not None and (problem := threshold_problem(args.threshold)) is not None:
        sys.stderr.write(f"pack-studio eval: --threshold {problem}\n")
        return 2
    pack = pack_argument(args.pack, args)
    if not (pack.root / "KNOWLEDGE.md").is_file():
        sys.stderr.write(f"pack-studio eval: {printable(str(args.pack))}: not a pack (no KNOWLEDGE.md)\n")
        return 2
    if args.write_run:
        refuse_builtin(pack.root, "--write-run", pack.scope)
    where = suite_path(pack.root, args.suite)
    if not os.path.lexists(where):
        sys.stderr.write(f"pack-studio eval: the suite file {printable(args.suite)} does not exist (looked in "
                         f"{printable(str(pack.root))} and in the current folder)\n")
        return 2
    tokenizer = get_tokenizer(args.encoding)
    if not tokenizer.available:
        sys.stderr.write(f"tokenizer unavailable: {tokenizer.unavailable_reason}\n")
        return 2
    suite = read_suite(where, pack)
    workspace = _workspace(args.workspace) if args.workspace else []
    # The copy given is evaluated; the workspace says whether a client would load another copy of its name.
    settled = next((p for p in workspace if p.root == pack.root), None)
    if settled is not None:
        pack = pack.with_verdict(settled.verdict)
    config = EvalConfig(args.budget, args.profile, args.encoding, args.ranking, args.threshold)
    session = ResolverSession()
    result = run_suite(pack, suite, config, workspace, session)
    data = envelope(result)
    if args.reference and suite.kind is not None:
        reference = run_suite(pack, suite, replace(config, ranking="reference"), workspace, session)
        data["reference"] = {"results": [o.to_json() for o in reference.outcomes], "summary": summary_of(reference)}
    comparison = _comparison(args.compare, pack, suite, config, result, workspace, session) if args.compare else None
    if isinstance(comparison, str):  # why not: it names the pack's folder and the user's --compare text
        sys.stderr.write(f"pack-studio eval: {printable(comparison)}\n")
        return 2
    if comparison is not None:
        data["comparison"] = comparison.to_json()
    written = None
    if args.write_run and suite.kind is not None:
        try:
            written = write_eval_record(result, pack.root)
            data["written"] = str(written)
        except OSError as exc:
            sys.stderr.write(f"{printable(str(pack.root))}: could not write the eval record: {printable(str(exc))}\n")
            return 1
    if args.format == "json":
        write_json(data)
    else:
        sys.stdout.write(render_text(result, data, comparison, ran=suite.kind is not None))
        if written is not None:
            sys.stdout.write(f"eval record written: {printable(str(written))}\n")
    return 0 if data["ok"] else 1


def envelope(result: EvalRun) -> dict[str, Any]:
    """The reference CLI's eval envelope, extended (kind, configuration, per-case detail, findings)."""
    summary = summary_of(result)
    errors = any(d.severity is Severity.ERROR for d in result.findings)
    ok = summary["failed"] == 0 and not errors and bool(result.outcomes)
    return {
        "ok": ok, "status": "passed" if ok else "needs-review", "command": "eval", "pack": result.pack,
        "suite": result.suite, "kind": result.kind, "configuration": result.config.to_json(),
        "results": [o.to_json() for o in result.outcomes], "summary": summary,
        "findings": [_finding(d) for d in result.findings], "notes": list(result.notes),
    }


def _finding(d: Diagnostic) -> dict[str, Any]:
    return {"severity": d.severity.value, "code": d.code, "path": d.file, "line": d.line, "column": d.column,
            "message": d.message}


def threshold_problem(value: float) -> str | None:
    """Why ``value`` cannot be an activation threshold (NaN and infinities fail the range test), or None."""
    return None if 0 <= value <= 1 else "must be between 0 and 1"


def _workspace(folder: Path) -> list[Pack]:
    """The packs under ``folder`` as a client settles them: a shadowed copy is marked, so it never competes."""
    from studio.core.pins import PinsError, project_pins_file, read_pins_file
    from studio.core.scan import find_pack_dirs
    from studio.core.shadowing import apply, settle

    packs = [load_pack(p) for p in find_pack_dirs(folder).pack_dirs]
    try:
        pins = read_pins_file(project_pins_file(folder))
    except (OSError, PinsError):
        pins = {}  # no pins file, or one the validate command reports: precedence alone decides here
    return apply(packs, settle(packs, pins=pins))


def _comparison(what: str, pack: Pack, suite: Any, config: EvalConfig, current: EvalRun, workspace: list[Pack],
                session: ResolverSession) -> Comparison | str | None:
    if what == "last":
        previous = last_recorded(pack, current)
        if previous is None:
            return f"no recorded run of {current.suite} under {pack.root}/runs to compare with"
        return compare_runs(previous, current, f"recorded {previous.source}", "working tree")
    key, _, value = what.partition("=")
    try:
        other = {"ranking": lambda: replace(config, ranking=value if value in RANKING_CHOICES else ""),
                 "budget": lambda: replace(config, budget=int(value)),
                 "profile": lambda: replace(config, profile=value if value in PROFILES else ""),
                 "threshold": lambda: replace(config, threshold=float(value))}[key]()
    except (KeyError, ValueError):
        return f"--compare {what!r}: use last, ranking=R, budget=N, profile=P or threshold=T"
    if other.ranking == "" or other.profile == "":
        return f"--compare {what!r}: unknown value"
    if current.kind == "discovery" and key in ("budget", "profile"):
        # Activation reads only the catalog entry: a budget or a profile cannot change a discovery case, and a
        # comparison saying "6 unchanged" would read as a finding.
        return (f"--compare {what!r}: a discovery suite does not depend on the {key} (activation reads only the "
                "catalog entry); compare ranking=R or threshold=T instead")
    if (problem := budget_problem(other.budget)) is not None:
        return f"--compare {what!r}: {problem}"
    if other.threshold is not None and (problem := threshold_problem(other.threshold)) is not None:
        return f"--compare {what!r}: the threshold {problem}"
    second = run_suite(pack, suite, other, workspace, session)
    return compare_runs(current, second, config.label(), other.label())


def render_text(result: EvalRun, data: dict[str, Any], comparison: Comparison | None, *, ran: bool = True) -> str:
    """The run as lines; ``ran`` False: the suite could not be read, so the findings say why and no summary is given
    (a suite of unknown kind is neither a discovery nor a context suite, and "0/0 passed" would say nothing)."""
    kind = result.kind if ran else "not run: the suite could not be read"
    lines = [f"eval {printable(result.pack)}  {printable(result.suite)}  ({kind}; {result.config.label()})"]
    for f in data["findings"]:
        lines.append(f"{printable(f['path'])}:{f['line']}:{f['column']}: {f['severity']} {f['code']} "
                     f"{printable(f['message'])}")
    if not ran:
        return "\n".join(lines) + "\n"
    lines.extend(f"note: {printable(n)}" for n in result.notes)
    for o in result.outcomes:
        mark = "PASS" if o.passed else "FAIL"
        if isinstance(o, DiscoveryOutcome):
            lines.append(f"  {mark} {printable(o.id)}: expected {o.expected}, got {printable(str(o.actual))} "
                         f"(score {o.score:.2f}" + ("" if o.margin is None else f", margin {o.margin:+.2f}")
                         + f"). {printable(o.reason)}")
            continue
        assert isinstance(o, ContextOutcome)
        recall = "-" if o.context_recall is None else f"{o.context_recall:.2f}"
        rr = "-" if o.reciprocal_rank is None else f"{o.reciprocal_rank:.2f}"
        lines.append(f"  {mark} {printable(o.id)}: recall {recall}, RR {rr}, {o.tokens_used}/{o.budget} tokens")
        policy = set(o.policy_loaded)
        picked = ", ".join(printable(s.key) + (" *" if s.required else "")
                           for s in o.selected if s.key not in policy and s.path != "KNOWLEDGE.md")
        lines.append(f"       picked for the task: {picked or '(nothing)'}")
        if policy:
            lines.append(f"       loaded by policy: {', '.join(map(printable, o.policy_loaded))}")
        if o.missed:
            lines.append(f"       missed: {', '.join(map(printable, o.missed))}")
        if o.not_run:
            lines.append(f"       not run (needs a model): {', '.join(map(printable, o.not_run))}")
    s = data["summary"]
    if result.kind == "discovery":
        lines.append(f"summary: {s['passed']}/{s['total']} passed ({s['pass_rate']:.0%}), precision "
                     f"{_num(s['precision'])}, recall {_num(s['recall'])}, false positives {s['false_positives']}, "
                     f"false negatives {s['false_negatives']}")
    else:
        lines.append(f"summary: {s['passed']}/{s['total']} with all required context; context recall "
                     f"{_num(s['context_recall'])}, MRR {_num(s['mrr'])}, nDCG@10 {_num(s['ndcg_at_10'])}, recall@5 "
                     f"{_num(s['recall_at_5'])}, tokens mean {s['tokens_mean']}")
    if "reference" in data:
        r = data["reference"]["summary"]
        lines.append(f"reference CLI: {r['passed']}/{r['total']} passed ({r['pass_rate']:.0%})"
                     + (f", context recall {_num(r['context_recall'])}" if "context_recall" in r else ""))
    if comparison is not None:
        counts = comparison.counts()
        lines.append(f"compare {comparison.label_a} -> {comparison.label_b}: " + ", ".join(
            f"{n} {k}" for k, n in counts.items() if n))
        for case in comparison.cases:
            if case.change not in ("unchanged",):
                lines.append(f"  {case.change:9s} {printable(case.id)}" + _delta_text(case))
        delta = comparison.summary_delta()
        lines.append("  summary delta: " + ", ".join(f"{k} {v:+.3g}" for k, v in delta.items()
                                                     if k in ("pass_rate", "context_recall", "mrr", "ndcg_at_10")))
    return "\n".join(lines) + "\n"


def _delta_text(case: Any) -> str:
    parts = []
    for name, label in (("context_recall", "recall"), ("reciprocal_rank", "RR"), ("score", "score")):
        d = case.delta(name)
        if d:
            parts.append(f"{label} {d:+.2f}")
    if case.entered:
        parts.append("now picks " + ", ".join(map(printable, case.entered[:3])))
    if case.left:
        parts.append("no longer " + ", ".join(map(printable, case.left[:3])))
    return ("  " + "; ".join(parts)) if parts else ""


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"
