"""RE2 for the scans that run over every byte of every pack: linear time, no backtracking, at C speed.

The content checks run in every ``validate`` over every text file, so their patterns run through RE2
(google-re2) rather than Python's ``re``: a DFA cannot backtrack, whatever the input (runs of blanks, unclosed
delimiters), and it scans several times faster. Patterns stay written in Python's syntax, next to what they
mean; ``to_re2`` maps the two things RE2 spells differently: possessive quantifiers (a DFA needs none) and
``\\s``, which in RE2 is ASCII only, so that Unicode spaces (U+00A0, U+3000...) cannot split a phrase unseen.
RE2's ``\\b`` is ASCII: an English word directly after a CJK character still starts at a boundary.
"""

from __future__ import annotations

from typing import Any

import re2  # type: ignore[import-untyped]

SPACE_CLASS = r"\t-\r\x{1c}-\x{20}\x{85}\p{Z}"
"""Python's ``\\s`` for ``str``, as the inside of an RE2 class: ASCII whitespace, U+001C-U+001F, NEL, \\p{Z}."""


def to_re2(pattern: str) -> str:
    """``pattern`` (Python syntax, possessive quantifiers and ``\\s`` allowed) in RE2 syntax."""
    out: list[str] = []
    in_class = False
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern):
            pair = pattern[i:i + 2]
            out.append((SPACE_CLASS if in_class else f"[{SPACE_CLASS}]") if pair == r"\s" else pair)
            i += 2
            continue
        if in_class:
            in_class = ch != "]" or pattern[i - 1] == "[" or pattern[i - 2:i] == "[^"
        elif ch == "[":
            in_class = True
        elif ch == "+" and out and out[-1] in ("+", "*", "?", "}"):
            i += 1  # a possessive quantifier: a DFA never gives anything back anyway
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def compile_re2(pattern: str, *, ignore_case: bool = False, as_bytes: bool = False) -> Any:
    """An RE2 regex for ``pattern`` (Python syntax); ``as_bytes`` to search UTF-8 bytes."""
    source = ("(?i)" if ignore_case else "") + to_re2(pattern)
    return re2.compile(source.encode("utf-8") if as_bytes else source)
