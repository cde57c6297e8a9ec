"""The search index's files: a SQLite file in the user's cache folder and the engine's folder beside it.

Where: ``<cache>/search-index-2.sqlite3`` and ``<cache>/search-index-2.sqlite3.tantivy/<token>`` (``engine``),
the cache folder being the caller's (the app passes Qt's ``CacheLocation``) or
``$XDG_CACHE_HOME/knowledge-pack-studio`` (``~/.cache/...`` without it); never inside a pack
(``Store.check_outside``). A file that is not SQLite, a SQLite file that is not ours (another
``application_id``), or ours from another schema or tokenizer version, or one whose engine folder is missing or
damaged, is deleted and made again with a ``search-index-rebuilt`` notice; it is never read as if it were right.
The index of studios before the engine changed (``search-index.sqlite3``, SQLite FTS5) is deleted with the same
notice, and the new one is built in its place. Errors met later (a file damaged while in use) are reported the
same way by the caller, which rebuilds.

Sharing: several studios (and ``pack-studio search``) may use the files at once. WAL lets readers go on while
one writer writes; writers take turns (``BEGIN IMMEDIATE``, asked for up to 10 s: ``Store.begin``) and write in
short transactions, except a build from an empty index, which is one transaction (``indexer``). The engine is written
only inside SQLite's write transaction (``write_all``), so SQLite's lock is the only one writers wait for;
readers of the engine see each commit of any process.

Schema: ``packs`` (root, name), ``files`` (pack, path, layer, size, mtime, BLAKE2b digest), ``sections`` (file,
kind, heading, lines), ``token_counts`` (``token_counts``: whole-file token counts for the L0 index),
``folders`` (``folders``: each pack's folder stamps at its last walk) and ``meta`` (the tokenizer, the engine
folder's token, when the index was last refreshed).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from studio.core.cache_files import NotOurs, is_damage, open_or_rebuild, prepare_database, remove_database
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity
from studio.core.search.engine import Engine, EngineError, EngineWriter, folder_for, new_token, remove_others
from studio.core.search.folders import FolderStat

INDEX_FILE = "search-index-2.sqlite3"
EARLIER_INDEX_FILES = ("search-index.sqlite3",)
"""Indexes of earlier studios (SQLite FTS5): deleted when this one is opened beside them."""
APPLICATION_ID = 0x4B505331  # "KPS1"
SCHEMA_VERSION = 2
TOKENIZER = "tantivy-simple-cjk-chars-2"
"""Bumped whenever ``textprep.index_text`` or the engine's analyzer change what the index holds: an index made
otherwise is rebuilt."""
BUSY_TIMEOUT_S = 10.0
BEGIN_POLL_S = 0.002
"""How often a writer waiting for the write lock asks for it (``Store.begin``)."""

INDEX_REBUILT = Code("search-index-rebuilt", Severity.INFO, "the search index in the cache folder was not "
                     "usable (damaged, not the studio's, or from another version); it was made again",
                     Behavior.LOAD, hint="Nothing to do; the first search after this takes longer.")
INDEX_IN_MEMORY = Code("search-index-in-memory", Severity.WARNING, "the cache folder cannot hold the search "
                       "index, so it is kept in memory and built again at each start", Behavior.LOAD,
                       hint="Make the cache folder writable (or set XDG_CACHE_HOME).")
CODES = (INDEX_REBUILT, INDEX_IN_MEMORY)

_TOKEN_COUNTS = ("CREATE TABLE IF NOT EXISTS token_counts(key BLOB PRIMARY KEY, tokens INTEGER NOT NULL, "
                 "used INTEGER NOT NULL) WITHOUT ROWID")
"""Whole-file token counts by digest of the text (``token_counts``); added to indexes made before it existed."""
_FOLDERS = ("CREATE TABLE IF NOT EXISTS folders(pack_id INTEGER NOT NULL, path TEXT NOT NULL, "
            "mtime_ns INTEGER NOT NULL, ctime_ns INTEGER NOT NULL, PRIMARY KEY(pack_id, path)) WITHOUT ROWID")
"""The stamps of each pack's folders at its last walk (``folders``): an index made before it existed gains it
(empty, so every pack is walked once more, which fills it)."""

_SCHEMA = f"""
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE packs(id INTEGER PRIMARY KEY, root TEXT NOT NULL UNIQUE, name TEXT NOT NULL);
CREATE TABLE files(
    id INTEGER PRIMARY KEY, pack_id INTEGER NOT NULL, path TEXT NOT NULL, layer TEXT NOT NULL,
    size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, digest BLOB NOT NULL, title TEXT NOT NULL,
    UNIQUE(pack_id, path));
