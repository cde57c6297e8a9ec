"""Which files of a pack the search index holds, and how one file is read and cut into rows.

The set is the resolver's (``runtime_files.file_layer``, the rule its walk uses): ``KNOWLEDGE.md`` (its frontmatter
and its guide body), ``compiled/`` and ``compiled/splits/`` Markdown, ``documents/`` and ``wiki/`` Markdown, and
text files under ``sources/``. Everything else is skipped and counted by reason, as are files the resolver would
refuse once read: over ``MAX_FILE_BYTES``, binary (a NUL byte), not valid UTF-8, a symlink leading out of the pack,
unreadable. Folders the resolver never loads (``runs/``, ``indexes/``, ``assets/`` ...) are not entered; each
counts once. The walk never follows a symlinked folder and stops after ``MAX_FILES`` files per pack. Every listing,
stat and read goes through the pack's ``PackFS`` (one per pack, held by the caller): by descriptor from the pack
root, so a file or folder swapped for a symlink after the walk is refused, never read outside the pack. Nothing
here writes.
"""

from __future__ import annotations

import stat
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from studio.core.blake2 import blake2b
from studio.core.pack_fs import LinkEntry, LinkState, PackFS, Status, held, is_text_name
from studio.core.runtime_files import MAX_FILE_BYTES, MAX_FILES, RUNTIME_TOPS, Skip, file_layer
from studio.core.search.blocks import Block, markdown_blocks, text_blocks
from studio.core.search.folders import FolderStamp, stamp_folders
from studio.core.textfiles import is_binary

KINDS = ("frontmatter", "guide", "compiled", "split", "document", "wiki", "source")
"""Row kinds: the resolver's layers, with ``KNOWLEDGE.md`` cut into its frontmatter and its guide body."""


class FileStamp(NamedTuple):
    """A file as the walk saw it, before reading. (A named tuple: a build passes tens of thousands of them to the
    worker process and back, and tuples pickle several times faster than dataclasses.)"""

    path: str
    """Pack-relative POSIX path."""
    layer: str
    size: int
    mtime_ns: int


CHUNK_CHARS = 8000
"""Consecutive heading sections are stored together up to about this many characters (one row of the index)."""


@dataclass(frozen=True, slots=True)
class Row:
    """One stored row: a run of consecutive heading sections of a file (or one section, or one text block)."""

    kind: str
    heading: str | None
    """The first section's heading (None for text before the first heading)."""
    start_line: int
    end_line: int
    text: str
    headings: str = ""
    """Every heading in the row, for the index's heading column (weighted above the body)."""


@dataclass(slots=True)
class ReadFile:
    """A file read and cut into rows."""

    stamp: FileStamp
    digest: bytes
    title: str
    """The file's first heading (the pack name for ``KNOWLEDGE.md``), or its file name."""
    rows: list[Row]
    text: str
    pack_name: str | None = None
    """For ``KNOWLEDGE.md``: the frontmatter ``name`` when it is a usable string."""


@dataclass(slots=True)
class PackListing:
    """The indexable files of one pack, and what was skipped (reason -> count)."""

    files: list[FileStamp] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)
    folders: list[FolderStamp] = field(default_factory=list)
    """Every folder the walk entered ('' for the root), as ``folders.stamp_folders`` saw it."""


def list_pack_files(root: Path | str, fs: PackFS | None = None) -> PackListing:
    """Stat every file search could index under ``root`` (no file is opened).

    One bounded descriptor walk (``pack_fs``): no folder is reached through a symlink, even one swapped in while
    this runs, and a symlinked file counts only when it leads to a regular file inside the pack (its target's
    size and time are used). ``fs``: the pack already held open (left open).
    """
    out = PackListing()
    with held(root, fs) as pack:
        started_ns = time.time_ns()
        tree = pack.walk(enter=lambda rel, name: _enter(rel, name, out.skipped))
        out.folders = stamp_folders(pack, tree.dirs, started_ns)
        links = {link.rel: link for link in tree.links}
        out.skipped["unreadable"] += len(tree.unlisted)
        out.skipped["too-deep"] += tree.too_deep_count
        if tree.stopped_at is not None:
            out.skipped["too-many-files"] += 1
        seen = 0
        for entry in tree.files:
            rel = entry.rel
            if rel.rsplit("/", 1)[-1].startswith("."):
                continue
            size, mtime_ns = entry.size, entry.mtime_ns
            if entry.is_link:
                target = _link_target(pack, links.get(rel))
                if isinstance(target, str):
                    out.skipped[target] += 1
                    continue
                size, mtime_ns = target
            elif not entry.is_regular:
                out.skipped["not-a-regular-file"] += 1  # a FIFO, socket or device: never opened
                continue
            seen += 1
            if seen > MAX_FILES:
                out.skipped["too-many-files"] += 1
                continue
            stamp = _stamp(rel, size, mtime_ns)
            if isinstance(stamp, str):
                out.skipped[stamp] += 1
            else:
                out.files.append(stamp)
    out.files.sort(key=lambda f: f.path)
    return out


