"""Atomic file writes: a reader (or a crash) sees the old file or the complete new one, never half."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomic(path: Path, data: bytes | str, *, exclusive: bool = False) -> Path:
    """Write ``data`` to ``path`` through a temporary file in the same directory and ``os.replace``.

    With ``exclusive`` the call fails with FileExistsError instead of replacing an existing file
    (used for run records, whose names must be unique). The temp file is fsynced before the rename.
    """
    payload = data.encode("utf-8") if isinstance(data, str) else data
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = _mode_for(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, mode)  # mkstemp makes 0600 files; keep the file's mode, or the usual one for new files
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        if exclusive:
            os.link(tmp, path)  # fails if path exists; atomic on POSIX
            os.unlink(tmp)
        else:
            os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path


def _mode_for(path: Path) -> int:
    """The existing file's permission bits, else what ``open()`` would give a new file under the umask."""
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
