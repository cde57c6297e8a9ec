"""``pack-studio to-catalog PACK ...``: compact catalog metadata as JSON, like the reference CLI.

One pack prints one object (the reference CLI's shape); several print a list of objects.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from studio.cli._output import write_json
from studio.core.model import Pack
from studio.core.pack import load_pack
from studio.core.terminal import printable

CATALOG_KEYS = ("name", "description", "type", "status", "profile", "version", "language", "trust",
                "grounding", "scope", "runtime", "metadata")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("to-catalog", help="print compact catalog metadata as JSON")
    p.add_argument("packs", type=Path, nargs="+", metavar="PACK")
    p.set_defaults(func=run)


def catalog_entry(pack: Pack) -> dict[str, Any]:
    data = pack.frontmatter.data if pack.frontmatter else {}
    return {key: data[key] for key in CATALOG_KEYS if key in data}


def run(args: argparse.Namespace) -> int:
    entries = []
    status = 0
    for path in args.packs:
        pack = load_pack(path)
        if pack.frontmatter is None:
            for d in pack.diagnostics:
                sys.stderr.write(d.format(str(pack.root)) + "\n")
            status = 2
            continue
        entries.append(catalog_entry(pack))
    if entries:
        notes: list[str] = []
        write_json(entries[0] if len(args.packs) == 1 else entries, notes)  # strict: !!binary, .nan, long ints
        for note in notes:
            sys.stderr.write(f"note: {printable(note)}\n")
    return status
