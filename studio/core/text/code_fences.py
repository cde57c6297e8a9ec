"""Fenced code blocks in Markdown, tracked line by line: what every line-based Markdown reader skips.

A fence is a line of three or more backticks or tildes, indented at most three spaces. It opens a block; the
block closes at the next fence of the same character that is at least as long as the opening three (a longer
opener is treated as three, as the readers here always did: they look for examples to skip, not to render).
The fence lines themselves count as code. Citations, headings and context-map paths inside a block are
examples, not content, so the citation parser, the heading finder and the context-map check all ask here.
"""

from __future__ import annotations

import re

_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_MAY_OPEN = frozenset(" `~")
"""A fence line starts with one of these (the cheap test that spares most lines the regex)."""


class CodeFences:
    """Feed every line of a Markdown text in order; ``is_code`` says whether it belongs to a fenced block."""

    __slots__ = ("_open",)

    def __init__(self) -> None:
        self._open: str | None = None
        """The opening fence's character, three times; None outside a block."""

    @property
    def inside(self) -> bool:
        """True while a block is open (after a fence line that opened one, before the one that closes it)."""
        return self._open is not None

    def is_code(self, line: str) -> bool:
        """Track ``line`` (without its line break) and say whether it is code: a fence line, or inside a block."""
        if line[:1] in _MAY_OPEN and (match := _FENCE.match(line)) is not None:
            if self._open is None:
                self._open = match[1][0] * 3
            elif match[1].startswith(self._open):
                self._open = None
            return True
        return self._open is not None
