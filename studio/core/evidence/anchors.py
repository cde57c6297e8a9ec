"""Source anchors (digest 7.7): parse ``path#fragment`` and find headings by their slugs.

Fragments the standard uses: a line ``#L42``, a range ``#L10-L20``, a heading slug ``#tiers``, a PDF
page ``#page=4`` and a media time ``#t=00:12:33``. Anchors in source maps are sometimes written without
the ``#`` (``"anchor": "L12"``); both spellings mean the same.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum

from studio.core.text.code_fences import CodeFences


class AnchorKind(StrEnum):
    NONE = "none"
    LINE = "line"
    LINES = "lines"
    HEADING = "heading"
    PAGE = "page"
    TIME = "time"


@dataclass(frozen=True, slots=True)
class Anchor:
    """A parsed fragment. ``start``/``end`` are 1-based lines (LINE, LINES), a page (PAGE) or seconds (TIME)."""

    kind: AnchorKind
    raw: str
    start: int = 0
    end: int = 0
    slug: str = ""


@dataclass(frozen=True, slots=True)
class Heading:
    """An ATX heading of a Markdown file, with the slug a ``#fragment`` would use to name it."""

    line: int
    level: int
    title: str
    slug: str


_LINES = re.compile(r"^L(\d{1,9})(?:\s*-\s*L?(\d{1,9}))?$", re.IGNORECASE)
_PAGE = re.compile(r"^page=(\d{1,6})$", re.IGNORECASE)
_TIME = re.compile(r"^t=(?:(\d{1,3}):)?(\d{1,2}):(\d{1,2})(?:\.\d+)?$|^t=(\d{1,7})(?:\.\d+)?s?$", re.IGNORECASE)


def split_ref(ref: str) -> tuple[str, str]:
    """``sources/a.md#L4`` -> (``sources/a.md``, ``L4``)."""
    path, _, fragment = ref.strip().partition("#")
    return path.strip(), fragment.strip()


def parse_anchor(fragment: str | None) -> Anchor:
    """Parse a fragment with or without its leading ``#``. Anything unrecognised is a heading slug."""
    raw = (fragment or "").strip()
    text = raw[1:] if raw.startswith("#") else raw
    if not text:
        return Anchor(AnchorKind.NONE, raw)
    if match := _LINES.match(text):
        start = int(match[1])
        if match[2] is None:
            return Anchor(AnchorKind.LINE, raw, start, start)
        return Anchor(AnchorKind.LINES, raw, start, int(match[2]))
    if match := _PAGE.match(text):
        return Anchor(AnchorKind.PAGE, raw, int(match[1]), int(match[1]))
    if match := _TIME.match(text):
        if match[4] is not None:
            seconds = int(match[4])
        else:
            seconds = int(match[1] or 0) * 3600 + int(match[2]) * 60 + int(match[3])
        return Anchor(AnchorKind.TIME, raw, seconds, seconds)
    return Anchor(AnchorKind.HEADING, raw, slug=text.lower())


def slugify(title: str) -> str:
    """The slug a Markdown renderer gives a heading: lower case, punctuation dropped, spaces to hyphens.

    Letters of any script are kept, so Chinese headings get Chinese slugs.
    """
    text = _drop_links(_drop_tags(title))
    text = unicodedata.normalize("NFC", text).strip().lower()
    kept = [ch for ch in text if ch.isalnum() or ch in " -_" or unicodedata.category(ch).startswith("M")]
    return re.sub(r" ", "-", "".join(kept))


# Heading parsing and slugs use string methods, not regexes: patterns such as ``(.*?)(?:[ \t]+#+)?[ \t]*$``
# or ``<[^>]*>`` backtrack quadratically on a heading with 100,000 blanks (or ``<``, ``[``) in it.


def _atx_heading(line: str) -> tuple[int, str] | None:
    """(level, title) when ``line`` is an ATX heading: up to 3 spaces, 1-6 ``#``, then a blank or the end.

    The title loses its surrounding blanks and an optional closing ``#`` run that follows a blank;
    a title made only of ``#`` keeps them.
    """
    text = line.lstrip(" ")
    if len(line) - len(text) > 3:
        return None
    rest = text.lstrip("#")
    level = len(text) - len(rest)
    if not 1 <= level <= 6 or (rest and rest[0] not in " \t"):
        return None
    title = rest.strip(" \t")
    body = title.rstrip("#")
    if body != title and body and body[-1] in " \t":
        title = body.rstrip(" \t")
    return level, title.strip()


def _explicit_id(title: str) -> tuple[int, str] | None:
    """(offset, id) of a trailing ``{#id}`` (the id has no ``}`` or whitespace; the leftmost ``{#`` wins)."""
    if not title.endswith("}"):
        return None
    first = len(title) - 1  # the id runs from after the earliest "{#" in title[first:] to the closing "}"
    while first > 0 and title[first - 1] != "}" and not title[first - 1].isspace():
        first -= 1
    start = title.find("{#", first)
    if start == -1 or start + 2 >= len(title) - 1:
        return None
    return start, title[start + 2:-1]


def _drop_tags(text: str) -> str:
    """``a <b>x</b>`` -> ``a x``: every ``<...>`` removed, left to right."""
    out: list[str] = []
    pos = 0
    while (start := text.find("<", pos)) != -1:
        end = text.find(">", start)
        if end == -1:
            break  # no ">" left, so no later "<" closes either
        out.append(text[pos:start])
        pos = end + 1
    out.append(text[pos:])
    return "".join(out)


def _drop_links(text: str) -> str:
    """``[text](url)`` and ``![alt](url)`` -> their text, left to right."""
    out: list[str] = []
    pos = search = 0
    while (start := text.find("[", search)) != -1:
        close = text.find("]", start)
        if close == -1:
            break  # no "]" left for this or any later "["
        if not text.startswith("(", close + 1):
            search = close + 1  # every "[" before this "]" meets the same "]" and fails the same way
            continue
        end = text.find(")", close + 2)
        if end == -1:
            break  # no ")" left for this or any later link
        begin = start - 1 if start > pos and text[start - 1] == "!" else start
        out.append(text[pos:begin])
        out.append(text[start + 1:close])
        pos = search = end + 1
    out.append(text[pos:])
    return "".join(out)


def find_headings(lines: list[str]) -> list[Heading]:
    """ATX headings outside fenced code blocks; repeated slugs get ``-1``, ``-2`` like GitHub does."""
    headings: list[Heading] = []
    seen: dict[str, int] = {}
    fences = CodeFences()
    for number, line in enumerate(lines, start=1):
        if fences.is_code(line) or (parsed := _atx_heading(line)) is None:
            continue
        level, title = parsed
        explicit = _explicit_id(title)
        if explicit is not None:
            title = title[: explicit[0]].strip()
            slug = explicit[1].lower()
        else:
            base = slugify(title)
            count = seen.get(base, 0)
            seen[base] = count + 1
            slug = base if count == 0 else f"{base}-{count}"
        headings.append(Heading(number, level, title, slug))
    return headings


def heading_span(headings: list[Heading], slug: str, total_lines: int) -> tuple[int, int] | None:
    """Lines (first, last) of the section a slug names: its heading up to the next one of equal or higher rank."""
    wanted = slug.lower()
    for index, heading in enumerate(headings):
        if heading.slug != wanted:
            continue
        end = total_lines
        for later in headings[index + 1:]:
            if later.level <= heading.level:
                end = later.line - 1
                break
        return heading.line, max(end, heading.line)
    return None
