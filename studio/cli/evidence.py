"""``pack-studio evidence PACK [--claim ID]``: source-map claims and citations resolved to their excerpts.

PACK is a pack directory or a pack name found in the scopes (``_scope.pack_argument``).
"""

from __future__ import annotations

import argparse
import sys

from studio.cli._output import add_format_option, write_json
from studio.cli._scope import add_pack_options, pack_folder_argument
from studio.core.diagnostics import DiagnosticCounts, Severity, counted
from studio.core.evidence import ClaimEvidence, EvidenceReport, build_evidence
from studio.core.runs import read_runs
from studio.core.terminal import printable


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("evidence", help="trace claims to their source excerpts (read-only)",
                       description="Resolve indexes/source-map.json claims and inline [source: path#anchor] "
                       "citations to the exact excerpt. Sources outside the pack are reported, never read. "
                       "Exit status: 0 no errors, 1 errors (missing or outside sources), 2 usage error.")
    add_pack_options(p)
    p.add_argument("--claim", metavar="ID", help="show one source-map claim in full")
    add_format_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    root = pack_folder_argument(args.pack, args).root
    report = build_evidence(root, read_runs(root))
    if args.claim is not None:
        found = report.claim(args.claim)
        if found is None:
            known = ", ".join(c.claim.claim_id for c in report.claims[:10]) or "none"
            print(f"pack-studio evidence: no claim '{printable(args.claim)}' in the source map (claims: "
                  f"{printable(known)})", file=sys.stderr)
            return 2
        if args.format == "json":
            write_json(found.to_dict())
        else:
            _print_claim(found, full=True)
        return 1 if any(d.severity is Severity.ERROR for d in found.diagnostics) else 0
    if args.format == "json":
        write_json(report.to_dict())
    else:
        _print_report(report)
    return 1 if any(d.severity is Severity.ERROR for d in report.diagnostics) else 0


def _print_claim(item: ClaimEvidence, *, full: bool) -> None:
    out = sys.stdout
    c, e = item.claim, item.excerpt
    anchor = f"#{c.fragment}" if c.fragment else ""
    out.write(f"{printable(c.claim_id)} [{printable(c.status or '?')}] {printable(c.text)}\n")
    lines = f" lines {e.start_line}-{e.end_line}" if e.start_line else ""
    out.write(f"  source: {printable(c.source_path + anchor)} -> {e.state.value}{lines}"
              f"{' (source changed since compile)' if item.source_changed else ''}\n")
    if e.text:
        shown = e.text.splitlines() if full else e.text.splitlines()[:1]
        for line in shown:
            out.write(f"  | {printable(line)}\n")
        if e.truncated and full:
            out.write("  | … (excerpt truncated)\n")
    if full:
        for path, state in item.compiled_into:
            out.write(f"  compiled into: {printable(path)} ({state})\n")
    for d in item.diagnostics:
        out.write(f"  {d.severity.value} {d.code} {printable(d.message)}\n")


def _print_report(report: EvidenceReport) -> None:
    out = sys.stdout
    if not report.source_map_present:
        out.write("No indexes/source-map.json in this pack.\n")
    for item in report.claims:
        _print_claim(item, full=False)
    resolved = sum(1 for c in report.citations if c.excerpt.ok)
    out.write(f"\nInline citations: {len(report.citations)} ({resolved} resolved)\n")
    claim_diags = {id(d) for item in report.claims for d in item.diagnostics}
    for d in report.diagnostics:
        if id(d) not in claim_diags:
            out.write(d.format() + "\n")
    counts = DiagnosticCounts.of(report.diagnostics)
    out.write(f"{counted(len(report.claims), 'claim')}: {counts.phrase()}\n")

