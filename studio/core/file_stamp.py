"""FileStamp: what a file looked like when it was read or written, to tell later whether it changed.

The editor keeps one per open file (save refuses to overwrite a file changed on disk without asking);
recovery copies keep the one their buffer started from.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class FileStamp:
    mtime_ns: int
    size: int
    sha256: str
    """Of the file's raw bytes."""


def stamp_of(path: Path, data: bytes) -> FileStamp | None:
    """The stamp of ``path`` whose bytes are ``data`` (just read or written); None if it cannot be stat'ed."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return FileStamp(st.st_mtime_ns, st.st_size, hashlib.sha256(data).hexdigest())
