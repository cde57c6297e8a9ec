"""``pack-studio guide PACK``: the tier-2 activation guide of one pack, as a client returns it.

stdout holds only the guide; its token count goes to stderr. A pack that a client would not load
(quarantined or skipped) is still rendered for inspection, with exit status 1 and its diagnostics
on stderr; a directory without a readable ``KNOWLEDGE.md`` gives exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from studio.core.diagnostics import Behavior, Severity
from studio.core.model import Pack
from studio.core.pack import load_pack
from studio.core.render.costs import guide_cost
from studio.core.render.guide import render_guide
from studio.core.terminal import printable, write_artefact


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("guide", help="print the tier-2 activation guide of a pack",
                       description="Print the <knowledge_pack_guide> a client returns when PACK is activated.")
    p.add_argument("pack", type=Path, metavar="PACK", help="pack directory")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    pack = load_pack(args.pack)
    if pack.knowledge is None:
        report_problems(pack, Severity.ERROR)
        return 2
    write_artefact(sys.stdout, render_guide(pack))
    sys.stderr.write(f"tokens: {printable(guide_cost(pack).describe())}\n")
    if pack.behavior is Behavior.REQUIRE_CONFIRMATION:
        sys.stderr.write("A client would ask the user to confirm this pack before activating it.\n")
    if not pack.loads:
        sys.stderr.write("A client would not load this pack:\n")
        report_problems(pack, Severity.ERROR)
        return 1
    return 0


def report_problems(pack: Pack, worst: Severity) -> None:
    for d in pack.diagnostics:
        if d.severity.rank <= worst.rank:
            sys.stderr.write(d.format(str(pack.root)) + "\n")
