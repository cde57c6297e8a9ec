"""Cut a file into the blocks the search index stores: Markdown heading sections, or runs of lines of plain text.

Why not ``studio.core.resolver.sections``: that module finds headings exactly as markdown-it does, and falls
back to a full markdown-it parse whenever a file has a code fence, an HTML block or a setext underline. In the
1,000-pack corpus that is 95% of the Markdown, and the parse takes 30 s of the index build's time. Here one
regex with a literal ``\\n`` prefix (which the regex engine scans for at C speed) finds every line starting
with ``#``, a backtick fence or a tilde fence, and fenced code is skipped. Headings that only a full parser
would see differently (setext headings, headings inside block quotes or list items) only change which
heading a search hit is shown under; the line of every hit is exact either way. A property test holds this
scan to ``resolver.sections.heading_lines`` on files both read alike.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from studio.core.text.atx import heading_text

TEXT_BLOCK_LINES = 200
"""Lines per block of a plain-text file (a CSV, a transcript): a hit then points into a screenful, not a file."""

_LINE_START = re.compile(r"\n {0,3}(?:(`{3,}|~{3,})([^\n]*)|(#{1,6})(?=[ \t\n]|$)([^\n]*))")


class Block(NamedTuple):
    """A slice of a file: its heading (None before the first one), level, lines and character span.

    A named tuple rather than a frozen dataclass: a build makes one per heading of the workspace (hundreds of
    thousands), and a frozen dataclass costs five times as much to make."""

    heading: str | None
    level: int
    start_line: int
    """1-based first line."""
    end_line: int
    """1-based last line, inclusive."""
    start: int
    """Offset of the first character in the file's text."""
    end: int


def heading_lines(text: str) -> list[tuple[int, int, str, int]]:
    """(0-based line, level, title, character offset of the line) of every ATX heading outside code fences."""
    out: list[tuple[int, int, str, int]] = []
    padded = "\n" + text
    fence: tuple[str, int] | None = None
    line = -1
    last = 0
    for m in _LINE_START.finditer(padded):
        start = m.start()
        line += padded.count("\n", last, start + 1)
        last = start + 1
        marks, rest, hashes, title = m.groups()
        if marks is not None:
            if fence is None:
                if not (marks[0] == "`" and "`" in rest):  # a backtick fence's info string has no backtick
                    fence = (marks[0], len(marks))
            elif marks[0] == fence[0] and len(marks) >= fence[1] and not rest.strip():
                fence = None
        elif fence is None:
            out.append((line, len(hashes), heading_text(title), start))
    return out


def first_heading(text: str) -> str | None:
    """The first non-empty title of an ATX heading outside code fences (``heading_lines``' scan, stopped there)."""
    fence: tuple[str, int] | None = None
    for m in _LINE_START.finditer("\n" + text):
        marks, rest, _hashes, title = m.groups()
        if marks is not None:
            if fence is None:
                if not (marks[0] == "`" and "`" in rest):
                    fence = (marks[0], len(marks))
            elif marks[0] == fence[0] and len(marks) >= fence[1] and not rest.strip():
                fence = None
        elif fence is None and (found := heading_text(title)):
            return found
    return None


def markdown_blocks(text: str) -> list[Block]:
    """The preamble (when it holds anything) and one block per heading, running to the next heading."""
    heads = heading_lines(text)
    total_lines = text.count("\n") + 1
    blocks: list[Block] = []
    first_offset = heads[0][3] if heads else len(text)
    if text[:first_offset].strip():
        first_line = heads[0][0] if heads else total_lines
        blocks.append(Block(None, 0, 1, max(first_line, 1), 0, first_offset))
    for n, (line, level, title, offset) in enumerate(heads):
        nxt = heads[n + 1] if n + 1 < len(heads) else None
        end_line = nxt[0] if nxt else total_lines
        blocks.append(Block(title, level, line + 1, max(end_line, line + 1), offset, nxt[3] if nxt else len(text)))
    return blocks


def text_blocks(text: str, lines: int = TEXT_BLOCK_LINES) -> list[Block]:
    """Runs of ``lines`` lines (no headings): how a plain-text source is stored."""
    blocks: list[Block] = []
    start = 0
    line = 1
    size = len(text)
    while start < size:
        end = start
        for _ in range(lines):
            nl = text.find("\n", end)
            if nl < 0:
                end = size
                break
            end = nl + 1
        count = text.count("\n", start, end)
        last_line = line + count - (1 if text[end - 1:end] == "\n" else 0)
        blocks.append(Block(None, 0, line, max(last_line, line), start, end))
        line += count
        start = end
    return blocks
