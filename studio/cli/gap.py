"""``pack-studio gap PACK --task TEXT [--write]``: a draft eval case and a draft page for one gap.

Without ``--write`` the planned edits are printed as a unified diff (nothing is written); with it, the page is
created and the case appended to ``evals/answer-quality.json`` atomically, keeping the suite's formatting
(``studio.core.coverage.draft``). Exit status: 0 drafted (or written), 2 usage errors or a suite that cannot take
a case, 1 a write that failed (nothing half-written: the suite is only replaced as read).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from studio.cli._output import add_format_option, write_json
from studio.cli._readonly import refuse_builtin
from studio.cli._scope import add_scope_options, pack_argument
from studio.core.atomic import storage_problem
from studio.core.coverage import apply_draft, draft_gap
from studio.core.evals.authoring import ANSWER_QUALITY
from studio.core.terminal import printable, printable_block


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("gap", help="draft an eval case and a page for a task the pack cannot answer",
                       description="Turn one gap into a draft eval case (appended to the suite, formatting kept) "
                       "and a draft page; prints the diff unless --write is given.")
    p.add_argument("pack", type=Path, metavar="PACK", help="pack directory, or a pack name found in the scopes")
    p.add_argument("--task", required=True, help="the task the pack cannot answer yet")
    p.add_argument("--suite", default=ANSWER_QUALITY, metavar="FILE",
                   help=f"answer-quality suite to append to, pack-relative (default {ANSWER_QUALITY})")
    p.add_argument("--write", action="store_true", help="write the draft (atomically) instead of printing the diff")
    add_format_option(p)
    add_scope_options(p, for_names=True)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    pack = pack_argument(args.pack, args)
    if args.write:
        refuse_builtin(pack.root, "--write", pack.scope)
    try:
        draft = draft_gap(pack, args.task, args.suite)
    except ValueError as exc:
        sys.stderr.write(f"pack-studio gap: {printable(str(exc))}\n")
        return 2
    if args.write:
        try:
            apply_draft(pack, draft)
        except OSError as exc:
            sys.stderr.write(f"pack-studio gap: nothing more written: {printable(storage_problem(exc))}\n")
            return 1
    if args.format == "json":
        write_json(draft.to_json() | {"written": bool(args.write)})
    elif args.write:
        for edit in draft.edits:
            verb = "created" if edit.is_new else "appended a case to"
            sys.stdout.write(f"{verb} {printable(edit.path)}\n")
    else:
        sys.stdout.write(printable_block(draft.diff()))
        sys.stdout.write("(dry run: nothing written; add --write to write these files)\n")
    return 0
