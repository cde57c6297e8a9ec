"""Recovery copies of unsaved editor buffers, kept outside every pack so a crash never loses typed text.

One JSON file per original path (named by a hash of the absolute path) in a directory the caller picks:
the app passes its local data directory, tests a temp dir. The store never reads or writes inside a pack
except ``disk_state``, which only reads the original file to say whether it changed since the buffer
was opened. Writes go through ``write_atomic``, so a crash mid-write leaves the previous copy whole.
A recovery file that cannot be read is skipped and reported, never raised.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum
from pathlib import Path
from typing import Any

from studio.core.atomic import write_atomic
from studio.core.file_stamp import FileStamp
from studio.core.jsonwrite import dumps
from studio.core.paths import read_bounded

FORMAT = 1
"""Version of the JSON layout; a file with another version is reported instead of guessed at."""

SUFFIX = ".json"
SET_ASIDE_SUFFIX = ".unreadable"
MAX_RECOVERY_BYTES = 64 * 1024 * 1024
"""The editor opens files up to 2 MiB; JSON escaping can grow that several times, never to 64 MiB."""
MAX_ORIGINAL_BYTES = 16 * 1024 * 1024
"""How much of the original file ``disk_state`` reads; anything larger cannot be the file we opened."""


@dataclass(frozen=True, slots=True)
class RecoveryCopy:
    """The unsaved text of one file, as last written to the recovery directory."""

    path: Path
    """Absolute path of the original file."""
    pack_root: Path
    """The pack the file belongs to."""
    text: str
    """The buffer, with ``\\n`` line endings (the editor's; saving restores CRLF if the file had it)."""
    written_at: datetime
    """When the copy was written (UTC)."""
    opened: FileStamp | None
    """The file on disk that the buffer started from; None when it could not be stat'ed."""
    pid: int
    """The process that wrote the copy: a copy kept by another running studio is not offered here."""

    @property
    def relpath(self) -> str:
        try:
            return self.path.relative_to(self.pack_root).as_posix()
        except ValueError:
            return str(self.path)


@dataclass(frozen=True, slots=True)
class RecoveryProblem:
    """A recovery file that was skipped, and why (in the user's words)."""

    file: Path
    message: str


class DiskState(Enum):
    """How the original file compares with the copy's fingerprint and text."""

    UNCHANGED = "unchanged"
    """The file is as it was when the buffer was opened: restoring is safe."""
    CHANGED = "changed"
    """The file changed on disk since the buffer was opened: restoring would override those changes."""
    MISSING = "missing"
    """The file is gone (or unreadable); the text can only be copied out."""
    SAME_TEXT = "same-text"
    """The file already holds exactly this text (saved before the copy was discarded): nothing to restore."""


def key_for(path: Path) -> str:
    """The recovery file's name (without suffix) for an original path."""
    return hashlib.sha256(os.path.abspath(path).encode("utf-8", "surrogateescape")).hexdigest()[:32]


class RecoveryStore:
    """The recovery directory: ``write``, ``discard`` and ``pending`` copies. Safe to call from a worker."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)

    def file_for(self, path: Path) -> Path:
        return self.directory / f"{key_for(path)}{SUFFIX}"

    def write(self, path: Path, pack_root: Path, text: str, opened: FileStamp | None) -> RecoveryCopy:
        """Write (or replace) the copy for ``path`` atomically; returns what was written."""
        copy = RecoveryCopy(Path(os.path.abspath(path)), Path(os.path.abspath(pack_root)), text,
                            datetime.now(UTC), opened, os.getpid())
        self._ensure_directory()
        write_atomic(self.file_for(path), _encode(copy))
        return copy

    def discard(self, path: Path) -> bool:
        """Remove the copy for ``path``; True if there was one."""
        try:
            self.file_for(path).unlink()
        except FileNotFoundError:
            return False
        return True

    def pending(self, problems: list[RecoveryProblem] | None = None) -> list[RecoveryCopy]:
        """Every readable copy, sorted by pack and path. Unreadable files are skipped and appended to
        ``problems`` (when given); they stay on disk until ``set_aside`` moves them out of the way."""
        found: list[RecoveryCopy] = []
        try:
            names = sorted(os.listdir(self.directory))
        except FileNotFoundError:
            return []
        except OSError as exc:
            _report(problems, self.directory, f"the recovery folder cannot be read: {exc.strerror or exc}")
            return []
        for name in names:
            if not name.endswith(SUFFIX) or name.startswith("."):
                continue  # write_atomic's temp files are dot-files; set-aside files have another suffix
            file = self.directory / name
            copy, message = self._read(file)
            if copy is not None:
                found.append(copy)
            else:
                _report(problems, file, message)
        found.sort(key=lambda c: (str(c.pack_root), str(c.path)))
        return found

    def set_aside(self, file: Path) -> Path | None:
        """Rename an unreadable recovery file so it is reported once, but kept for a human to inspect."""
        target = file.with_name(file.name + SET_ASIDE_SUFFIX)
        try:
            os.replace(file, target)
        except OSError:
            return None
        return target

    def _read(self, file: Path) -> tuple[RecoveryCopy | None, str]:
        data, size, problem = read_bounded(file, MAX_RECOVERY_BYTES + 1, root=self.directory)
        if problem is not None or data is None:
            return None, problem.message if problem else "cannot be read"
        if size > MAX_RECOVERY_BYTES:
            return None, f"is {size:,} bytes, larger than any copy the studio writes"
        try:
            copy = _decode(json.loads(data.decode("utf-8")))
        except UnicodeDecodeError as exc:
            return None, f"is not UTF-8 (byte {exc.start})"
        except json.JSONDecodeError as exc:
            return None, f"is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        except RecursionError:
            return None, "is nested too deeply to be a recovery copy"
        except _Garbled as exc:
            return None, str(exc)
        if file.name != f"{key_for(copy.path)}{SUFFIX}":
            return None, f"names {copy.path}, which belongs in another recovery file"
        return copy, ""

    def _ensure_directory(self) -> None:
        if not self.directory.is_dir():
            # Copies hold whatever the user typed: keep the folder private to them.
            self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)


def disk_state(copy: RecoveryCopy) -> DiskState:
    """Compare the original file with the copy (reads the file; never writes anything)."""
    data, size, problem = read_bounded(copy.path, MAX_ORIGINAL_BYTES + 1, root=copy.pack_root)
    if problem is not None or data is None:
        return DiskState.MISSING
    if size <= MAX_ORIGINAL_BYTES:
        try:
            if data.decode("utf-8-sig").replace("\r\n", "\n") == copy.text:
                return DiskState.SAME_TEXT
        except UnicodeDecodeError:
            pass
    if copy.opened is not None and size == copy.opened.size \
            and hashlib.sha256(data).hexdigest() == copy.opened.sha256:
        return DiskState.UNCHANGED
    return DiskState.CHANGED


# -- JSON ----------------------------------------------------------------------------------------------
class _Garbled(Exception):
    """Raised by ``_decode`` with the user-facing reason."""


def _report(problems: list[RecoveryProblem] | None, file: Path, message: str) -> None:
    if problems is not None:
        problems.append(RecoveryProblem(file, message))


def _encode(copy: RecoveryCopy) -> bytes:
    doc: dict[str, Any] = {
        "format": FORMAT,
        "path": str(copy.path),
        "pack_root": str(copy.pack_root),
        "written_at": copy.written_at.isoformat(),
        "pid": copy.pid,
        "opened": None if copy.opened is None else {
            "mtime_ns": copy.opened.mtime_ns, "size": copy.opened.size, "sha256": copy.opened.sha256,
        },
        "text": copy.text,  # last, so a human opening the file sees the metadata first
    }
    # A lone surrogate cannot be encoded as UTF-8: the strict writer replaces that one character (U+FFFD).
    return dumps(doc, indent=1).encode("utf-8")


def _decode(doc: object) -> RecoveryCopy:
    if not isinstance(doc, dict):
        raise _Garbled("is not a recovery copy (a JSON object was expected)")
    version = doc.get("format")
    if version != FORMAT:
        raise _Garbled(f"has format {version!r}; this version of the studio reads format {FORMAT}")
    path = _abs_path(doc, "path")
    pack_root = _abs_path(doc, "pack_root")
    if not path.is_relative_to(pack_root):
        raise _Garbled(f"names {path}, which is not inside its pack {pack_root}")
    text = doc.get("text")
    if not isinstance(text, str):
        raise _Garbled("has no text")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise _Garbled(f"has text with an invalid character at {exc.start}") from exc
    written = doc.get("written_at")
    try:
        written_at = datetime.fromisoformat(written) if isinstance(written, str) else None
    except ValueError:
        written_at = None
    if written_at is None:
        raise _Garbled("has no valid written_at time")
    if written_at.tzinfo is None:
        written_at = written_at.replace(tzinfo=UTC)
    return RecoveryCopy(path, pack_root, text, written_at, _fingerprint(doc.get("opened")), _int(doc, "pid"))


def _abs_path(doc: dict[str, Any], key: str) -> Path:
    raw = doc.get(key)
    if not isinstance(raw, str) or not raw or "\0" in raw or not os.path.isabs(raw):
        raise _Garbled(f"has no valid absolute {key}")
    return Path(os.path.normpath(raw))


def _int(doc: dict[str, Any], key: str) -> int:
    value = doc.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _Garbled(f"has no valid {key}")
    return value


def _fingerprint(raw: object) -> FileStamp | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise _Garbled("has an invalid 'opened' fingerprint")
    sha = raw.get("sha256")
    if not isinstance(sha, str) or len(sha) != 64 or any(c not in "0123456789abcdef" for c in sha):
        raise _Garbled("has an invalid 'opened' fingerprint")
    return FileStamp(_int(raw, "mtime_ns"), _int(raw, "size"), sha)
