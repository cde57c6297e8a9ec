"""``pack-studio review PACK --decision …``: record a curator's decision and, if asked, set status/trust."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from studio.cli._output import add_format_option, write_json
from studio.cli._readonly import refuse_builtin
from studio.core.atomic import storage_problem
from studio.core.model import STATUSES, TRUST_LEVELS
from studio.core.review import DECISIONS, ReviewError, commit_review, plan_review
from studio.core.terminal import printable, printable_block


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("review", help="record a review decision in runs/ (and optionally set status/trust)",
                       description="Write runs/review-<UTC timestamp>.json atomically. With --set-status or "
                       "--set-trust, also edit just those values in KNOWLEDGE.md (the diff is printed). "
                       "Nothing is written with --dry-run. Exit status: 0 written, 2 usage or edit error.")
    p.add_argument("pack", type=Path, metavar="PACK")
    p.add_argument("--decision", required=True, choices=DECISIONS)
    p.add_argument("--reason", required=True, metavar="TEXT")
    p.add_argument("--reviewer", metavar="NAME", help="defaults to the login name")
    p.add_argument("--set-status", choices=STATUSES, metavar="STATUS", help=f"one of {', '.join(STATUSES)}")
    p.add_argument("--set-trust", choices=TRUST_LEVELS, metavar="TRUST", help=f"one of {', '.join(TRUST_LEVELS)}")
    p.add_argument("--examined", action="append", default=[], metavar="PATH",
                   help="a pack file the reviewer examined (repeatable)")
    p.add_argument("--dry-run", action="store_true", help="show the record and the diff; write nothing")
    add_format_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    root: Path = args.pack
    if not (root / "KNOWLEDGE.md").is_file():
        print(f"pack-studio review: {printable(str(root))} is not a pack (no KNOWLEDGE.md)", file=sys.stderr)
        return 2
    if not args.dry_run:
        refuse_builtin(root)
    try:
        plan = plan_review(root, args.decision, args.reason, reviewer=args.reviewer,
                           set_status=args.set_status, set_trust=args.set_trust, files_examined=args.examined)
        written = (None, None) if args.dry_run else commit_review(root, plan)
    except ReviewError as exc:
        print(f"pack-studio review: {printable(str(exc))}", file=sys.stderr)
        return 2
    except OSError as exc:  # storage failing in a way the core did not name: still a clear error, no traceback
        print(f"pack-studio review: cannot write: {storage_problem(exc)}", file=sys.stderr)
        return 2
    record_path, knowledge_path = written
    diff = plan.edit.diff if plan.edit else ""
    if args.format == "json":
        write_json({"record": plan.record.to_dict(), "diff": diff, "dry_run": args.dry_run,
                    "record_path": str(record_path) if record_path else None,
                    "knowledge_updated": knowledge_path is not None})
        return 0
    out = sys.stdout
    if diff:
        out.write(printable_block(diff if diff.endswith("\n") else diff + "\n"))
    elif args.set_status or args.set_trust:
        out.write("KNOWLEDGE.md already has these values; not changed.\n")
    if args.dry_run:
        out.write(f"Dry run: would record {plan.record.decision} by {printable(plan.record.reviewer)}; nothing "
                  "written.\n")
    else:
        out.write(f"Recorded {plan.record.decision} by {printable(plan.record.reviewer)} in "
                  f"{printable(str(record_path))}\n")
        if knowledge_path is not None:
            out.write(f"Updated {printable(str(knowledge_path))}\n")
    return 0
