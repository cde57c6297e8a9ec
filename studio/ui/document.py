"""A pack file opened for editing: bounded read through the core, binary refusal, and a conflict-aware save.

The save never overwrites a file that changed on disk since it was read unless the caller says so
(``force=True`` after asking the user), and always goes through ``write_atomic``.
"""

from __future__ import annotations

import codecs
import hashlib
import os
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from studio.core.atomic import write_atomic
from studio.core.file_stamp import FileStamp, stamp_of
from studio.core.paths import read_bounded
from studio.core.text.line_breaks import merge_edit, shown
from studio.core.textfiles import is_binary

MAX_EDIT_BYTES = 2 * 1024 * 1024
"""Files larger than this are not opened in the editor (a pack file this big is not hand-edited)."""


@dataclass(slots=True)
class Document:
    path: Path
    pack_root: Path
    text: str
    """What the editor shows: every line break as ``\n`` (``line_breaks.shown``)."""
    stamp: FileStamp | None
    original: str | None = None
    """The file's text as last read or saved, every line break as written; a save keeps them, and new lines get
    its most common break (``line_breaks.usual_break``). None: write ``text`` whole with LF, as after Format."""
    bom: bool = False
    """The file starts with a UTF-8 byte order mark, which a save keeps."""

    @property
    def relpath(self) -> str:
        return self.path.relative_to(self.pack_root).as_posix()


class SaveOutcome(Enum):
    SAVED = "saved"
    CONFLICT = "conflict"
    """The file changed on disk since it was opened; nothing was written."""


class OpenRefused(Exception):
    """The file cannot be shown in the editor; the message says why in the user's words."""


def open_document(path: Path, pack_root: Path) -> Document:
    """Read a pack file for editing. Raises OpenRefused for binary, oversized or unreadable files."""
    data, size, problem = read_bounded(path, MAX_EDIT_BYTES + 1, root=pack_root)
    if problem is not None or data is None:
        raise OpenRefused(problem.message if problem else f"{path.name} cannot be read")
    if size > MAX_EDIT_BYTES:
        raise OpenRefused(f"{path.name} is {size:,} bytes; the editor opens files up to {MAX_EDIT_BYTES:,} bytes")
    if is_binary(data):
        raise OpenRefused(f"{path.name} looks like a binary file; the editor only opens text")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise OpenRefused(f"{path.name} is not UTF-8 text (byte {exc.start}); the editor only opens UTF-8") from exc
    return Document(path, pack_root, shown(text), stamp_of(path, data), original=text,
                    bom=data.startswith(codecs.BOM_UTF8))


def changed_on_disk(doc: Document) -> bool:
    """True when the file's mtime, size or content differs from when it was read (or it vanished)."""
    try:
        st = os.stat(doc.path)
    except OSError:
        return doc.stamp is not None
    if doc.stamp is None:
        return True
    if st.st_mtime_ns == doc.stamp.mtime_ns and st.st_size == doc.stamp.size:
        return False
    data, _size, problem = read_bounded(doc.path, MAX_EDIT_BYTES + 1, root=doc.pack_root)
    return problem is not None or data is None or hashlib.sha256(data).hexdigest() != doc.stamp.sha256


def save_document(doc: Document, text: str, *, force: bool = False) -> SaveOutcome:
    """Write ``text`` atomically unless the file changed on disk. Only what was edited changes: untouched lines
    keep their own line breaks, a byte order mark stays (``line_breaks.merge_edit``)."""
    if not force and changed_on_disk(doc):
        return SaveOutcome.CONFLICT
    merged = merge_edit(doc.original, text) if doc.original is not None else text
    payload = (codecs.BOM_UTF8 if doc.bom else b"") + merged.encode("utf-8")
    if _inside(doc.path, doc.pack_root):
        write_atomic(doc.path, payload, root=doc.pack_root)  # by descriptor: never through a swapped-in link
    else:
        write_atomic(doc.path, payload)
    doc.text = text
    doc.original = merged
    doc.stamp = stamp_of(doc.path, payload)
    return SaveOutcome.SAVED


def _inside(path: Path, root: Path) -> bool:
    return os.path.abspath(path).startswith(os.path.abspath(root).rstrip(os.sep) + os.sep)
