"""Minimal, byte-exact edits of ``KNOWLEDGE.md``: change one value, insert or rename one key, drop one line.

Every edit keeps each byte it does not mean to change (line endings, BOM, quotes, comments, order) and is
computed apart from the write, so a UI or the CLI can show the diff first. The line-based edit cannot see
every YAML form, so each caller checks the result with the parser the studio validates with
(``check_data``) and refuses an edit that would change anything else. Review (status/trust) and quick fixes
both edit through here; ``write_knowledge_edit`` refuses to write over a file that changed since.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.core.atomic import ChangedOnDisk, FileIdentity, storage_problem, write_atomic
from studio.core.frontmatter_fences import find_fences, opens_with_fence
from studio.core.pack_fs import PackFS, Status

LINE = re.compile(r"[^\n]*\n|[^\n]+$")
"""One line with its ending (the last one may have none)."""
UNSAFE_VALUE_START = ("|", ">", "[", "{", "&", "*", "!", "%", "@", "`")
"""A value starting with one of these is not a plain one-line scalar; it is never edited in place."""
MAX_EDIT_CHARS = 4 * 1024 * 1024


class EditError(ValueError):
    """The edit cannot be made safely as asked (no frontmatter, an unusual YAML form, the file changed)."""


@dataclass(frozen=True, slots=True)
class FieldEdit:
    """A proposed change to ``KNOWLEDGE.md``: the full old and new text and a unified diff between them."""

    old_text: str
    new_text: str
    diff: str
    changes: dict[str, tuple[str | None, str]] = field(default_factory=dict)
    """Key -> (old value or None when inserted, new value)."""
    source: FileIdentity | None = None
    """The file ``old_text`` was read from: the write lands only if it is still that file."""

    @property
    def changed(self) -> bool:
        return self.old_text != self.new_text


@dataclass(frozen=True, slots=True)
class ValueSpan:
    """Where a ``key: value`` sits: line index, value start and end (quotes excluded), value as written."""

    index: int
    start: int
    end: int
    value: str


@dataclass(slots=True)
class FrontmatterLines:
    """The lines of a ``KNOWLEDGE.md`` text (endings kept) and where its frontmatter fences are."""

    lines: list[str]
    close: int
    """Index of the closing fence line."""
    newline: str
    """The opening fence's line ending, used for inserted lines that follow no other line."""

    @classmethod
    def of(cls, text: str) -> FrontmatterLines:
        """Split ``text``; raises EditError when it has no complete frontmatter block."""
        if len(text) > MAX_EDIT_CHARS:
            raise EditError("KNOWLEDGE.md is too large to edit safely")
        lines = LINE.findall(text)
        unmarked = text.removeprefix("\ufeff")  # the BOM stays in lines[0], and the line numbers are the same
        if not lines or not opens_with_fence(unmarked):
            raise EditError("KNOWLEDGE.md has no frontmatter block to edit")
        span = find_fences(unmarked)
        if span is None:
            raise EditError("KNOWLEDGE.md frontmatter has no closing '---'")
        return cls(lines, span.closing_line, "\r\n" if lines[0].endswith("\r\n") else "\n")

    def text(self) -> str:
        return "".join(self.lines)

    def find_key(self, key: str, *, parent: str | None = None) -> ValueSpan | None:
        """The ``key:`` line at the top level, or directly under the top-level mapping ``parent``.

        Raises EditError when the key appears more than once or its value is not a plain one-line scalar.
        """
        first, last, indent = 1, self.close, ""
        if parent is not None:
            block = self.child_block(parent)
            if block is None:
                return None
            first, last, indent = block
        pattern = re.compile(rf"^{re.escape(indent)}{re.escape(key)}[ \t]*:(?=[ \t]|\r?\n|$)[ \t]*")
        hits = [i for i in range(first, last) if pattern.match(self.lines[i])]
        if not hits:
            return None
        if len(hits) > 1:
            raise EditError(f"'{key}' appears {len(hits)} times in the frontmatter; fix that by hand first")
        index = hits[0]
        line = self.lines[index]
        start = pattern.match(line).end()  # type: ignore[union-attr]
        body = line[start:].rstrip("\r\n")
        if body[:1] in ("'", '"'):
            quote = body[0]
            close_at = body.find(quote, 1)
            if close_at < 0:
                raise EditError(f"'{key}' has an unterminated quoted value")
            return ValueSpan(index, start + 1, start + close_at, body[1:close_at])
        comment = re.search(r"(?<![ \t])[ \t]++#", body)  # from a blank run's start only: linear on long runs
        value = (body[: comment.start()] if comment else body).rstrip()
        if not value or value.startswith(UNSAFE_VALUE_START):
            raise EditError(f"'{key}' is not a plain one-line value; edit it by hand")
        return ValueSpan(index, start, start + len(value), value)

    def key_line(self, key: str) -> int | None:
        """Index of the top-level ``key:`` line whatever its value (None when absent or written twice)."""
        pattern = re.compile(rf"^{re.escape(key)}[ \t]*:(?=[ \t]|\r?\n|$)")
        hits = [i for i in range(1, self.close) if pattern.match(self.lines[i])]
        return hits[0] if len(hits) == 1 else None

    def child_block(self, parent: str) -> tuple[int, int, str] | None:
        """(first line, end line, indent) of the block mapping under the top-level ``parent:`` key."""
        head = self.key_line(parent)
        if head is None:
            return None
        after = self.lines[head].split(":", 1)[1].split("#", 1)[0].strip()
        if after:
            return None  # a flow mapping or a scalar: not a block we can edit line by line
        end = head + 1
        indent: str | None = None
        while end < self.close:
            line = self.lines[end]
            stripped = line.strip()
            if stripped and not stripped.startswith("#"):
                lead = line[: len(line) - len(line.lstrip(" "))]
                if not lead:
                    break
                if indent is None:
                    indent = lead
            end += 1
        return (head + 1, end, indent) if indent is not None else None

    def ending(self, index: int) -> str:
        line = self.lines[index]
        return "\r\n" if line.endswith("\r\n") else "\n" if line.endswith("\n") else ""


