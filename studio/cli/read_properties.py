"""``pack-studio read-properties PACK``: the frontmatter as JSON, like the reference CLI."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from studio.cli._output import write_json
from studio.core.pack import load_pack


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("read-properties", help="print KNOWLEDGE.md frontmatter as JSON")
    p.add_argument("pack", type=Path)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    pack = load_pack(args.pack)
    if pack.frontmatter is None:
        for d in pack.diagnostics:
            sys.stderr.write(d.format(str(pack.root)) + "\n")
        return 2
    write_json(pack.frontmatter.data)
    return 0
