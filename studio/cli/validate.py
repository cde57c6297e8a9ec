"""``pack-studio validate``: discover packs and print every diagnostic (text, JSON, SARIF or GitHub annotations).

The CI formats are rendered by ``studio.cli._sarif`` and ``studio.cli._github``; ``--strict`` makes warnings fail
the run as errors do.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from studio.cli._findings import located_findings
from studio.cli._github import github_annotations
from studio.cli._output import add_format_option, write_json
from studio.cli._sarif import sarif_log
from studio.cli._scope import add_scope_arguments, options_from_args
from studio.core.diagnostics import Diagnostic, DiagnosticCounts, Severity, counted
from studio.core.model import Pack
from studio.core.workspace import Workspace, open_workspace


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("validate", help="validate packs and print diagnostics",
                       description="Validate packs. PATH is a pack directory or a root to scan. "
                       "Exit status: 0 no errors, 1 errors (or warnings with --strict), 2 usage error.")
    add_scope_arguments(p)
    add_format_option(p, ("text", "json", "sarif", "github"),
                      help="text (default); json; sarif (SARIF 2.1.0, for code scanning); github (workflow-command "
                      "annotations for GitHub Actions)")
    p.add_argument("--strict", action="store_true", help="warnings fail the run too (exit status 1)")
    p.add_argument("--fast", action="store_true",
                   help="check KNOWLEDGE.md and the layout only; skip the content checks (source maps and eval "
                   "suites, runs/ records, executable files, symlinks and hard links, prompt-injection and "
                   "fence-breaking text in every text file), which run by default")
    p.add_argument("--content", action="store_true", help=argparse.SUPPRESS)  # the default now; kept for scripts
    p.add_argument("--min-severity", choices=("error", "warning", "info"), default="info",
                   help="hide findings below this severity in text and github output")
    p.add_argument("--hints", action="store_true",
                   help="text output: print each finding's fix hint on an indented line below it")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    options = options_from_args(args)
    options.content_checks = not args.fast
    # One worker process per core. Loaded findings-only, the packs are cheap to send back, so two cores
    # already break even with one process (1,000 packs: 1.05x the I/O floor against 1.11x); and a crash
    # in a C extension then costs one pack, not the run.
    options.processes = os.cpu_count() or 1
    options.findings_only = True  # what is printed needs no texts: workers send back far less
    workspace = open_workspace(options)
    if args.format == "json":
        write_json(workspace_json(workspace))
    elif args.format == "sarif":
        write_json(sarif_log(located_findings(workspace), Path.cwd()))
    elif args.format == "github":
        print_github(workspace, Severity(args.min_severity))
    else:
        print_text(workspace, Severity(args.min_severity), hints=args.hints)
    failing = (Severity.ERROR, Severity.WARNING) if args.strict else (Severity.ERROR,)
    return 1 if any(d.severity in failing for d in workspace.all_diagnostics()) else 0


def pack_json(pack: Pack) -> dict[str, Any]:
    return {
        "name": pack.name,
        "path": str(pack.root),
        "scope": pack.scope.value,
        "loads": pack.loads,
        "in_catalog": pack.in_catalog,
        "shadowed_by": str(pack.shadowed_by) if pack.shadowed_by else None,
        "status": pack.status,
        "profile": pack.profile,
        "effective_profile": pack.effective_profile,
        "runtime_mode": pack.runtime_mode,
        "trust": pack.trust,
        "behavior": pack.behavior.value,
        "diagnostics": [d.to_dict() for d in pack.findings],
    }


def workspace_json(workspace: Workspace) -> dict[str, Any]:
    everything = workspace.all_diagnostics()
    counts = DiagnosticCounts.of(everything)
    return {
        "packs": [pack_json(p) for p in workspace.packs],
        "diagnostics": [d.to_dict() for d in workspace.diagnostics],
        "locations": [
            {"scope": loc.scope.value, "path": str(loc.path), "exists": loc.exists,
             "packs_found": loc.packs_found, "dirs_visited": loc.dirs_visited, "truncated": loc.truncated}
            for loc in workspace.locations
        ],
        "summary": {"packs": len(workspace.packs), "errors": counts.errors, "warnings": counts.warnings,
                    "infos": counts.infos},
    }


def print_github(workspace: Workspace, min_severity: Severity) -> None:
    out = sys.stdout
    for line in github_annotations(located_findings(workspace, min_severity), Path.cwd()):
        out.write(line + "\n")
    counts = DiagnosticCounts.of(workspace.all_diagnostics())
    out.write(f"pack-studio: {counted(len(workspace.packs), 'pack')}: {counts.phrase()}\n")


def print_text(workspace: Workspace, min_severity: Severity, *, hints: bool = False) -> None:
    out = sys.stdout

    def write(d: Diagnostic, root: str = "") -> None:
        out.write(d.format(root) + "\n")
        if hints and d.hint:
            out.write(f"    hint: {d.hint}\n")

    for d in workspace.diagnostics:
        if d.severity.rank <= min_severity.rank:
            write(d)
    for pack in workspace.packs:
        for d in pack.findings:
            if d.severity.rank <= min_severity.rank:
                write(d, str(pack.root))
    counts = DiagnosticCounts.of(workspace.all_diagnostics())
    loaded = sum(1 for p in workspace.packs if p.loads)
    out.write(f"{counted(len(workspace.packs), 'pack')} ({loaded} load): {counts.phrase()}\n")
