"""``pack-studio dispute open|comment|decide|list PACK ...``: a conversation about one claim, kept in ``runs/``.

Each step writes a new ``runs/dispute-<claim>-<UTC time>.json`` atomically, never over another record
(``studio.core.dispute_actions``); ``list`` rebuilds the threads from those records. Claims are source-map claims
and ontology claims (``ontology/claims.json``). Exit status: 0 done; 2 bad input (unknown claim, naming the nearest
ids; a step the thread cannot take; evidence outside the pack; a built-in pack; a record that cannot be written),
and nothing is written then. Every text from the pack or the command line is printed through the terminal escaping
(``studio.core.terminal``): escape sequences and bidi controls show as visible escapes.

``decide --fence-task TEXT`` prints what the agent sees for that task before and after the decision, side by side
(``--dry-run`` shows it without recording the decision).
"""

from __future__ import annotations

import argparse
import shutil
import textwrap
from pathlib import Path

from studio.cli._errors import UsageError
from studio.cli._output import add_format_option, write_json
from studio.cli._readonly import refuse_builtin
from studio.core.dispute_actions import decision_fences, prepare_step, write_step
from studio.core.disputes import DECISIONS, DisputeError, UnknownClaim
from studio.core.disputes.listing import dispute_listing, listing_json
from studio.core.disputes.render import thread_text
from studio.core.model import Pack
from studio.core.pack import load_pack
from studio.core.terminal import printable, printable_block

_PACK_HELP = "the pack's folder"
_EVIDENCE_HELP = "a pack file backing the position, optionally with a line (sources/spec.md:12); repeatable"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("dispute", help="open, discuss and decide a dispute about one claim",
                       description="A thread per claim, kept as records in runs/. Exit status: 0 done, 2 bad input "
                       "(nothing written).")
    steps = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    opened = steps.add_parser("open", help="open a dispute about a claim")
    _common(opened)
    opened.add_argument("--reason", required=True, metavar="TEXT", help="why the claim is in doubt")
    opened.add_argument("--evidence", action="append", default=[], metavar="PATH[:LINE]", help=_EVIDENCE_HELP)
    comment = steps.add_parser("comment", help="add a position to an open dispute")
    _common(comment)
    comment.add_argument("--text", required=True, metavar="TEXT", help="the position: what you hold and why")
    comment.add_argument("--evidence", action="append", default=[], metavar="PATH[:LINE]", help=_EVIDENCE_HELP)
    decide = steps.add_parser("decide", help="end a dispute: keep, amend or retract the claim")
    _common(decide)
    decide.add_argument("--decision", required=True, choices=DECISIONS, help="what becomes of the claim")
    decide.add_argument("--reason", required=True, metavar="TEXT", help="why, for whoever reads the thread later")
    decide.add_argument("--text", metavar="NEW", help="the claim's new text (amend only)")
    decide.add_argument("--fence-task", metavar="TASK",
                        help="show the fence for TASK before and after the decision, side by side")
    decide.add_argument("--dry-run", action="store_true", help="record nothing (with --fence-task: only compare)")
    listing = steps.add_parser("list", help="every dispute of the pack, with its positions")
    listing.add_argument("pack", type=Path, metavar="PACK", help=_PACK_HELP)
    listing.add_argument("--claim", metavar="ID", help="only this claim's thread")
    add_format_option(listing)
    p.set_defaults(func=run)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("pack", type=Path, metavar="PACK", help=_PACK_HELP)
    p.add_argument("--claim", required=True, metavar="ID",
                   help="the claim's id in ontology/claims.json (pack-studio dispute list shows them)")
    p.add_argument("--author", metavar="NAME", help="defaults to the login name")
    add_format_option(p)


def run(args: argparse.Namespace) -> int:
    pack = load_pack(args.pack)
    if pack.knowledge is None:
        raise UsageError(f"{printable(str(args.pack))} is not a pack (no readable KNOWLEDGE.md)")
    if args.action == "list":
        return _list(pack, args)
    dry_run = getattr(args, "dry_run", False)
    if not dry_run:
        refuse_builtin(pack.root, args.action)
    text = args.reason if args.action in ("open", "decide") else args.text
    try:
        step = prepare_step(pack.root, pack.name, args.claim, args.action, text,
                            evidence=getattr(args, "evidence", []), decision=getattr(args, "decision", None),
                            new_text=args.text if args.action == "decide" else None, author=args.author)
        fences = decision_fences(pack, args.fence_task, step) if getattr(args, "fence_task", None) else None
        path = None if dry_run else write_step(pack.root, step)
    except UnknownClaim as exc:
        raise UsageError(f"{printable(str(exc))}; nothing written") from None
    except DisputeError as exc:
        raise UsageError(f"{printable(str(exc))}; nothing written") from None
    if args.format == "json":
        write_json({"record": step.to_dict(), "record_path": str(path) if path else None, "dry_run": dry_run,
                    **({"fences": fences.to_json()} if fences else {})})
        return 0
    what = {"open": "Opened a dispute on", "comment": "Added a position to the dispute on",
            "decide": f"Decided {step.decision} on"}[step.step]
    where = f" in {printable(str(path))}" if path else " (dry run, nothing written)"
    print(f"{what} {printable(step.claim)}{where}")
    if fences is not None:
        gone = [w for w in fences.before_warnings if w not in fences.after_warnings]
        new = [w for w in fences.after_warnings if w not in fences.before_warnings]
        print(f"What the agent sees for \"{printable(fences.task)}\":")
        print("\n".join([*(f"  warning gone:  {printable(w)}" for w in gone),
                         *(f"  warning added: {printable(w)}" for w in new)] or ["  the same warnings"]))
        print(side_by_side(("Before the decision", fences.before), ("After the decision", fences.after)))
    return 0


def _list(pack: Pack, args: argparse.Namespace) -> int:
    threads, claims = dispute_listing(pack.root)
    if args.claim is not None and threads.get(args.claim) is None:
        known = claims.get(args.claim)
        if known is None:
            raise UsageError(printable(str(UnknownClaim(args.claim, claims.nearest(args.claim)))))
    data = listing_json(threads, claims)
    if args.claim is not None:
        data["disputes"] = [d for d in data["disputes"] if d["claim"] == args.claim]
    if args.format == "json":
        write_json(data)
        return 0
    if not data["disputes"]:
        print(f"No disputes in {printable(pack.name)}.")
    for entry in data["disputes"]:
        thread = threads.by_claim[entry["claim"]]
        print(thread_text(thread, entry["files"]))
    if not threads.complete:
        print("(runs/ holds more dispute records than are read; the list is incomplete)")
    return 0


def side_by_side(left: tuple[str, str], right: tuple[str, str], width: int | None = None) -> str:
    """Two titled texts in two columns (each line wrapped to its column, every character escaped)."""
    total = width or max(80, min(shutil.get_terminal_size((160, 24)).columns, 240))
    col = (total - 3) // 2

    def column(title: str, text: str) -> list[str]:
        out = [title, "-" * min(col, len(title))]
        for line in printable_block(text).splitlines():
            out.extend(textwrap.wrap(line, col, replace_whitespace=False, drop_whitespace=False) or [""])
        return out

    a, b = column(*left), column(*right)
    rows = max(len(a), len(b))
    a += [""] * (rows - len(a))
    b += [""] * (rows - len(b))
    return "\n".join(f"{x:<{col}} | {y}".rstrip() for x, y in zip(a, b, strict=True))