def _enter(rel: str, name: str, skipped: Counter[str]) -> bool:
    """Whether the walk enters a folder: not hidden ones, and at the top only the runtime folders (the others
    count once each)."""
    if name.startswith("."):
        return False
    if "/" not in rel and name not in RUNTIME_TOPS:
        skipped["not-a-runtime-surface"] += 1
        return False
    return True


def _link_target(fs: PackFS, link: LinkEntry | None) -> tuple[int, int] | str:
    """(size, mtime_ns) of the regular file a symlink leads to inside the pack, or why it is not indexed."""
    if link is None or link.state in (LinkState.BROKEN, LinkState.OTHER):
        return "unreadable" if link is None or link.state is LinkState.BROKEN else "not-a-regular-file"
    if link.state is LinkState.OUTSIDE:
        return "symlink-escape"
    if link.state in (LinkState.DIR, LinkState.LOOP):
        return "symlinked-folder" if link.resolved is not None else "unreadable"  # never followed
    st = fs.lstat(link.resolved) if link.resolved is not None else None  # resolved: physical folders only
    if st is None or not stat.S_ISREG(st.st_mode):
        return "unreadable"
    return st.st_size, st.st_mtime_ns


def stamp_file(fs: PackFS, rel: str) -> FileStamp | str:
    """The stamp of one file of the pack ``fs`` holds, or the reason search does not index it (``missing`` when
    it is gone). As the walk: a file reached through a symlinked folder is not indexed."""
    parts = rel.split("/")
    if any(p.startswith(".") or p in ("", "..") for p in parts):
        return "not-a-runtime-surface"
    st = fs.lstat(rel)
    if st is None or stat.S_ISLNK(st.st_mode):
        status, resolved, mode = fs.kind(rel)
        if status is not Status.OK:
            return _REASONS.get(status, "unreadable")
        if st is None:  # it exists, but only through a symlinked folder, which the walk never enters
            return "symlinked-folder"
        st = fs.lstat(resolved) if resolved is not None and stat.S_ISREG(mode) else None
        if st is None:
            return "missing" if stat.S_ISDIR(mode) else "not-a-regular-file"
    if not stat.S_ISREG(st.st_mode):
        return "missing" if stat.S_ISDIR(st.st_mode) else "not-a-regular-file"
    return _stamp(rel, st.st_size, st.st_mtime_ns)


def _stamp(rel: str, size: int, mtime_ns: int) -> FileStamp | str:
    """The stamp of a file the walk or a stat found, or why search does not index it: ``undecodable-name`` for a
    name that is not UTF-8 (Python holds its bytes as surrogates, which neither SQLite nor the engine takes: one
    such file stopped the whole refresh), then its layer's skip, then ``too-large``."""
    if not is_text_name(rel):
        return "undecodable-name"
    layer = file_layer(rel)
    if isinstance(layer, Skip):
        return layer.reason
    if size > MAX_FILE_BYTES and layer != "guide":
        return "too-large"
    return FileStamp(rel, layer, size, mtime_ns)


_REASONS = {Status.MISSING: "missing", Status.OUTSIDE: "symlink-escape", Status.NOT_REGULAR: "not-a-regular-file",
            Status.LOOP: "unreadable", Status.UNREADABLE: "unreadable"}
"""A ``pack_fs`` status as a skip reason."""


def read_data(fs: PackFS, stamp: FileStamp) -> bytes | str:
    """The file's bytes (bounded; reached by descriptor, never through a symlink out of the pack, even one
    swapped in since the walk), or the reason it was not read."""
    # Imported here, as in ``_knowledge``: the frontmatter module brings YAML (7.5 ms), which a warm search,
    # reading no file, never needs.
    from studio.core.frontmatter import MAX_KNOWLEDGE_BYTES

    limit = (MAX_KNOWLEDGE_BYTES if stamp.layer == "guide" else MAX_FILE_BYTES) + 1
    got = fs.read(stamp.path, limit)
    if got.status is not Status.OK or got.data is None:
        return _REASONS.get(got.status, "unreadable")
    if got.size >= limit and stamp.layer != "guide":
        return "too-large"
    if is_binary(got.data):
        return "binary"
    return got.data


