"""Completion and hover in ``KNOWLEDGE.md``'s frontmatter: keys, allowed values, pack paths, and what each means.

``complete`` looks at the line under the cursor: before a ``:`` it offers the keys the standard defines at
that level (those already written left out); after ``key:`` it offers that key's values (enumerations,
``type`` values, language tags, today's date for ``updated``) or, for ``metadata.primary*``, the pack's
files of the right kind. ``hover`` explains the key or enumeration value under the cursor. Both read only
the text given (and, for paths, a bounded listing of the pack); outside the frontmatter they answer None.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from studio.core.authoring.vocabulary import COMMON_LANGUAGES, KEYS, LIST_KEYS, children, key_doc, value_doc
from studio.core.frontmatter_fences import find_fences
from studio.core.pack_fs import PackFS

# Possessive runs and a start only where blanks begin: linear on a line of a hundred thousand blanks.
_KEY_LINE = re.compile(r"(?<! )( *+)([A-Za-z0-9_][A-Za-z0-9_.-]*+)[ \t]*+:(?=[ \t]|$)[ \t]*+(.*)")
_KEY_PREFIX = re.compile(r"[A-Za-z0-9_.-]*")
MAPPING_KEYS = frozenset({("runtime",), ("metadata",), ("metadata", "producedBy")})
PATH_KEYS = {
    ("metadata", "primaryDocument"): ("documents", (".md", ".markdown")),
    ("metadata", "primaryOntology"): ("ontology", (".json",)),
    ("metadata", "primaryAnswers"): ("answers", (".json",)),
}
MAX_FILES = 500
MAX_ENTRIES = 10_000
"""Entries of the folder's tree looked at when listing completions."""
MAX_LINES = 2000


@dataclass(frozen=True, slots=True)
class CompletionItem:
    label: str
    """What the list shows and the typed prefix is matched against."""
    insert: str
    """The text that replaces the prefix."""
    detail: str = ""
    """One line on what it means."""


@dataclass(frozen=True, slots=True)
class Completion:
    """Candidates for the text between ``start`` and ``end`` (0-based columns) on 1-based ``line``."""

    line: int
    start: int
    end: int
    prefix: str
    items: tuple[CompletionItem, ...]
    path: tuple[str, ...]
    """The key whose value is completed, or the parent of the keys offered (``()``: the top level)."""
    is_value: bool


@dataclass(frozen=True, slots=True)
class Hover:
    """What to show for the word between ``start`` and ``end`` (0-based columns) on the hovered line."""

    title: str
    text: str
    start: int
    end: int


def frontmatter_span(text: str) -> tuple[int, int] | None:
    """0-based indexes of the opening and closing fence lines (the parser's fences, ``frontmatter.find_fences``),
    or None when there is no frontmatter within the first ``MAX_LINES`` lines."""
    span = find_fences(text.lstrip("\ufeff"))
    if span is None or span.closing_line >= MAX_LINES:
        return None
    return 0, span.closing_line


def _frontmatter_line(text: str, line: int) -> tuple[list[str], int, int, str] | None:
    """(the text's lines, the closing fence's index, the line's 0-based index, the line without a "\\r") for a
    1-based ``line`` strictly inside the frontmatter, or None anywhere else: completion and hover answer only there."""
    span = frontmatter_span(text)
    index = line - 1
    if span is None or not span[0] < index < span[1]:
        return None
    lines = text.split("\n")
    return lines, span[1], index, lines[index].rstrip("\r")


def new_line_indent(text: str, line: int) -> str:
    """The indentation a new line typed after 1-based ``line`` starts with, inside the frontmatter ("" elsewhere).

    The line's own indentation, two spaces more after a key that opens a block (``runtime:``), so Return after
    a nested key stays in its mapping instead of falling back to column 0.
    """
    found = _frontmatter_line(text, line)
    if found is None:
        return ""
    previous = found[3]
    lead = previous[: len(previous) - len(previous.lstrip(" "))]
    match = _KEY_LINE.fullmatch(previous)
    if match is not None and not match.group(3).split(" #", 1)[0].strip():
        lead += "  "
    return lead


def key_path(lines: Sequence[str], index: int, indent: int) -> tuple[str, ...]:
    """The key path of the mapping a line with ``indent`` at 0-based ``index`` belongs to (``()``: the top)."""
    path: list[str] = []
    want = indent
    for i in range(index - 1, 0, -1):
        if want == 0:
            break
        match = _KEY_LINE.fullmatch(lines[i].rstrip("\r"))
        if match is None:
            continue
        own = len(match.group(1))
        if own < want:
            value = match.group(3).split(" #", 1)[0].strip()
            if value:
                return tuple(path[::-1])  # a scalar line above: not a block this line belongs to
            path.append(match.group(2))
            want = own
    return tuple(path[::-1])


