"""``pack-studio feedback PACK --file F --outcome helpful|harmful --task TEXT``: record whether a file helped a task.

Writes ``runs/feedback-<UTC timestamp>.json`` atomically (``studio.core.feedback``). Nothing is written when the
input is bad: an unknown outcome, no task, or a file outside the pack or not in it is a usage error (exit 2).
``--dry-run`` prints the record without writing it. The counts and confidence per file appear in
``pack-studio runs PACK``; ``resolve --use-feedback`` ranks by them.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from studio.cli._output import add_format_option, write_json
from studio.cli._readonly import refuse_builtin
from studio.core.feedback import OUTCOMES, FeedbackError, make_feedback_record, write_feedback_record
from studio.core.pack import NO_SUCH_FOLDER, load_pack
from studio.core.terminal import printable


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("feedback", help="record that a pack file was helpful or harmful for a task",
                       description="Write runs/feedback-<UTC timestamp>.json atomically. Exit status: 0 written, "
                       "2 bad input (nothing written).")
    p.add_argument("pack", type=Path, metavar="PACK")
    p.add_argument("--file", required=True, metavar="F", help="the pack file (pack-relative, e.g. compiled/facts.md)")
    p.add_argument("--section", metavar="HEADING", help="only this section of the file")
    # Checked by the core rather than by argparse ``choices`` so every bad input gets the same kind of message.
    p.add_argument("--outcome", required=True, metavar="OUTCOME", help=f"one of {', '.join(OUTCOMES)}")
    p.add_argument("--task", required=True, metavar="TEXT", help="the task the file was used for")
    p.add_argument("--trace-id", metavar="ID", help="the run this refers to (e.g. a context record's run_id)")
    p.add_argument("--reviewer", metavar="NAME", help="defaults to the login name")
    p.add_argument("--dry-run", action="store_true", help="show the record; write nothing")
    add_format_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    root: Path = args.pack
    pack = load_pack(root)
    if pack.knowledge is None:
        what = "is not a pack (no readable KNOWLEDGE.md)" if os.path.lexists(root) else NO_SUCH_FOLDER
        print(f"pack-studio feedback: {printable(str(root))} {what}", file=sys.stderr)
        return 2
    if not args.dry_run:
        refuse_builtin(pack.root)
    try:
        record = make_feedback_record(pack.root, pack.name, args.file, args.outcome, args.task,
                                      section=args.section, trace_id=args.trace_id, reviewer=args.reviewer)
        path = None if args.dry_run else write_feedback_record(pack.root, record)
    except FeedbackError as exc:
        print(f"pack-studio feedback: {printable(str(exc))}; nothing written", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"pack-studio feedback: the record could not be written: {printable(str(exc))}", file=sys.stderr)
        return 2
    if args.format == "json":
        write_json({"record": record.to_dict(), "dry_run": args.dry_run, "record_path": str(path) if path else None})
    elif path is None:
        print(f"Dry run: would record {record.outcome} for {printable(record.file)}; nothing written.")
    else:
        print(f"Recorded {record.outcome} for {printable(record.file)} in {printable(str(path))}")
    return 0