def set_value(text: str, key: str, value: str, *, parent: str | None = None) -> str:
    """``text`` with the plain value of ``key`` (under ``parent``) replaced by ``value``, quotes kept."""
    fm = FrontmatterLines.of(text)
    span = fm.find_key(key, parent=parent)
    if span is None:
        where = f"{parent}.{key}" if parent else key
        raise EditError(f"'{where}' is not in the frontmatter")
    line = fm.lines[span.index]
    fm.lines[span.index] = line[: span.start] + value + line[span.end:]
    return fm.text()


def insert_key(text: str, key: str, value: str, *, after: tuple[str, ...] = (),
               before: tuple[str, ...] = ()) -> tuple[str, int]:
    """``text`` with a top-level ``key: value`` line inserted after the first of ``after`` present, else
    before the first of ``before`` present, else before the closing fence. Returns the new text and the
    0-based index of the inserted line."""
    fm = FrontmatterLines.of(text)
    if fm.key_line(key) is not None:
        raise EditError(f"'{key}' is already in the frontmatter")
    at = fm.close
    anchors = [(_end_of_entry(fm, i)) for i in (fm.key_line(a) for a in after) if i is not None]
    if anchors:
        at = anchors[0]
    else:
        following = [i for i in (fm.key_line(b) for b in before) if i is not None]
        if following:
            at = following[0]
    ending = fm.ending(at - 1) or fm.newline
    fm.lines.insert(at, f"{key}: {value}{ending}")
    return fm.text(), at


def fill_or_insert(text: str, key: str, value: str, *, after: tuple[str, ...] = (),
                   before: tuple[str, ...] = ()) -> tuple[str, int]:
    """Like ``insert_key``, but a ``key:`` line with no value on it is filled in instead."""
    fm = FrontmatterLines.of(text)
    index = fm.key_line(key)
    if index is None:
        return insert_key(text, key, value, after=after, before=before)
    line = fm.lines[index]
    rest = line.split(":", 1)[1].strip(" \t\r\n")
    if rest and not rest.startswith("#") and rest not in ('""', "''", "~", "null"):
        raise EditError(f"'{key}' already has a value")
    fm.lines[index] = f"{key}: {value}{fm.ending(index) or fm.newline}"
    return fm.text(), index


def _end_of_entry(fm: FrontmatterLines, index: int) -> int:
    """The line after the entry starting at ``index`` (its nested or continued lines included)."""
    end = index + 1
    while end < fm.close:
        line = fm.lines[end]
        if line.strip() and not line.startswith((" ", "\t")):
            break
        end += 1
    # Trailing blank lines belong to no entry: insert before them.
    while end - 1 > index and not fm.lines[end - 1].strip():
        end -= 1
    return end


def rename_key(text: str, old: str, new: str, *, as_list: bool = False) -> str:
    """``text`` with the top-level key ``old`` spelled ``new`` (its value and the rest of the line kept).

    With ``as_list`` a one-line value becomes the only item of a block list (``maintainer: Ana`` ->
    ``maintainers:`` / ``  - Ana``), for keys the standard defines as lists.
    """
    fm = FrontmatterLines.of(text)
    index = fm.key_line(old)
    if index is None:
        raise EditError(f"'{old}' is not a single top-level key in the frontmatter")
    if fm.key_line(new) is not None or any(re.match(rf"^{re.escape(new)}[ \t]*:", fm.lines[i])
                                             for i in range(1, fm.close)):
        raise EditError(f"'{new}' is already in the frontmatter")
    rest = fm.lines[index][len(old):]
    if as_list:
        value = rest.split(":", 1)[1].strip(" \t\r\n")
        if not value:
            raise EditError(f"'{old}' has no one-line value to make a list of")
        end = fm.ending(index) or fm.newline
        fm.lines[index] = f"{new}:{end}  - {value}{end}"
    else:
        fm.lines[index] = new + rest
    return fm.text()