def complete(text: str, line: int, column: int, pack_root: Path | None = None, *,
             files: Sequence[str] | None = None, today: date | None = None) -> Completion | None:
    """Candidates at 1-based ``line``, 0-based ``column`` of ``text``; None outside the frontmatter.

    ``files`` are pack-relative paths to offer for ``metadata.primary*`` (listed from ``pack_root`` when
    not given).
    """
    inside = _frontmatter_line(text, line)
    if inside is None:
        return None
    lines, closing, index, current = inside
    column = max(0, min(column, len(current)))
    before = current[:column]
    indent = len(before) - len(before.lstrip(" "))
    match = _KEY_LINE.fullmatch(before)
    if match is not None:
        path = (*key_path(lines, index, indent), match.group(2))
        return _values(path, match.group(3), line, column, pack_root, files, today)
    prefix = before[indent:]
    if not _KEY_PREFIX.fullmatch(prefix):
        return None
    parent = key_path(lines, index, indent)
    if parent and parent not in MAPPING_KEYS:
        return None
    taken = _siblings(lines, closing, index, indent, parent)
    items = []
    for key in children(parent):
        if key in taken:
            continue
        full = (*parent, key)
        doc = key_doc(full)
        inner = " " * (indent + 2)
        insert = (f"{key}:\n{inner}" if full in MAPPING_KEYS else f"{key}:\n{inner}- " if full in LIST_KEYS
                  else f"{key}: ")
        items.append(CompletionItem(key, insert, doc.summary if doc else ""))
    return Completion(line, indent, column, prefix, tuple(items), parent, False)


def _siblings(lines: Sequence[str], close: int, index: int, indent: int, parent: tuple[str, ...]) -> set[str]:
    """Keys already written beside line ``index``: in its parent's block, at its indentation (linear)."""
    first, last = 1, close
    if parent:
        first = index
        while first > 1:
            match = _KEY_LINE.fullmatch(lines[first - 1].rstrip("\r"))
            if match is not None and len(match.group(1)) < indent:
                break
            first -= 1
        last = index + 1
        while last < close:
            match = _KEY_LINE.fullmatch(lines[last].rstrip("\r"))
            if match is not None and len(match.group(1)) < indent:
                break
            last += 1
    taken = set()
    for i in range(first, last):
        match = _KEY_LINE.fullmatch(lines[i].rstrip("\r"))
        if i != index and match is not None and len(match.group(1)) == indent:
            taken.add(match.group(2))
    return taken


def _values(path: tuple[str, ...], written: str, line: int, column: int, pack_root: Path | None,
            files: Sequence[str] | None, today: date | None) -> Completion:
    quote = written[:1] if written[:1] in ("'", '"') else ""
    prefix = written[len(quote):]
    start = column - len(prefix)
    doc = KEYS.get(path)
    items: list[CompletionItem] = []
    if doc is not None and doc.values:
        items = [CompletionItem(v, v, value_doc(path, v) or "") for v in doc.values]
        if path == ("type",):
            items.append(CompletionItem("custom:", "custom:", "Your own type: custom:<namespace>."))
    elif path == ("language",):
        items = [CompletionItem(tag, tag, "Language tag") for tag in COMMON_LANGUAGES]
    elif path == ("updated",):
        day = (today or date.today()).isoformat()
        items = [CompletionItem(day, day if quote else f'"{day}"', "Today")]
    elif path in PATH_KEYS:
        folder, suffixes = PATH_KEYS[path]
        listed = files if files is not None else (pack_files(pack_root, folder, suffixes) if pack_root else [])
        items = [CompletionItem(rel, rel, "File in the pack") for rel in listed
                 if rel.startswith(folder + "/") and rel.lower().endswith(suffixes)]
    return Completion(line, start, column, prefix, tuple(items), path, True)


def pack_files(root: Path, folder: str, suffixes: tuple[str, ...]) -> list[str]:
    """Pack-relative files under ``root/folder`` ending in ``suffixes``; bounded, by descriptor (``pack_fs``):
    a symlinked folder or file is never followed, so nothing outside the pack is ever named here."""
    with PackFS(root) as fs:
        tree = fs.walk(folder, max_entries=MAX_ENTRIES, enter=lambda _rel, name: not name.startswith("."),
                       classify_links=False)
    found = (e.rel for e in tree.files if e.is_regular and e.rel.lower().endswith(suffixes)
             and not e.rel.rsplit("/", 1)[-1].startswith("."))
    return sorted(found)[:MAX_FILES]


def hover(text: str, line: int, column: int) -> Hover | None:
    """The meaning of the key, or enumeration value, at 1-based ``line``, 0-based ``column``."""
    inside = _frontmatter_line(text, line)
    if inside is None:
        return None
    lines, _closing, index, current = inside
    match = _KEY_LINE.fullmatch(current)
    if match is None:
        return None
    indent = len(match.group(1))
    path = (*key_path(lines, index, indent), match.group(2))
    doc = key_doc(path)
    key_end = indent + len(match.group(2))
    if indent <= column < key_end:
        if doc is None:
            return None
        facts = ["required" if doc.required else "optional", f"since {doc.since}"]
        if doc.values:
            facts.append("one of: " + ", ".join(doc.values[:6]) + (", …" if len(doc.values) > 6 else ""))
        return Hover(doc.dotted, f"{doc.summary}\n({'; '.join(facts)})", indent, key_end)
    value = match.group(3).split(" #", 1)[0].strip().strip("'\"")
    start = current.find(value, key_end) if value else -1
    if start >= 0 and start <= column < start + len(value):
        meaning = value_doc(path, value)
        if meaning is not None:
            return Hover(f"{'.'.join(path)}: {value}", meaning, start, start + len(value))
    return None