CREATE TABLE sections(
    id INTEGER PRIMARY KEY AUTOINCREMENT, file_id INTEGER NOT NULL, pack_id INTEGER NOT NULL,
    kind TEXT NOT NULL, heading TEXT, start_line INTEGER NOT NULL, end_line INTEGER NOT NULL);
CREATE INDEX sections_file ON sections(file_id);
{_TOKEN_COUNTS};
{_FOLDERS};
INSERT INTO meta(key, value) VALUES ('tokenizer', '{TOKENIZER}'), ('updated', '0');
PRAGMA application_id = {APPLICATION_ID};
PRAGMA user_version = {SCHEMA_VERSION}
"""
TABLES = ("meta", "packs", "files", "sections")
"""Tables an index must have to be used (``token_counts`` and ``folders`` are only caches, added when missing)."""


class IndexLocationError(ValueError):
    """The index file would lie inside a pack (the studio never writes into a pack on its own)."""


class Store:
    """One connection to the database (or to memory), shared by threads under a lock, and the engine beside it."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        """The database file, or None for an in-memory index."""
        self.notices: list[Diagnostic] = []
        self.lock = threading.RLock()
        self._inode: tuple[int, int] | None = None
        self.engine: Engine
        self.conn = self._open()

    # -- opening -----------------------------------------------------------------------------------------
    def _open(self) -> sqlite3.Connection:
        if self.path is None:
            conn = self._connect(":memory:")
            _create(conn)
            self.engine = Engine(None, create=True)
            return conn
        path = self.path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._remove_earlier()
        conn = open_or_rebuild(path, self._connect_checked, self._rebuilding)
        self._inode = _inode(path)
        remove_others(path, keep=self.engine.folder.name if self.engine.folder else None)
        return conn

    def _remove_earlier(self) -> None:
        assert self.path is not None
        for name in EARLIER_INDEX_FILES:
            earlier = self.path.parent / name
            if earlier.exists():
                remove_database(earlier)
                self.notices.append(INDEX_REBUILT(
                    f"The search index of an earlier studio ({earlier}, SQLite FTS5) was deleted; the new index "
                    f"({self.path}) is being built.", file=str(earlier)))

    def _rebuilding(self, why: str) -> None:
        assert self.path is not None
        remove_others(self.path, keep=None)
        self.notices.append(INDEX_REBUILT(f"The search index {self.path} was not usable ({why}); it was "
                                          "deleted and is being built again.", file=str(self.path)))

    def _connect(self, target: str) -> sqlite3.Connection:
        return sqlite3.connect(target, timeout=BUSY_TIMEOUT_S, check_same_thread=False, isolation_level=None)

    def _connect_checked(self) -> sqlite3.Connection:
        conn = self._connect(str(self.path))
        try:
            self._prepare(conn)
            self.engine = self._open_engine(conn)
        except BaseException:
            conn.close()
            raise
        return conn

    def _prepare(self, conn: sqlite3.Connection) -> None:
        """Check the file is our index of this version, creating the schema in an empty file."""
        conn.execute("PRAGMA cache_size = -32000")
        conn.execute("PRAGMA temp_store = MEMORY")
        prepare_database(conn, application_id=APPLICATION_ID, version=SCHEMA_VERSION, create=_create, tables=TABLES)
        row = conn.execute("SELECT value FROM meta WHERE key = 'tokenizer'").fetchone()
        if row is None or row[0] != TOKENIZER:
            raise NotOurs(f"tokenizer {row[0] if row else 'unknown'}, this studio uses {TOKENIZER}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        for table, create in (("token_counts", _TOKEN_COUNTS), ("folders", _FOLDERS)):
            if conn.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (table,)).fetchone() is None:
                with contextlib.suppress(sqlite3.OperationalError):  # busy or read-only: both are only caches
                    conn.execute(create)
        # Checkpoints (copying the WAL back and syncing the file) are run by ``checkpoint``, between batches of
        # a refresh and after updates, not by whichever commit happens to cross the threshold: on a busy disk
        # the sync took 250 ms, inside the one-file update meant to take a few.
        conn.execute("PRAGMA wal_autocheckpoint = 0")
        conn.execute("PRAGMA journal_size_limit = 4194304")

    def _open_engine(self, conn: sqlite3.Connection) -> Engine:
        """The engine folder this SQLite file names; made (under the write lock, so two processes opening a new
        index make it once) while SQLite holds no files yet, and ``NotOurs`` when it is gone or damaged after that.

        Only a failure met under the write lock counts: then no other process is writing the engine. Outside it,
        an open can fail while another process commits (its files change under the open), and taking that for
        damage would delete the index every process shares (seen with four processes building one at once)."""
        assert self.path is not None
        row = conn.execute("SELECT value FROM meta WHERE key = 'engine'").fetchone()
        if row is not None:
            with contextlib.suppress(NotOurs):
                return Engine(folder_for(self.path, row[0]), create=False)
        conn.execute("BEGIN IMMEDIATE")
        try:
            row = conn.execute("SELECT value FROM meta WHERE key = 'engine'").fetchone()
            token = row[0] if row is not None else new_token()
            if row is None:
                conn.execute("INSERT INTO meta(key, value) VALUES ('engine', ?)", (token,))
            holds_files = conn.execute("SELECT 1 FROM files LIMIT 1").fetchone() is not None
            engine = Engine(folder_for(self.path, token), create=not holds_files)
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
        return engine

    def reopen_if_replaced(self) -> None:
        """Another studio may have rebuilt the file: follow it rather than keep reading a deleted one. Then check
        that no table went missing since the file was opened (raises ``NotOurs``; a damaged page raises SQLite's
        error), so that every refresh, update and search meets damage before it works on a half index."""
        if self.path is not None and _inode(self.path) != self._inode:
            with self.lock:
                with contextlib.suppress(sqlite3.Error):
                    self.conn.close()
                self.conn = self._open()
        with self.lock:
            names = {name for (name,) in self.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        missing = sorted(set(TABLES) - names)
        if missing:
            raise NotOurs(f"the table {missing[0]} is missing")

    def reset(self, reason: str, *, check: bool = True) -> bool:
        """Delete the database and the engine's folder and start empty ones (damage found while in use), unless
        ``check`` finds the index whole when it is looked at again under the write lock: returns whether it reset.
        Callers that meet the same failure again reset with ``check=False`` (the look under the lock reads only
        the file's schema and the engine, not every page).

        Damage met outside the lock may be another process's commit under way (its engine files change while a
        reload reads them). Resetting then deleted the index every process shares, and the others' writers failed
        ("Directory does not exist"; seen with four processes building one index on a loaded machine). Under the
        lock nobody writes, so what fails there is damage."""
        with self.lock:
            if self.path is None:
                with contextlib.suppress(sqlite3.Error):
                    self.conn.close()
                self.conn = self._open()
                return True
            if check and not self._damaged_under_lock():
                return False
            with contextlib.suppress(sqlite3.Error):
                self.conn.close()
            self.notices.append(INDEX_REBUILT(f"The search index {self.path} was not usable ({reason}); it was "
                                              "deleted and is being built again.", file=str(self.path)))
            remove_database(self.path)
            remove_others(self.path, keep=None)
            self.conn = self._open()
            return True

    def _damaged_under_lock(self) -> bool:
        """Open the file and its engine afresh while holding SQLite's write lock, and read both: True when that
        fails as damage (a lock that cannot be had in time is not damage: the index is left as it is)."""
        assert self.path is not None
        try:
            conn = self._connect(str(self.path))
        except sqlite3.Error as exc:
            return is_damage(exc)
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
            conn.execute("BEGIN IMMEDIATE")
            try:
                prepare_database(conn, application_id=APPLICATION_ID, version=SCHEMA_VERSION, create=_create,
                                 tables=TABLES)
                row = conn.execute("SELECT value FROM meta WHERE key = 'engine'").fetchone()
                if row is None:
                    return True
                Engine(folder_for(self.path, row[0]), create=False).num_docs()
            finally:
                conn.execute("ROLLBACK")
        except NotOurs:
            return True
        except sqlite3.Error as exc:
            return is_damage(exc)
        except (EngineError, OSError):  # a refusal or a busy system, not damage
            return False
        finally:
            conn.close()
        return False

    def close(self) -> None:
        with self.lock, contextlib.suppress(sqlite3.Error):
            self.conn.close()

    def check_outside(self, roots: Sequence[Path | str],
                      stats: Mapping[str, FolderStat | None] | None = None) -> None:
        """Raise ``IndexLocationError`` when the database file lies inside one of ``roots`` (``stats``: the caller's
        ``os.stat`` of each root, by its string, when it has them)."""
        if self.path is None:
            return
        # By identity, not by path: one ``realpath`` of the index's folder and a stat of each folder above it,
        # then one stat per pack (a ``realpath`` per pack cost 0.13 s of a warm search at 1,000 packs).
        real = Path(os.path.realpath(self.path.parent))
        above = {_inode(folder) for folder in (real, *real.parents)} - {None}
        for root in roots:
            st = stats.get(str(root)) if stats is not None else None
            identity = (st.st_dev, st.st_ino) if st is not None else _inode(root)
            if identity in above:
                raise IndexLocationError(f"the search index {self.path} would be inside the pack {root}; "
                                         "choose a cache folder outside every pack")

    # -- transactions ------------------------------------------------------------------------------------
    def begin(self) -> sqlite3.Connection:
        """Start a write transaction on ``conn`` (hold ``lock``): ``BEGIN IMMEDIATE``, waiting up to
        ``BUSY_TIMEOUT_S`` for other writers.

        Asked again every ``BEGIN_POLL_S`` rather than left to SQLite's busy handler, which sleeps 100 ms between
        tries: a process writing one transaction after another (updates of 40 ms each, the batches of a refresh)
        leaves gaps of a few milliseconds, which those tries missed for 10 s, so the other process's update
        failed with ``database is locked`` (measured: two processes updating files in a loop).
        """
        conn = self.conn
        deadline = time.monotonic() + BUSY_TIMEOUT_S
        conn.execute("PRAGMA busy_timeout = 0")
        try:
            while True:
                try:
                    conn.execute("BEGIN IMMEDIATE")
                    return conn
                except sqlite3.OperationalError as exc:
                    if not _is_busy(exc) or time.monotonic() >= deadline:
                        raise
                time.sleep(BEGIN_POLL_S)
        finally:
            conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")

    @contextlib.contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """A write transaction (``begin``: waits its turn behind other writers, up to the timeout)."""
        with self.lock:
            conn = self.begin()
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    @contextlib.contextmanager
    def write_all(self) -> Iterator[tuple[sqlite3.Connection, EngineWriter]]:
        """A write transaction of SQLite and the engine together: the engine commits first, SQLite second (see
        ``engine`` for what a crash between the two leaves, and why it is harmless)."""
        with self.write() as conn:
            writer = self.engine.writer()
            try:
                yield conn, writer
                writer.commit()
            except BaseException:
                writer.rollback()  # also when the commit failed: the engine's writer lock goes with it
                raise

    def maintain(self, min_wal_bytes: int = 4 * 1024 * 1024) -> None:
        """Housekeeping after updates: checkpoint a grown WAL (the engine merges its segments itself, in the
        writer's threads). Call it off the path of the update itself."""
        self.checkpoint(min_wal_bytes)

    def checkpoint(self, min_wal_bytes: int = 0) -> bool:
        """Copy the WAL back into the database when it holds at least ``min_wal_bytes`` (never waits for readers:
        a passive checkpoint does what it can). Returns True when one ran."""
        if self.path is None:
            return False
        try:
            wal = os.path.getsize(str(self.path) + "-wal")
        except OSError:
            return False
        if wal < max(min_wal_bytes, 1):
            return False
        with self.lock, contextlib.suppress(sqlite3.OperationalError):
            self.conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
        return True

    def meta(self, key: str, default: str = "") -> str:
        with self.lock:
            row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else default

    def size_bytes(self) -> int:
        if self.path is None:
            with self.lock:
                pages = self.conn.execute("PRAGMA page_count").fetchone()[0]
                size = self.conn.execute("PRAGMA page_size").fetchone()[0]
            return int(pages * size)
        total = self.engine.size_bytes()
        for suffix in ("", "-wal"):
            with contextlib.suppress(OSError):
                total += os.path.getsize(str(self.path) + suffix)
        return total


def _create(conn: sqlite3.Connection) -> None:
    # Statement by statement: ``executescript`` would commit the caller's transaction first.
    for statement in _SCHEMA.split(";"):
        if statement.strip():
            conn.execute(statement)


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


def _inode(path: Path | str) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)
