"""One pack's guide, or why there is none: what the commands that print a pack's guide, fence or files share."""

from __future__ import annotations

import argparse
import sys

from studio.cli._scope import pack_argument
from studio.core.diagnostics import Behavior, Severity
from studio.core.model import Pack


def report_problems(pack: Pack, worst: Severity) -> None:
    """Print ``pack``'s findings of severity ``worst`` or graver on stderr."""
    for d in pack.findings:
        if d.severity.rank <= worst.rank:
            sys.stderr.write(d.format(str(pack.root)) + "\n")


def say_how_a_client_takes(pack: Pack) -> bool:
    """Tell on stderr what a client does before using ``pack`` (asks the user to confirm it; or, with its errors,
    does not load it at all); whether it loads. ``guide`` and ``fence`` print what the pack would give an agent
    either way, and exit 1 on a pack no client loads: an artefact alone reads as if an agent would get it."""
    if pack.behavior is Behavior.REQUIRE_CONFIRMATION:
        sys.stderr.write("A client would ask the user to confirm this pack before activating it.\n")
    if pack.loads:
        return True
    sys.stderr.write("A client would not load this pack:\n")
    report_problems(pack, Severity.ERROR)
    return False


def guide_pack(args: argparse.Namespace) -> Pack | None:
    """The pack PACK names (``_scope.pack_argument``), or None when it has no guide (``with_guide``)."""
    return with_guide(pack_argument(args.pack, args))


def with_guide(pack: Pack) -> Pack | None:
    """``pack`` when its KNOWLEDGE.md was read; else None, after its errors are printed (the command exits 2)."""
    if pack.knowledge is None:
        report_problems(pack, Severity.ERROR)
        return None
    return pack
