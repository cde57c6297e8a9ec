"""``pack-studio read-properties PACK``: the frontmatter as JSON, like the reference CLI.

YAML can hold values JSON cannot: ``!!binary`` bytes, ``.nan`` and ``.inf``, integers too long for
Python to print in decimal. Those are written as strings (base64, ``.nan``/``.inf``/``-.inf``,
hexadecimal; ``studio.core.jsonwrite``) and each is named on stderr, so the output is always valid JSON.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from studio.cli._output import write_json
from studio.core.pack import load_pack
from studio.core.terminal import printable


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("read-properties", help="print KNOWLEDGE.md frontmatter as JSON")
    p.add_argument("pack", type=Path)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    pack = load_pack(args.pack)
    if pack.frontmatter is None:
        for d in pack.diagnostics:
            sys.stderr.write(d.format(str(pack.root)) + "\n")
        return 2
    notes: list[str] = []
    write_json(pack.frontmatter.data, notes)
    for note in notes:
        sys.stderr.write(f"note: {printable(note)}\n")
    return 0
