"""``pack-studio runs PACK``: the run-record timeline, statistics, feedback per file and each record's validity.

The JSON output's ``feedback`` holds per file the helpful and harmful counts, the confidence (Wilson score lower
bound of the helpful share, ``studio.core.feedback.aggregate``) and the latest outcomes with their tasks. PACK is a
pack directory or a pack name found in the scopes (``_scope.pack_argument``); a folder without ``KNOWLEDGE.md`` is
not a pack (exit status 2).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from studio.cli._output import add_format_option, write_json
from studio.cli._scope import add_pack_options, pack_folder_argument
from studio.core.diagnostics import Diagnostic, counted
from studio.core.feedback import FeedbackSummary, aggregate_feedback
from studio.core.provenance import read_provenance
from studio.core.runs import RunsReport, read_runs
from studio.core.runs.stats import RunStats, compute_stats
from studio.core.runs.timestamps import format_time
from studio.core.terminal import printable, shortened

_MAX_LISTED = 20


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("runs", help="list a pack's run records with validity and statistics",
                       description="Read every record under PACK/runs/ (read-only) and print the timeline, "
                       "selection statistics and provenance. Exit status: 0 all records usable, "
                       "1 some record is invalid or malformed, 2 PACK is not a pack.")
    add_pack_options(p)
    add_format_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    pack = pack_folder_argument(args.pack, args)
    if pack.knowledge is None and not _has_knowledge_file(pack.root):
        print(f"pack-studio runs: {printable(str(pack.root))} is not a pack (no KNOWLEDGE.md); give a pack "
              "directory or name", file=sys.stderr)
        return 2
    report = read_runs(pack.root)
    stats = compute_stats(report, pack.root, pack.name)
    provenance = read_provenance(pack, report)
    feedback = aggregate_feedback(report, pack.name, pack.root)
    if args.format == "json":
        write_json({
            "pack": pack.name, "path": str(pack.root),
            "records": [r.to_dict() for r in report.records],
            "stats": stats.to_dict(), "provenance": provenance.to_dict(), "feedback": feedback.to_dict(),
            "diagnostics": [d.to_dict() for d in _folder_diags(report)],
        })
    else:
        _print_text(pack.name, report, stats, provenance.to_dict())
        _print_feedback(feedback)
    return 1 if any(r.validity.is_problem for r in report.records) else 0


def _has_knowledge_file(root: Path) -> bool:
    """A ``KNOWLEDGE.md`` in any letter case (the loader reports a wrongly cased one; it is still a pack)."""
    try:
        return any(name.lower() == "knowledge.md" for name in os.listdir(root))
    except OSError:
        return False


def _folder_diags(report: RunsReport) -> list[Diagnostic]:
    """Findings about the folder itself (the report also repeats every record's own findings)."""
    own = {id(d) for r in report.records for d in r.diagnostics}
    return [d for d in report.diagnostics if id(d) not in own]


def _print_text(name: str, report: RunsReport, stats: RunStats, provenance: dict[str, Any]) -> None:
    out = sys.stdout
    out.write(f"Runs of {printable(name)}: {counted(len(report.records), 'record')}\n\n")
    for r in report.records:
        out.write(f"{format_time(r.timestamp):<21} {r.kind.value:<19} {r.validity.value:<11} {printable(r.path)}\n")
        out.write(f"{'':<21} {printable(r.summary)}\n")
        for d in r.diagnostics:
            out.write(f"{'':<21} {d.line}:{d.column}: {d.severity.value} {d.code} {printable(d.message)}\n")
    for d in _folder_diags(report):
        out.write(d.format() + "\n")
    counts = ", ".join(f"{v} {k}" for k, v in sorted(stats.validity_counts.items())) or "none"
    out.write(f"\nValidity: {counts}\n")
    if stats.compile_history:
        out.write("Compile history: " + "; ".join(f"{t} {printable(s)}" for t, _p, s in stats.compile_history)
                  + "\n")
    if stats.over_time:
        out.write("Warnings / citation gaps over time:\n")
        for point in stats.over_time:
            out.write(f"  {point.time:<21} {counted(point.warnings, 'warning'):>12} "
                      f"{counted(point.citation_gaps, 'gap'):>8}  {printable(point.path)}\n")
    out.write(f"Selections ({counted(stats.selection_records, 'context/usage record')}):\n")
    for path, count in sorted(stats.selection_counts.items(), key=lambda kv: (-kv[1], kv[0]))[:_MAX_LISTED]:
        out.write(f"  {count:>4}  {printable(path)}\n")
    _list(out, "Never selected", stats.never_selected)
    _list(out, "Selected but missing now", stats.selected_missing)
    _list(out, "Selected files whose content changed since a record hashed it",
          [f"{c.path} (last selected {c.last_selected}; hash in {c.record})" for c in stats.selected_modified])
    if stats.selected_change_note:
        out.write(stats.selected_change_note + "\n")
    _list(out, "Compile outputs that no longer exist", [f"{p} ({r})" for p, r in stats.outputs_missing])
    _list(out, "Changed since the compile run hashed them", [f"{h.path} ({h.record})" for h in stats.changed])
    produced = provenance["produced_by"]
    if produced or provenance["run_builders"]:
        out.write("Provenance:\n")
        if produced:
            out.write(f"  producedBy: {_builder(produced)}\n")
        for ref in provenance["run_builders"]:
            out.write(f"  {printable(str(ref['origin']))}: {_builder(ref)}\n")
        out.write(f"  {printable(str(provenance['consistency']))}\n")
        for d in provenance["diagnostics"]:
            out.write(f"  {d['severity']} {d['code']} {printable(str(d['message']))}\n")
        out.write(f"  {printable(str(provenance['statement']))}\n")


def _print_feedback(feedback: FeedbackSummary) -> None:
    if not feedback.files and not feedback.not_counted:
        return
    out = sys.stdout
    out.write(f"Feedback ({counted(feedback.records, 'record')}; "
              "confidence = Wilson lower bound of the helpful share):\n")
    for f in feedback.files[:_MAX_LISTED]:
        confidence = "-" if f.confidence is None else f"{f.confidence:.2f}"
        gone = "  (no longer in the pack)" if not f.exists else ""
        out.write(f"  {f.helpful:>3} helpful {f.harmful:>3} harmful  confidence {confidence}  {_safe(f.path)}{gone}\n")
        for e in f.recent(3):
            query = shortened(e.query, 60)
            out.write(f"        {_safe(e.timestamp)} {e.outcome}: \"{_safe(query)}\"\n")
    if len(feedback.files) > _MAX_LISTED:
        out.write(f"  ... and {len(feedback.files) - _MAX_LISTED} more\n")
    if feedback.not_counted:
        out.write(f"  {counted(feedback.not_counted, 'feedback record')} not counted\n")
    for d in feedback.diagnostics:
        out.write(f"  {d.file}:{d.line}:{d.column}: {d.severity.value} {d.code} {_safe(d.message)}\n")


def _safe(text: str) -> str:
    """Record text on one line, without terminal control characters (records are pack content)."""
    return "".join(ch if ch.isprintable() else "?" for ch in text)


def _builder(ref: dict[str, Any]) -> str:
    parts = [f"{k}={printable(str(ref[k]))}" for k in ("kind", "name", "version", "digest", "source") if ref.get(k)]
    return " ".join(parts) or "(empty)"


def _list(out: Any, title: str, items: list[str]) -> None:
    if not items:
        return
    out.write(f"{title} ({len(items)}):\n")
    for item in items[:_MAX_LISTED]:
        out.write(f"  {printable(item)}\n")
    if len(items) > _MAX_LISTED:
        out.write(f"  ... and {len(items) - _MAX_LISTED} more\n")
