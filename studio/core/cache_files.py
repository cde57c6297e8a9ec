"""Where the studio keeps its caches, and what counts as a damaged cache file.

The search index and the result cache live in the same user cache folder, shared by the CLI and the app, never
inside a pack. Both are SQLite files that may be corrupt, foreign or of another version: a damaged one is
deleted and built again with a notice, while a busy or locked one is never taken for damage. How a file is
created, checked and rebuilt is written once here (``prepare_database``, ``open_or_rebuild``) for both.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

APP_DIR = "knowledge-pack-studio"


def default_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/knowledge-pack-studio``, else ``~/.cache/knowledge-pack-studio``."""
    base = os.environ.get("XDG_CACHE_HOME", "").strip()
    if not base or not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / APP_DIR


_MISSING_PARTS = ("no such table", "no such column", "no such index", "vtable constructor failed")
"""Messages of an ``OperationalError`` that mean the file lost part of its schema (a table dropped, a page of
``sqlite_master`` damaged): the file is bad, as surely as a corrupt page is."""


def is_damage(exc: BaseException) -> bool:
    """True for errors that mean the file itself is bad (not SQLite, corrupt, part of its schema gone), not that
    it is busy, locked, read-only or the disk full."""
    if not isinstance(exc, sqlite3.DatabaseError):
        return False
    name = getattr(exc, "sqlite_errorname", "") or ""
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
        return True
    if isinstance(exc, sqlite3.OperationalError):
        return str(exc).lower().startswith(_MISSING_PARTS)
    return not name or name.startswith("SQLITE_ERROR")


class NotOurs(Exception):
    """The file is SQLite, but not the studio's database of this format (or part of its schema is missing)."""


def prepare_database(conn: sqlite3.Connection, *, application_id: int, version: int,
                     create: Callable[[sqlite3.Connection], None], tables: tuple[str, ...]) -> None:
    """Make ``conn``'s empty file the studio's database, or check that it already is one: the right
    ``application_id`` and ``user_version``, and every table of ``tables`` present. Raises ``NotOurs`` (or
    SQLite's own error for a file that is not a database) when it is not.

    Creating is decided inside a write transaction: two processes opening one new file at once create it once.
    ``create`` runs inside that transaction and must not commit.
    """
    app = conn.execute("PRAGMA application_id").fetchone()[0]
    if app == 0 and not _table_names(conn):
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("BEGIN IMMEDIATE")
        try:
            if not _table_names(conn):  # another process may have created it meanwhile
                create(conn)
                conn.execute(f"PRAGMA application_id = {int(application_id)}")
                conn.execute(f"PRAGMA user_version = {int(version)}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        app = conn.execute("PRAGMA application_id").fetchone()[0]
    if app != application_id:
        raise NotOurs("another program's database" if app else "a database without the studio's tables")
    found = conn.execute("PRAGMA user_version").fetchone()[0]
    if found != version:
        raise NotOurs(f"format {found}, this studio uses format {version}")
    missing = sorted(set(tables) - _table_names(conn))
    if missing:
        raise NotOurs(f"the table {missing[0]} is missing")


def _table_names(conn: sqlite3.Connection) -> set[str]:
    return {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def open_or_rebuild(path: Path, connect: Callable[[], sqlite3.Connection],
                    rebuilding: Callable[[str], None]) -> sqlite3.Connection:
    """``connect()`` (which opens ``path`` and runs ``prepare_database``); when the file is damaged or not ours,
    ``rebuilding(why)`` is told, the file is deleted and ``connect()`` runs once more on a fresh one. A busy or
    locked file, or an unreadable folder, is never a reason to delete anyone's file: those errors are raised."""
    try:
        return connect()
    except (sqlite3.DatabaseError, NotOurs) as exc:
        if not (isinstance(exc, NotOurs) or is_damage(exc)):
            raise
        rebuilding(reason(exc))
    remove_database(path)
    return connect()


def reason(exc: BaseException) -> str:
    """An error as a short clause for a notice."""
    return (str(exc) or type(exc).__name__)[:200]


def remove_database(path: Path) -> None:
    """Delete the database file and its companions (WAL, shared memory, rollback journal)."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError):
            os.remove(str(path) + suffix)
