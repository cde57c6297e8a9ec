"""Snippets: the line of a hit and about 50 characters either side of the match, with the match marked.

The index stores no text (it is contentless), so a snippet is cut from the file as it is now, read the safe way
(through the pack's ``PackFS``: bounded, by descriptor, never through a symlink out of the pack). Inside the
hit's section the line holding the most distinct query terms wins (the first such line). The text is made safe
to show anywhere: control characters, line breaks and bidirectional overrides become spaces, one for one, so
highlight offsets stay exact.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from studio.core.pack_fs import PackFS, Status
from studio.core.runtime_files import MAX_FILE_BYTES
from studio.core.search.blocks import heading_lines
from studio.core.search.textprep import Highlighter

CONTEXT_CHARS = 50
ELLIPSIS = "…"
MAX_MATCHES = 400
"""Matches looked at per section when choosing the best line (bounds the work on a huge section)."""

_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff]")


def heading_at(lines: list[str], start_line: int, line: int) -> str | None:
    """The heading of the section holding ``line``, looking back no further than ``start_line`` (a row starts at
    a section start, never inside a code fence). None when no heading lies between them."""
    first = max(start_line, 1)
    heads = heading_lines("\n".join(lines[first - 1:max(line, first)]))
    return heads[-1][2] if heads else None


@dataclass(frozen=True, slots=True)
class Snippet:
    """A short excerpt of a hit and where the matches sit in it."""

    text: str
    highlights: tuple[tuple[int, int], ...]
    """(start, end) character offsets of each match within ``text``."""
    line: int
    """1-based line of the file the excerpt comes from."""


def safe_text(text: str) -> str:
    """``text`` with every control, line-break and direction-override character replaced by one space."""
    return _UNSAFE.sub(" ", text)


UNREAD = {"missing": "the file is gone", "symlink-escape": "the file is now a symlink leading outside the pack",
          "not-a-regular-file": "the file is no longer a regular file", "unreadable": "the file cannot be read"}
"""Why a hit's lines could not be read now, in words (the index may be older than the file)."""


def read_lines(fs: PackFS, rel: str) -> list[str] | str:
    """The lines of ``rel`` in the pack ``fs`` holds, as the index read them (UTF-8, undecodable bytes replaced),
    or why they were not read (a key of ``UNREAD``). By descriptor from the pack root: a file swapped for a
    symlink out of the pack since it was indexed is refused, never opened."""
    got = fs.read(rel, MAX_FILE_BYTES + 1)
    if got.status is not Status.OK or got.data is None:
        return {Status.MISSING: "missing", Status.OUTSIDE: "symlink-escape",
                Status.NOT_REGULAR: "not-a-regular-file"}.get(got.status, "unreadable")
    text = got.data.decode("utf-8", errors="replace").lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    return text.split("\n")


def make_snippet(lines: list[str], start_line: int, end_line: int, pattern: Highlighter | None) -> Snippet:
    """The best excerpt of lines ``start_line``..``end_line`` (1-based) for ``pattern``."""
    first = max(start_line, 1)
    section = lines[first - 1:max(end_line, first)]
    if pattern is not None:
        best = _best_line(section, pattern)
        if best is not None:
            index, match = best
            return _excerpt(section[index], match, pattern, first + index)
    for offset, line in enumerate(section):  # no match in the text (it was in the path, or folded away)
        if line.strip():
            text = line.strip()
            clipped = text[:2 * CONTEXT_CHARS]
            return Snippet(safe_text(clipped) + (ELLIPSIS if len(text) > len(clipped) else ""), (), first + offset)
    return Snippet("", (), first)


def _best_line(section: list[str], pattern: Highlighter) -> tuple[int, tuple[int, int]] | None:
    """(index in ``section``, first match in that line) of the line with the most distinct matches, among the
    first ``MAX_MATCHES`` matches. The section is searched as one string (no match spans a line break), not
    line by line: a hit's section has dozens of lines, and a regex scan per line cost more than the ranking."""
    text = "\n".join(section)
    best: tuple[int, int, tuple[int, int]] | None = None
    index = 0
    line_start = 0
    line_end = text.find("\n")
    seen: set[str] = set()
    first: tuple[int, int] | None = None
    for a, b in pattern.spans(text, MAX_MATCHES):
        if line_end != -1 and a > line_end:  # past the current line: settle it, move to the match's line
            if first is not None and (best is None or len(seen) > best[0]):
                best = (len(seen), index, first)
            seen, first = set(), None
            while line_end != -1 and a > line_end:
                index += 1
                line_start = line_end + 1
                line_end = text.find("\n", line_start)
        if first is None:
            first = (a - line_start, b - line_start)
        seen.add(text[a:b].lower())
    if first is not None and (best is None or len(seen) > best[0]):
        best = (len(seen), index, first)
    return (best[1], best[2]) if best is not None else None


def _excerpt(line: str, match: tuple[int, int], pattern: Highlighter, line_no: int) -> Snippet:
    start = max(match[0] - CONTEXT_CHARS, 0)
    end = min(match[1] + CONTEXT_CHARS, len(line))
    window = line[start:end]
    spans = pattern.spans(window)
    prefix = ELLIPSIS if start > 0 else ""
    suffix = ELLIPSIS if end < len(line) else ""
    shift = len(prefix)
    text = prefix + safe_text(window) + suffix
    return Snippet(text, tuple((a + shift, b + shift) for a, b in spans if b > a), line_no)
