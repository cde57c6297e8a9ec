"""Split Markdown into heading sections with 1-based line ranges (markdown-it-py block maps).

Only block-level headings count, so a ``# comment`` inside a code fence never starts a section. Text before
the first heading becomes a preamble section titled ``None`` when it holds anything but blank lines.
Nested headings each start their own section: a section runs from its heading to the next heading of any
level, which keeps sections small enough to select one at a time.

Speed: a long primary document is the slowest thing the resolver reads, and for a document made only of
ATX headings, paragraphs and simple lists a line scan finds exactly the headings markdown-it would. So
``heading_lines`` first looks for anything that could make the two disagree (fences, indented ``#``
lines, setext underlines, HTML blocks, block quotes, headings inside list items) and falls back to
markdown-it when it sees one. A property test checks the line scan against markdown-it.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from markdown_it import MarkdownIt

from studio.core.text.atx import heading_text


@dataclass(frozen=True, slots=True)
class Section:
    """One heading section of a Markdown file."""

    title: str | None
    """Heading text, or None for the preamble before the first heading."""
    slug: str
    """GitHub-style anchor (``#specifications``) used by source maps' ``compiled_into`` links."""
    level: int
    """Heading level 1-6; 0 for the preamble."""
    start_line: int
    """1-based first line (the heading itself)."""
    end_line: int
    """1-based last line, inclusive."""
    text: str


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    # Only block structure matters (where headings are, and what is a code fence); the inline rules,
    # which cost most of the parse, stay off.
    md = MarkdownIt("zero")
    md.enable(["heading", "lheading", "fence", "code", "html_block", "blockquote", "list", "hr"])
    return md


_SLUG_DROP = re.compile(r"[^\w\- ]", re.UNICODE)


def slugify(title: str) -> str:
    """Lower-case, drop punctuation, spaces to hyphens; CJK characters are kept as they are."""
    text = unicodedata.normalize("NFKC", title).strip().lower()
    return _SLUG_DROP.sub("", text).replace(" ", "-")


# Lines after which a plain line scan might disagree with a CommonMark parser.
_COMPLEX = re.compile(
    r"^[ \t]*(?:`{3,}|~{3,})"                # code fences, at any indentation
    r"|^(?=[ \t]*#)(?:[ \t]*\t| {4,})"       # a '#' line indented into code or a nested container
    r"|^ {0,3}(?:=+|-+)[ \t]*$"               # setext underline (or a thematic break after text)
    r"|^ {0,3}[<>]"                           # HTML blocks and block quotes
    r"|^ {0,3}(?:[-+*]|\d{1,9}[.)])[ \t]+#",  # a heading inside a list item
    re.MULTILINE,
)
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+|$)(.*)$")


def is_simple(text: str) -> bool:
    """True when a line scan finds the same headings as markdown-it (nothing in ``_COMPLEX``)."""
    return "\x00" not in text and "\r" not in text and not _COMPLEX.search(text)


def heading_lines(text: str) -> list[tuple[int, int, str]]:
    """(0-based line, level, title) of every heading, as markdown-it-py finds them."""
    if is_simple(text):
        heads = []
        for n, line in enumerate(text.split("\n")):
            if line.lstrip(" ").startswith("#"):
                m = _ATX.match(line)
                if m:
                    heads.append((n, len(m.group(1)), heading_text(m.group(2))))
        return heads
    tokens = _parser().parse(text)
    return [(tok.map[0], int(tok.tag[1]), tokens[i + 1].content.strip() if i + 1 < len(tokens) else "")
            for i, tok in enumerate(tokens) if tok.type == "heading_open" and tok.map is not None]


def split_sections(text: str) -> list[Section]:
    """Heading sections of ``text`` in order. A file without headings is one preamble section."""
    lines = text.split("\n")
    heads = heading_lines(text)
    sections: list[Section] = []
    used: dict[str, int] = {}
    first = heads[0][0] if heads else len(lines)
    if any(line.strip() for line in lines[:first]):
        sections.append(_make(None, "", 0, 0, first, lines))
    for n, (start, level, title) in enumerate(heads):
        end = heads[n + 1][0] if n + 1 < len(heads) else len(lines)
        base = slugify(title) or "section"
        # Repeated headings get -1, -2 like GitHub so anchors stay unique.
        count = used.get(base, 0)
        used[base] = count + 1
        slug = base if count == 0 else f"{base}-{count}"
        sections.append(_make(title, slug, level, start, end, lines))
    return sections


def _make(title: str | None, slug: str, level: int, start: int, end: int, lines: list[str]) -> Section:
    body = lines[start:end]
    while body and not body[-1].strip():
        body.pop()
        end -= 1
    end = max(end, start + 1)
    return Section(title, slug, level, start + 1, end, "\n".join(body))