def remove_line(text: str, index: int) -> str:
    """``text`` without its 0-based line ``index``."""
    lines = LINE.findall(text)
    if not 0 <= index < len(lines):
        raise EditError("that line is no longer in the file")
    del lines[index]
    return "".join(lines)


def parsed(text: str) -> tuple[dict[str, Any] | None, str, int]:
    """(frontmatter data or None, body, error count) as the validator reads ``text``."""
    from studio.core.frontmatter import read_knowledge_bytes  # a leaf module: keep its imports light

    knowledge, diags = read_knowledge_bytes(text.encode("utf-8"))
    errors = sum(1 for d in diags if d.severity == "error")
    data = knowledge.frontmatter.data if knowledge.frontmatter is not None else None
    return data, knowledge.body, errors


def check_data(old_text: str, new_text: str, expect: Callable[[dict[str, Any]], dict[str, Any]], *,
               what: str, body_may_change: bool = False) -> None:
    """Refuse ``new_text`` unless the parser reads it as ``old_text``'s frontmatter changed by ``expect``
    (and the same body, unless ``body_may_change``). ``what`` names the edit in the refusal message."""
    before, before_body, errors_before = parsed(old_text)
    after, after_body, errors_after = parsed(new_text)
    if after is None or before is None or errors_after > errors_before:
        raise EditError(f"this frontmatter is written in a form the studio cannot edit safely; {what} by hand")
    if after != expect(dict(before)) or (not body_may_change and after_body != before_body):
        raise EditError(f"the edit would change more than intended in this frontmatter; {what} by hand")


def unified_diff(old: str, new: str, name: str = "KNOWLEDGE.md") -> str:
    return "".join(difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                        f"a/{name}", f"b/{name}"))


def read_knowledge_text(pack_root: Path) -> str:
    """``KNOWLEDGE.md`` decoded exactly (CRLF and BOM kept), for editing. Raises EditError if unusable."""
    return read_knowledge(pack_root)[0]


def read_knowledge(pack_root: Path) -> tuple[str, FileIdentity]:
    """``KNOWLEDGE.md`` decoded exactly, and the identity of the file it was read from (for the swap).

    Read by descriptor, refusing a symlink. Raises EditError if it is missing, not a regular file, too large to
    edit safely or not UTF-8.
    """
    with PackFS(pack_root) as fs:
        result = fs.read("KNOWLEDGE.md", MAX_EDIT_CHARS + 1, follow=False)
    if result.status is Status.UNREADABLE:
        raise EditError(f"KNOWLEDGE.md cannot be read: {result.error}")
    if result.status is not Status.OK or result.data is None or result.identity is None:
        raise EditError("KNOWLEDGE.md is missing or not a regular file")
    if result.size > MAX_EDIT_CHARS:
        raise EditError("KNOWLEDGE.md is too large to edit safely; edit it by hand")
    try:
        text = result.data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise EditError("KNOWLEDGE.md is not UTF-8; it cannot be edited safely") from exc
    return text, FileIdentity.of(result.identity, result.data)


def write_knowledge_edit(pack_root: Path, edit: FieldEdit) -> Path:
    """Write ``edit.new_text`` atomically, only if ``KNOWLEDGE.md`` is still the file the edit was made from.

    A compare-and-swap under a lock on the pack folder (``atomic.write_atomic(expect=)``): ``edit.source`` names
    that file; without it, the file on disk must still hold ``edit.old_text``. Raises EditError when it changed
    ("not applied") and for storage errors (read-only, full, size-limited); nothing is written then.
    """
    source = edit.source
    if source is None:
        text, source = read_knowledge(pack_root)
        if text != edit.old_text:
            raise EditError("KNOWLEDGE.md changed on disk since the edit was prepared; not applied")
    root = Path(pack_root)
    try:
        return write_atomic(root / "KNOWLEDGE.md", edit.new_text.encode("utf-8"), root=root, expect=source)
    except ChangedOnDisk as exc:
        raise EditError("KNOWLEDGE.md changed on disk since the edit was prepared; not applied") from exc
    except OSError as exc:
        raise EditError(f"KNOWLEDGE.md cannot be written: {storage_problem(exc)}; not applied") from exc
