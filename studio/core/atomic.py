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
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
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
