"""The ``---`` fences around a KNOWLEDGE.md frontmatter block: one definition for every reader of them.

The parser (``frontmatter``), the editor's completion and hover (``authoring.completion``) and the byte-exact
edits (``frontmatter_edit``) all find the block here, so all three see the same one. A leaf (``re`` only): the
edits and the editor must not pay for the YAML loader to find two lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# A fence line is ``---`` and trailing blanks; a "\r" before its line break is allowed for callers that keep CRLF
# (the parser itself sees LF text only).
_OPENING_FENCE = re.compile(r"---[ \t]*\r?")
_CLOSING_FENCE = re.compile(r"\n---[ \t]*\r?(?=\n|\Z)")


@dataclass(frozen=True, slots=True)
class FenceSpan:
    """Where the ``---`` lines of a frontmatter block stand in a text (offsets into it)."""

    yaml_start: int
    """Offset of the first YAML line: just after the opening fence's line break."""
    closing_start: int
    """Offset of the closing fence line (the YAML ends at the line break before it)."""
    closing_end: int
    """Offset just after the closing fence line, before its own line break."""
    closing_line: int
    """0-based line of the closing fence."""


def opens_with_fence(text: str) -> bool:
    """True when the first line of ``text`` is a frontmatter fence (a BOM before it is the caller's to drop)."""
    first_break = text.find("\n")
    return _OPENING_FENCE.fullmatch(text if first_break < 0 else text[:first_break]) is not None


def find_fences(text: str) -> FenceSpan | None:
    """The frontmatter fences of ``text``: the first line and the next line that is a fence; None when the text
    does not open with one or never closes it. The one definition the parser, the editor's completion and the
    byte-exact edits share, so all three see the same block."""
    first_break = text.find("\n")
    if first_break < 0 or not opens_with_fence(text):
        return None
    closing = _CLOSING_FENCE.search(text, first_break)
    if closing is None:
        return None
    start = closing.start() + 1
    return FenceSpan(first_break + 1, start, closing.end(), text.count("\n", 0, start))
