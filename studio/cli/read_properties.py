"""``pack-studio read-properties PACK``: the frontmatter as JSON, like the reference CLI.

YAML can hold values JSON cannot: ``!!binary`` bytes, ``.nan`` and ``.inf``, integers too long for
Python to print in decimal. Those are written as strings (base64, ``.nan``/``.inf``/``-.inf``,
hexadecimal) and each is named on stderr, so the output is always valid JSON.
"""

from __future__ import annotations

import argparse
import base64
import json
import math
import sys
from pathlib import Path
from typing import Any

from studio.cli._output import write_json
from studio.core.pack import load_pack


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
    data = json_safe(pack.frontmatter.data, "", notes)
    for note in notes:
        sys.stderr.write(f"note: {note}\n")
    write_json(data)
    return 0


def json_safe(value: Any, where: str, notes: list[str]) -> Any:
    """``value`` with everything JSON cannot hold turned into a string; ``notes`` says what changed where.

    Recursion is bounded by the frontmatter parser, which refuses nesting past 32 levels.
    """
    if isinstance(value, dict):
        return {_key(k): json_safe(v, f"{where}.{_key(k)}" if where else _key(k), notes) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v, f"{where}[{i}]", notes) for i, v in enumerate(value)]
    if value is None or isinstance(value, str | bool):
        return value
    if isinstance(value, int):
        try:
            str(value)
        except ValueError:  # more digits than sys.get_int_max_str_digits() allows
            notes.append(f"{where}: an integer too long to write in decimal, written as a hexadecimal string")
            return hex(value)
        return value
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        notes.append(f"{where}: {value} has no JSON form, written as a string")
        return ".nan" if math.isnan(value) else ".inf" if value > 0 else "-.inf"
    if isinstance(value, bytes | bytearray):
        notes.append(f"{where}: binary data (!!binary), written as a base64 string")
        return base64.b64encode(value).decode("ascii")
    notes.append(f"{where}: a {type(value).__name__} value, written as its text")
    return str(value)


def _key(key: Any) -> str:
    """A mapping key as ``json.dumps`` would write it (``true``, ``3``), for keys it could not write too."""
    safe = json_safe(key, "", [])
    return safe if isinstance(safe, str) else json.dumps(safe, ensure_ascii=False)