def digest_of(data: bytes) -> bytes:
    return blake2b(data, digest_size=16).digest()


def decode_file(stamp: FileStamp, data: bytes, digest: bytes | None = None) -> ReadFile | str:
    """Cut ``data`` into rows; ``undecodable`` when it is not UTF-8 (``KNOWLEDGE.md`` is read as the loader does)."""
    digest = digest if digest is not None else digest_of(data)
    if stamp.layer == "guide":
        return _knowledge(stamp, data, digest)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return "undecodable"
    text = text.lstrip("\ufeff")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    name = stamp.path.rsplit("/", 1)[-1]
    if stamp.layer == "source" and not name.lower().endswith((".md", ".markdown")):
        rows = [_row(stamp.layer, b, text) for b in text_blocks(text)]
        return ReadFile(stamp, digest, name, rows, text)
    blocks = markdown_blocks(text)
    title = next((b.heading for b in blocks if b.heading), None) or name
    return ReadFile(stamp, digest, title, _rows(stamp.layer, blocks, text), text)


def _row(kind: str, block: Block, text: str, line_offset: int = 0) -> Row:
    return Row(kind, block.heading, block.start_line + line_offset, block.end_line + line_offset,
               text[block.start:block.end], block.heading or "")


def _rows(kind: str, blocks: list[Block], text: str, line_offset: int = 0) -> list[Row]:
    """Consecutive sections merged into rows of up to ``CHUNK_CHARS`` (a longer section is a row of its own).

    Why not one row per section: bm25 is computed for every row a query matches, and in a large workspace a
    common word matches tens of thousands of sections (150-200 ms per query on the 1,000-pack corpus). Rows
    of a few sections cut that by three and still point into a screenful of text; a hit's line and heading
    are those of its best matching line, found when the snippet is cut.
    """
    rows: list[Row] = []
    group: list[Block] = []
    size = 0
    for block in blocks:
        length = block.end - block.start
        if group and size + length > CHUNK_CHARS:
            rows.append(_merged(kind, group, text, line_offset))
            group, size = [], 0
        group.append(block)
        size += length
    if group:
        rows.append(_merged(kind, group, text, line_offset))
    return rows


def _merged(kind: str, group: list[Block], text: str, line_offset: int) -> Row:
    first, last = group[0], group[-1]
    headings = " \n".join(b.heading for b in group if b.heading)
    return Row(kind, first.heading, first.start_line + line_offset, last.end_line + line_offset,
               text[first.start:last.end], headings)


def _knowledge(stamp: FileStamp, data: bytes, digest: bytes) -> ReadFile:
    """Frontmatter as one row (its YAML text), the guide body as heading sections."""
    from studio.core.frontmatter import MAX_KNOWLEDGE_BYTES, read_knowledge_bytes

    kf, _diags = read_knowledge_bytes(data[:MAX_KNOWLEDGE_BYTES + 1], size=len(data))
    fm = kf.frontmatter
    rows: list[Row] = []
    name = None
    if fm is not None:
        value = fm.data.get("name")
        name = value.strip() if isinstance(value, str) and value.strip() else None
        if fm.raw.strip():  # the YAML between the fences: lines after the opening ``---``
            rows.append(Row("frontmatter", "frontmatter", fm.start_line + 1, max(fm.end_line - 1, fm.start_line + 1),
                            fm.raw, name or ""))
    body = kf.body
    offset = kf.body_start_line - 1
    blocks = [b for b in markdown_blocks(body) if body[b.start:b.end].strip()]
    rows.extend(_rows("guide", blocks, body, offset))
    title = name or next((r.heading for r in rows if r.kind == "guide" and r.heading), None) or "KNOWLEDGE.md"
    return ReadFile(stamp, digest, title, rows, kf.text, name)


def read_file(fs: PackFS, stamp: FileStamp) -> ReadFile | str:
    """Read and cut one file of the pack ``fs`` holds, or the reason it is skipped."""
    data = read_data(fs, stamp)
    return data if isinstance(data, str) else decode_file(stamp, data)
