"""Where the studio keeps its caches, and what counts as a damaged cache file.

The search index and the result cache live in the same user cache folder, shared by the CLI and the app, never
inside a pack. Both are SQLite files that may be corrupt, foreign or of another version: a damaged one is
deleted and built again with a notice, while a busy or locked one is never taken for damage.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path

APP_DIR = "knowledge-pack-studio"


def default_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/knowledge-pack-studio``, else ``~/.cache/knowledge-pack-studio``."""
    base = os.environ.get("XDG_CACHE_HOME", "").strip()
    if not base or not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / APP_DIR


_SCHEMA_DAMAGE = ("no such table", "no such column", "malformed database schema", "database disk image is malformed")
"""The starts of SQLite's own messages (the C library's, stable across Python releases) for a file whose tables
are gone or whose pages are bad: SQLite raises some of them as ``OperationalError``, like busy or locked."""


def is_damage(exc: BaseException) -> bool:
    """True for errors that mean the file itself is bad (not SQLite, corrupt, a table gone), not that it is busy,
    locked, read-only or on a full disk."""
    if isinstance(exc, sqlite3.OperationalError):
        return str(exc).startswith(_SCHEMA_DAMAGE)
    if isinstance(exc, sqlite3.DatabaseError):
        name = getattr(exc, "sqlite_errorname", "") or ""
        return not name or name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB", "SQLITE_ERROR"))
    return False


def remove_database(path: Path) -> None:
    """Delete the database file and its companions (WAL, shared memory, rollback journal)."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError):
            os.remove(str(path) + suffix)
