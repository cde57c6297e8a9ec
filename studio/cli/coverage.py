"""``pack-studio coverage PACK|PATH... [--suite FILE]... [--budget N] [--format text|json|markdown]``.

The tasks each pack is known to face (eval cases, queries recorded under ``runs/``, ontology coverage rows), each
answered or not and by which files, the clusters of similar gaps, and the files no task selects
(``studio.core.coverage``). JSON, for one pack: ``{tasks: [{id, source, text, answered, by, why, origin, count}],
never_selected, summary: {tasks, answered, gaps}, clusters, skipped, notes}``; for several, ``{"reports": [...]}``.
Pack text is escaped in text and Markdown output (``studio.core.terminal``); JSON carries it as it is.
Exit status: 0 no gaps, 1 a gap was found, 2 usage errors.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from studio.cli._output import add_format_option, write_json
from studio.cli._scope import add_scope_options, pack_arguments
from studio.core.coverage import CoverageOptions, CoverageReport, cluster_gaps, compute_coverage
from studio.core.evals.runner import suite_path
from studio.core.resolver.budget import DEFAULT_BUDGET, budget_problem
from studio.core.terminal import printable

MAX_LISTED = 200
"""Tasks, clusters and files listed per section in text output (JSON lists them all)."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("coverage", help="which known tasks a pack answers, which are gaps, which files go unused",
                       description="Report the tasks each pack is known to face (eval cases, recorded queries, "
                       "ontology coverage rows), answered or not, and the files no task selects.")
    p.add_argument("paths", nargs="+", type=Path, metavar="PACK",
                   help="pack directories, or names of packs in the scopes")
    p.add_argument("--suite", action="append", default=[], metavar="FILE",
                   help="suite file to use instead of the pack's evals/*.json (repeatable)")
    p.add_argument("--budget", type=int, default=DEFAULT_BUDGET,
                   help=f"token budget per task (default {DEFAULT_BUDGET})")
    add_format_option(p, ("text", "json", "markdown"))
    add_scope_options(p, for_names=True)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    problem = budget_problem(args.budget)
    if problem is not None:
        sys.stderr.write(f"pack-studio coverage: --budget: {problem}\n")
        return 2
    packs = pack_arguments(args.paths, args)
    reports = []
    for pack in packs:
        suites = tuple(suite_path(pack.root, s) for s in args.suite)
        reports.extend(compute_coverage([pack], CoverageOptions(budget=args.budget, suites=suites)))
    if args.format == "json":
        out = [_json(r) for r in reports]
        write_json(out[0] if len(out) == 1 else {"reports": out})
    else:
        sys.stdout.write("\n".join(_markdown(r) if args.format == "markdown" else _text(r) for r in reports))
    return 1 if any(r.gaps for r in reports) else 0


def _json(report: CoverageReport) -> dict[str, Any]:
    out = report.to_json()
    out["clusters"] = [c.to_json() for c in cluster_gaps(report.tasks)]
    return out


def _ordered(report: CoverageReport) -> list[Any]:
    return sorted(report.tasks, key=lambda t: (t.answered, -t.count, t.id))  # gaps first


def _text(report: CoverageReport) -> str:
    s = report.summary()
    lines = [f"{printable(report.pack)}: {s['tasks']} task(s), {s['answered']} answered, {s['gaps']} gap(s)"]
    lines += [f"  {printable(note)}" for note in report.notes]
    for t in _ordered(report)[:MAX_LISTED]:
        mark = "ok " if t.answered else "GAP"
        times = f" x{t.count}" if t.count > 1 else ""
        lines.append(f"  {mark} [{t.source}] {printable(t.text)}{times}")
        lines.append(f"      {printable(t.why)}" + (f"; by {printable(', '.join(t.by))}" if t.by else ""))
    clusters = [c for c in cluster_gaps(report.tasks) if len(c.tasks) > 1]
    if clusters:
        lines.append("  Similar gaps (one piece of work each):")
        lines += [f"    {c.size} x {printable(c.tasks[0].text)} ({len(c.tasks)} wordings)"
                  for c in clusters[:MAX_LISTED]]
    if report.never_selected:
        lines.append(f"  Never selected by any task ({len(report.never_selected)}):")
        lines += [f"    {printable(p)}" for p in report.never_selected[:MAX_LISTED]]
    if report.skipped:
        lines.append(f"  Skipped ({len(report.skipped)}):")
        lines += [f"    {printable(x.path)}: {printable(x.reason)}" for x in report.skipped[:MAX_LISTED]]
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return printable(text).replace("|", "\\|")


def _markdown(report: CoverageReport) -> str:
    s = report.summary()
    lines = [f"## Coverage of {_cell(report.pack)}", "",
             f"{s['tasks']} task(s), {s['answered']} answered, {s['gaps']} gap(s).", ""]
    lines += [f"> {_cell(n)}" for n in report.notes]
    if report.tasks:
        lines += ["| | Source | Task | Answered by | Why |", "|---|---|---|---|---|"]
        lines += [f"| {'ok' if t.answered else '**gap**'} | {t.source} | {_cell(t.text)} | "
                  f"{_cell(', '.join(t.by))} | {_cell(t.why)} |" for t in _ordered(report)[:MAX_LISTED]]
    if report.never_selected:
        lines += ["", "Never selected: " + ", ".join(f"`{_cell(p)}`" for p in report.never_selected[:MAX_LISTED])]
    return "\n".join(lines) + "\n"
