"""One pack's guide, or why there is none: what the commands that print a pack's guide, fence or files share."""

from __future__ import annotations

import argparse
import sys

from studio.cli._scope import pack_argument
from studio.core.diagnostics import Severity
from studio.core.model import Pack


def report_problems(pack: Pack, worst: Severity) -> None:
    """Print ``pack``'s findings of severity ``worst`` or graver on stderr."""
    for d in pack.findings:
        if d.severity.rank <= worst.rank:
            sys.stderr.write(d.format(str(pack.root)) + "\n")


def guide_pack(args: argparse.Namespace) -> Pack | None:
    """The pack PACK names (``_scope.pack_argument``), or None when it has no guide (``with_guide``)."""
    return with_guide(pack_argument(args.pack, args))


def with_guide(pack: Pack) -> Pack | None:
    """``pack`` when its KNOWLEDGE.md was read; else None, after its errors are printed (the command exits 2)."""
    if pack.knowledge is None:
        report_problems(pack, Severity.ERROR)
        return None
    return pack
