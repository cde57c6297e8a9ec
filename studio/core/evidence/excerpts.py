"""Resolve an anchor to the exact excerpt of a source file inside the pack, bounded and read-only.

Only text files are read (UTF-8, no NUL bytes), at most ``MAX_SOURCE_BYTES`` each, once per report.
A path that is absolute, climbs with ``..`` or leads out through a symlink is never opened; nor is one the
file system refuses to look up (a name over its length limit, a NUL byte), which counts as outside.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from studio.core.evidence.anchors import Anchor, AnchorKind, find_headings, heading_span
from studio.core.pack_fs import PackFS, Status, held
from studio.core.paths import pointer_status
from studio.core.textfiles import NotText, read_text_bytes

MAX_SOURCE_BYTES = 2 * 1024 * 1024
MAX_EXCERPT_LINES = 40
MAX_EXCERPT_CHARS = 4000
TEXT_SUFFIXES = frozenset({".md", ".markdown", ".txt", ".csv", ".tsv", ".vtt", ".srt", ".json", ".yaml", ".yml",
                           ".html", ".htm", ".xml", ".rst", ".text", ".log", ""})
_CUE = re.compile(r"^\s*(?:(\d+):)?(\d{1,2}):(\d{2})[.,]\d+\s*-->\s*(?:(\d+):)?(\d{1,2}):(\d{2})[.,]\d+")


class ExcerptState(StrEnum):
    RESOLVED = "resolved"
    """The excerpt is the text the anchor names."""
    WHOLE_FILE = "whole-file"
    """No anchor: the file exists (the excerpt is its beginning)."""
    MISSING = "missing"
    OUTSIDE = "outside"
    """The path leaves the pack; it was not read."""
    NOT_TEXT = "not-text"
    """A PDF, image or other binary: the anchor is shown but cannot be resolved here."""
    TOO_LARGE = "too-large"
    OUT_OF_RANGE = "out-of-range"
    NOT_FOUND = "not-found"
    """A heading slug or a media time that the file does not contain."""


@dataclass(frozen=True, slots=True)
class Excerpt:
    path: str
    anchor: Anchor
    state: ExcerptState
    start_line: int = 0
    end_line: int = 0
    text: str = ""
    truncated: bool = False

    @property
    def ok(self) -> bool:
        return self.state in (ExcerptState.RESOLVED, ExcerptState.WHOLE_FILE, ExcerptState.NOT_TEXT)

    def to_dict(self) -> dict[str, object]:
        return {"path": self.path, "anchor": self.anchor.raw, "anchor_kind": self.anchor.kind.value,
                "state": self.state.value, "start_line": self.start_line, "end_line": self.end_line,
                "text": self.text, "truncated": self.truncated}


_STATES = {"symlink-escape": ExcerptState.OUTSIDE, "too-large": ExcerptState.TOO_LARGE,
           "binary-file": ExcerptState.NOT_TEXT}
"""The excerpt state of a source ``read_text_bytes`` refused (any other refusal: MISSING)."""


class SourceReader:
    """Reads pack files for excerpts, caching each file's lines so a hundred citations cost one read.

    Every look and read goes through the pack's descriptors (``pack_fs``): ``fs`` when the caller holds the pack
    open for a whole report, else the pack is opened for each file read (a reader kept by a view must not hold
    folders open). A file that is, or lies behind, a symlink leading out of the pack is OUTSIDE, never read.
    """

    def __init__(self, root: Path, fs: PackFS | None = None) -> None:
        self.root = root
        self.fs = fs
        self._cache: dict[str, list[str] | ExcerptState] = {}

    def state(self, path: str) -> ExcerptState | None:
        """None when ``path`` is a readable text file; otherwise why it is not."""
        loaded = self._load(path)
        return loaded if isinstance(loaded, ExcerptState) else None

    def exists(self, path: str) -> bool:
        with held(self.root, self.fs) as fs:
            return pointer_status(fs, path) is Status.OK

    def lines(self, path: str) -> list[str] | None:
        loaded = self._load(path)
        return None if isinstance(loaded, ExcerptState) else loaded

    def _load(self, path: str) -> list[str] | ExcerptState:
        if path in self._cache:
            return self._cache[path]
        with held(self.root, self.fs) as fs:
            self._cache[path] = result = self._read(fs, path)
        return result

    def _read(self, fs: PackFS, path: str) -> list[str] | ExcerptState:
        status = pointer_status(fs, path)
        if status is not Status.OK:
            # A name too long for the file system, a NUL byte, a symlink out: never a pack file.
            return ExcerptState.MISSING if status is Status.MISSING else ExcerptState.OUTSIDE
        rel = path.split("#", 1)[0]
        if os.path.splitext(rel)[1].lower() not in TEXT_SUFFIXES:
            return ExcerptState.NOT_TEXT
        data = read_text_bytes(fs, rel, MAX_SOURCE_BYTES)
        if isinstance(data, NotText):
            return _STATES.get(data.reason, ExcerptState.MISSING)
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            return ExcerptState.NOT_TEXT
        return text.splitlines()

    def excerpt(self, path: str, anchor: Anchor) -> Excerpt:
        """The excerpt ``anchor`` names in ``path`` (bounded to MAX_EXCERPT_LINES / MAX_EXCERPT_CHARS)."""
        loaded = self._load(path)
        if isinstance(loaded, ExcerptState):
            return Excerpt(path, anchor, loaded)
        lines = loaded
        if anchor.kind is AnchorKind.NONE:
            return _cut(path, anchor, lines, 1, min(len(lines), MAX_EXCERPT_LINES), ExcerptState.WHOLE_FILE)
        if anchor.kind in (AnchorKind.LINE, AnchorKind.LINES):
            first, last = anchor.start, anchor.end
            if first < 1 or last < first or first > len(lines):
                return Excerpt(path, anchor, ExcerptState.OUT_OF_RANGE)
            return _cut(path, anchor, lines, first, min(last, len(lines)), ExcerptState.RESOLVED,
                        partial=last > len(lines))
        if anchor.kind is AnchorKind.HEADING:
            span = heading_span(find_headings(lines), anchor.slug, len(lines))
            if span is None:
                return Excerpt(path, anchor, ExcerptState.NOT_FOUND)
            return _cut(path, anchor, lines, span[0], span[1], ExcerptState.RESOLVED)
        if anchor.kind is AnchorKind.TIME:
            span = _cue_at(lines, anchor.start)
            if span is None:
                return Excerpt(path, anchor, ExcerptState.NOT_FOUND)
            return _cut(path, anchor, lines, span[0], span[1], ExcerptState.RESOLVED)
        return Excerpt(path, anchor, ExcerptState.NOT_TEXT)  # a page of a text file has no meaning


def _cut(path: str, anchor: Anchor, lines: list[str], first: int, last: int, state: ExcerptState,
         partial: bool = False) -> Excerpt:
    capped_last = min(last, first + MAX_EXCERPT_LINES - 1)
    text = "\n".join(lines[first - 1: capped_last])
    truncated = partial or capped_last < last or len(text) > MAX_EXCERPT_CHARS
    return Excerpt(path, anchor, state, first, capped_last, text[:MAX_EXCERPT_CHARS], truncated)


def _cue_at(lines: list[str], seconds: int) -> tuple[int, int] | None:
    """The WebVTT/SRT cue whose time range contains ``seconds``: its timing line through its last text line."""
    for index, line in enumerate(lines):
        match = _CUE.match(line)
        if not match:
            continue
        start = int(match[1] or 0) * 3600 + int(match[2]) * 60 + int(match[3])
        end = int(match[4] or 0) * 3600 + int(match[5]) * 60 + int(match[6])
        if start <= seconds <= end:
            last = index
            while last + 1 < len(lines) and lines[last + 1].strip():
                last += 1
            return index + 1, last + 1
    return None
