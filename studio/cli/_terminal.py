"""Text from packs and from the command line, made safe to print on a terminal."""

from __future__ import annotations

import re

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def visible(text: str) -> str:
    """``text`` with control characters (escape sequences, bidi overrides) shown as ``\\x1b``-style escapes,
    so printing a hostile pack's text cannot move the cursor, recolour or reorder the terminal."""
    return _CONTROL.sub(lambda m: m.group(0).encode("unicode_escape").decode("ascii"), text)
