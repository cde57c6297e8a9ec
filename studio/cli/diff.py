"""``pack-studio diff OLD NEW`` and ``pack-studio diff PACK --from REF [--to REF]``: what changed between two
versions of a pack, and what that changes for an agent (``studio.core.diff``).

Two folders, or one pack folder at two git refs (``--to`` left out: the folder as it is now). Refs are read
through the ``git`` command into a private temporary folder that is always removed; the working tree is never
checked out or written. Formats: ``text`` (default), ``json``, ``markdown`` (a pull-request comment).
Exit status like ``diff``: 0 identical, 1 different, 2 trouble (a missing ref, a folder that is not a pack,
unrelated packs), said in one line on stderr.
"""

from __future__ import annotations

import argparse
import os
import sys
from contextlib import ExitStack
from pathlib import Path

from studio.cli._output import add_encoding_option, add_format_option, write_json
from studio.core.diff.compare import DiffOptions, diff_packs
from studio.core.diff.markdown import render_markdown
from studio.core.diff.text import render_text
from studio.core.diff.trouble import DiffTrouble
from studio.core.diff.versions import open_versions
from studio.core.pack import NO_SUCH_FOLDER
from studio.core.terminal import printable


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("diff", help="what changed between two versions of a pack, and what it changes for an agent",
                       description="Compare two pack folders (OLD NEW), or one pack folder at two git refs "
                       "(PACK --from REF [--to REF]; --to defaults to the folder as it is). Reports frontmatter, "
                       "files, claims, findings, the catalog/guide/fence tiers, resolver picks and eval cases. "
                       "Exit status: 0 identical, 1 different, 2 trouble.")
    p.add_argument("old", type=Path, metavar="OLD|PACK", help="the old pack folder (with --from: the pack folder)")
    p.add_argument("new", type=Path, nargs="?", metavar="NEW", help="the new pack folder (not with --from)")
    p.add_argument("--from", dest="from_ref", metavar="REF", help="git commit, tag or branch of the old version")
    p.add_argument("--to", dest="to_ref", metavar="REF", help="git ref of the new version (default: the folder now)")
    p.add_argument("--task", action="append", default=[], metavar="TEXT",
                   help="a task to compare the resolver's picks for (repeatable); the prompts of the pack's own "
                   "answer-quality suites are compared too")
    p.add_argument("--no-suite-tasks", action="store_true",
                   help="compare the resolver's picks only for the --task values")
    p.add_argument("--budget", type=int, default=4000, help="token budget of resolves and eval cases (default 4000)")
    add_encoding_option(p, "tokenizer")
    p.add_argument("--renamed", action="store_true", help="compare even though the two pack names differ")
    add_format_option(p, ("text", "json", "markdown"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    problem = _usage_problem(args)
    if problem:
        sys.stderr.write(f"pack-studio diff: {problem}\n")
        return 2
    options = DiffOptions(tuple(args.task), args.budget, args.encoding, not args.no_suite_tasks, args.renamed)
    try:
        with ExitStack() as stack:
            old, new = open_versions(stack, args.old, args.new, from_ref=args.from_ref, to_ref=args.to_ref)
            report = diff_packs(old, new, options)
    except DiffTrouble as exc:
        sys.stderr.write(f"pack-studio diff: {printable(str(exc))}\n")
        return 2
    except OSError as exc:  # a folder that vanished or cannot be read while it was compared
        sys.stderr.write(f"pack-studio diff: {printable(str(exc))}\n")
        return 2
    if args.format == "json":
        write_json(report.to_json())
    elif args.format == "markdown":
        sys.stdout.write(render_markdown(report))
    else:
        sys.stdout.write(render_text(report))
    return 0 if report.identical else 1


def _usage_problem(args: argparse.Namespace) -> str:
    if args.budget < 0:
        return "--budget must be zero or more"
    if args.from_ref is None and args.to_ref is not None:
        return "--to needs --from"
    if args.from_ref is not None and args.new is not None:
        return "give either two folders (OLD NEW) or one pack folder with --from REF"
    if args.from_ref is None and args.new is None:
        return "give two pack folders (OLD NEW), or one pack folder with --from REF"
    for given in (args.old, args.new):
        # Said before git is asked: a name typed for a folder otherwise read "is not inside a git repository".
        if given is not None and not os.path.lexists(given):
            return f"{printable(str(given))} {NO_SUCH_FOLDER}"
    return ""
