"""``pack-studio resolve-context PACK --query TEXT [--dry-run]``: the reference CLI's command, same JSON.

It only ever dry-runs (the studio never calls a model), so ``--dry-run`` is accepted for compatibility.
Output: ``{ok, command: "resolve-context", pack, dry_run: true, query, selected_files, warnings,
token_estimate}``; ``token_estimate`` is the reference's ``ceil(characters / 4)``, not a real count.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from studio.cli._output import write_json
from studio.core.pack import load_pack
from studio.core.resolver.reference import reference_dry_run


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("resolve-context", help="the reference CLI's resolve-context dry run (JSON)",
                       description="Reproduce agentknowledge-ref resolve-context --dry-run.")
    p.add_argument("pack", metavar="PACK", help="pack directory")
    p.add_argument("--query", required=True, help="the request to resolve context for")
    p.add_argument("--dry-run", action="store_true", help="accepted for compatibility; always a dry run")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    pack = load_pack(Path(args.pack))
    if pack.knowledge is None:
        message = pack.diagnostics[0].message if pack.diagnostics else "not a pack"
        write_json({"ok": False, "command": "resolve-context", "pack": args.pack, "dry_run": True,
                    "query": args.query, "selected_files": [], "warnings": [message], "token_estimate": 0})
        return 2
    write_json(reference_dry_run(pack, args.query, pack_arg=args.pack))
    return 0
