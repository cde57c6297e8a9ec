"""Line and column of every value in a JSON text, keyed by its path (``("outputs", 1, "operation")``).

``json`` gives no positions, so findings about a record would otherwise all sit on line 1. This walks
text that ``json.loads`` already accepted; on anything unexpected it returns what it has so far.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from json import decoder as _decoder
from typing import cast

# The string scanner json itself uses (C-accelerated); typeshed does not declare it.
scanstring = cast(Callable[[str, int], tuple[str, int]], vars(_decoder)["scanstring"])

Path = tuple[str | int, ...]
_WS = re.compile(r"[ \t\n\r]*")
_SCALAR = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null|NaN|-?Infinity")
MAX_POSITIONS = 100_000


def value_positions(text: str) -> dict[Path, int]:
    """Offset of each value (and for object members, of its key) in ``text``, by path."""
    positions: dict[Path, int] = {}
    # On a surprise, partial positions are still better than none.
    with contextlib.suppress(ValueError, IndexError, RecursionError):
        _value(text, _skip(text, 0), (), positions)
    return positions


def _skip(text: str, at: int) -> int:
    match = _WS.match(text, at)
    return match.end() if match else at


def _value(text: str, at: int, path: Path, out: dict[Path, int]) -> int:
    if len(out) < MAX_POSITIONS:
        out.setdefault(path, at)
    char = text[at]
    if char == "{":
        at = _skip(text, at + 1)
        if text[at] == "}":
            return at + 1
        while True:
            key_at = at
            key, at = scanstring(text, at + 1)
            if len(out) < MAX_POSITIONS:
                out[(*path, key)] = key_at  # point at the key: that is what an editor should select
            at = _skip(text, at)
            at = _skip(text, at + 1)  # past ':'
            at = _skip(text, _value(text, at, (*path, key), out))
            if text[at] == "}":
                return at + 1
            at = _skip(text, at + 1)  # past ','
    if char == "[":
        at = _skip(text, at + 1)
        if text[at] == "]":
            return at + 1
        index = 0
        while True:
            at = _skip(text, _value(text, at, (*path, index), out))
            index += 1
            if text[at] == "]":
                return at + 1
            at = _skip(text, at + 1)
    if char == '"':
        return scanstring(text, at + 1)[1]
    match = _SCALAR.match(text, at)
    if match is None:
        raise ValueError(f"unexpected character at {at}")
    return match.end()


def line_column(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1
