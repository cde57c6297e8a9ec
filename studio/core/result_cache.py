"""A persistent cache of pack load results, shared by the CLI and the app, in the user cache folder.

Validating a pack with its content checks reads every byte of it; most runs find nothing changed. The cache keeps
each pack's result (the frozen ``Pack`` as loaded, before any workspace verdict) under a key naming the pack
(root, scope, what was asked for) and the studio (its version and the code of its core), next to the pack's
fingerprint (``pack_fingerprint``: every file's identity, ctime included). A later run walks the pack, and when
the fingerprint is equal it takes the stored result instead of loading: walking is the floor, loading is many
times that.

Beside the packs' results it keeps each scanned root's scan (``scan_cache``: the pack folders found and the
stamps of every folder listed), so that a warm run stats those folders instead of listing them.

Why SQLite (measured on the 10,000-pack corpus, see the note of issue #28): one file, atomic transactions and
concurrent readers with WAL, and 10,000 lookups by key in about 0.1 s; one file per pack needs as many opens and
an own scheme for pruning and for writers racing each other.

Nothing read back is trusted blindly: the file must carry the studio's application id and this format's version
(else it is deleted and rebuilt, with a notice), and a stored result is unpickled by an unpickler that builds
only the studio's own model classes and plain containers, never anything else a damaged or planted file names.
Two processes writing at once are serialised by SQLite (a busy store waits, then skips storing: a cache that
cannot be written costs the next run time, never a result).
"""

from __future__ import annotations

import contextlib
import io
import os
import pickle
import sqlite3
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio import __version__
from studio.core.blake2 import blake2b
from studio.core.cache_files import (
    NotOurs,
    default_cache_dir,
    is_damage,
    open_or_rebuild,
    prepare_database,
    remove_database,
)
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity

CACHE_FILE = "results.sqlite3"
FORMAT = 3
"""The row layout and the pickled classes' shape; a file of another format is rebuilt (3: the ``scans`` table)."""
APPLICATION_ID = 0x4B505352  # "KPSR"
MAX_BYTES = 512 * 1024 * 1024
"""Above this the oldest rows go (down to ``PRUNE_TO`` of it): 10,000 packs with content findings take ~60 MB."""
PRUNE_TO = 0.75
BUSY_TIMEOUT_S = 2.0
RACY_NS = 2_000_000_000
"""A result whose fingerprint holds a ctime this close to the load's start is not stored: file systems stamp
times with a coarse clock (a few ms on Linux, 2 s on FAT), so an edit in the same tick could look unchanged."""

CACHE_REBUILT = Code("cache-rebuilt", Severity.INFO,
                     "the result cache was damaged, foreign or of another format: it was deleted and starts afresh",
                     Behavior.LOAD, "", hint="Nothing to do; the next run is as slow as a first one.")
CACHE_UNAVAILABLE = Code("cache-unavailable", Severity.INFO,
                         "the result cache could not be used; this run worked without it", Behavior.LOAD, "",
                         hint="Check the cache folder's permissions, or pass --no-cache.")
CODES = (CACHE_REBUILT, CACHE_UNAVAILABLE)

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS results (key TEXT PRIMARY KEY, tree BLOB NOT NULL, extras TEXT NOT NULL, "
    "extras_print BLOB NOT NULL, payload BLOB NOT NULL, written INTEGER NOT NULL) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS scans (key TEXT PRIMARY KEY, payload BLOB NOT NULL, written INTEGER NOT NULL)",
)
_TABLES = ("results", "scans")


@dataclass(frozen=True, slots=True)
class CacheSpec:
    """Where the cache is and which studio reads it: small and picklable, handed to worker processes."""

    folder: Path
    salt: str
    racy_ns: int

    @property
    def path(self) -> Path:
        return self.folder / CACHE_FILE


@dataclass(frozen=True, slots=True)
class Fingerprint:
    """What a stored result depends on, as ``pack_fingerprint`` works it out: equal fingerprints mean an equal
    result."""

    tree: bytes
    """The digest of the pack's walk, or of its root listing (prefixed by which of the two it is)."""
    extras: tuple[str, ...]
    """Paths the load asked about that the walk does not cover."""
    extras_print: bytes
    """The digest of what those paths resolve to."""


@dataclass(frozen=True, slots=True)
class StoredResult:
    """A load result as the cache keeps it: valid while the pack still gives ``fingerprint``."""

    fingerprint: Fingerprint
    payload: bytes


@dataclass(frozen=True, slots=True)
class NewResult:
    """A result a worker computed, for the parent to store under ``key`` (workers never write)."""

    key: str
    result: StoredResult


@dataclass(frozen=True, slots=True)
class CacheInfo:
    path: Path
    exists: bool
    entries: int
    bytes: int
    max_bytes: int


@dataclass(slots=True)
class CacheStats:
    """What one run did with the cache (for ``--verbose`` lines, the bench and tests)."""

    hits: int = 0
    misses: int = 0
    stored: int = 0
    unstored: int = 0
    """Loaded but not storable: too recently changed to vouch for, a walk the fingerprint does not cover, a
    failed load."""
    notices: list[Diagnostic] = field(default_factory=list)


def spec_for(folder: Path | None = None, *, racy_ns: int | None = None) -> CacheSpec:
    """The cache in ``folder`` (default: the user cache folder) for this studio."""
    return CacheSpec(folder or default_cache_dir(), studio_salt(), RACY_NS if racy_ns is None else racy_ns)


_salt: str | None = None


def studio_salt() -> str:
    """Names this studio: its version, the cache format and the identity of every core module file.

    A released studio changes its version; a checkout being worked on changes its files without changing the
    version, and a result cached by yesterday's checks must not answer for today's.
    """
    global _salt
    if _salt is None:
        parts = [__version__, str(FORMAT)]
        _module_stamps(os.path.dirname(os.path.abspath(__file__)), "", parts)
        _salt = blake2b("\n".join(parts).encode(), digest_size=12).hexdigest()
    return _salt


def _module_stamps(folder: str, rel: str, parts: list[str]) -> None:
    """Each ``.py`` file under ``folder`` as 'path:size:mtime', in name order (a scandir per folder: every run pays
    for this, and a walk with a relative path per file cost twice as much)."""
    try:
        with os.scandir(folder) as it:
            entries = sorted(it, key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        with contextlib.suppress(OSError):
            if entry.name.endswith(".py"):
                st = entry.stat()
                parts.append(f"{rel}{entry.name}:{st.st_size}:{st.st_mtime_ns}")
            elif entry.name != "__pycache__" and entry.is_dir(follow_symlinks=False):
                _module_stamps(entry.path, f"{rel}{entry.name}/", parts)


def result_key(spec: CacheSpec, root: Path, scope: str, scope_root: Path | None, variant: str) -> str:
    key = f"{spec.salt}\x00{root}\x00{scope}\x00{scope_root or ''}\x00{variant}"
    if key.isascii():
        return key
    try:
        key.encode()
    except UnicodeEncodeError:
        # A folder name that is not UTF-8 reaches Python as lone surrogates, which SQLite's text cannot hold: the
        # key's bytes in hex instead (a key made this way starts with '~', which a salt never does).
        return "~" + key.encode("utf-8", "surrogatepass").hex()
    return key


# -- reading, in any process -------------------------------------------------------------------------------

_readers: dict[tuple[int, str], sqlite3.Connection | None] = {}


_KEYS_PER_QUERY = 500
"""Keys asked for in one query (SQLite allows 999 parameters at least): a query per pack cost 11 us a pack, one
per few hundred 5 us."""


def lookup_many(spec: CacheSpec, keys: list[str]) -> dict[str, StoredResult]:
    """The stored result of each of ``keys`` that has one (none for any trouble: no file, a busy or damaged store
    all mean 'load it')."""
    conn = _reader(spec)
    out: dict[str, StoredResult] = {}
    if conn is None:
        return out
    for start in range(0, len(keys), _KEYS_PER_QUERY):
        part = keys[start:start + _KEYS_PER_QUERY]
        query = ("SELECT key, tree, extras, extras_print, payload FROM results WHERE key IN "
                 f"({','.join('?' * len(part))})")
        try:
            rows = conn.execute(query, part).fetchall()
        except sqlite3.Error:
            return out
        for key, tree, extras, extras_print, payload in rows:
            printed = Fingerprint(bytes(tree), tuple(extras.split("\x00")) if extras else (), bytes(extras_print))
            out[key] = StoredResult(printed, bytes(payload))
    return out


def lookup_scan(spec: CacheSpec, key: str) -> bytes | None:
    """The stored scan for ``key`` (``scan_cache``), or None (as ``lookup``: any trouble means 'scan it')."""
    row = _row(spec, "SELECT payload FROM scans WHERE key = ?", key)
    return None if row is None else bytes(row[0])


def _row(spec: CacheSpec, query: str, key: str) -> tuple[Any, ...] | None:
    """The row ``query`` finds for ``key``, or None (no row, no file, a busy or damaged store)."""
    conn = _reader(spec)
    if conn is None:
        return None
    try:
        row: tuple[Any, ...] | None = conn.execute(query, (key,)).fetchone()
    except sqlite3.Error:
        return None
    return row


def _reader(spec: CacheSpec) -> sqlite3.Connection | None:
    # One read connection per process and file: a forked worker must not use its parent's connection.
    slot = (os.getpid(), str(spec.path))
    if slot not in _readers:
        conn: sqlite3.Connection | None = None
        if spec.path.is_file():
            try:
                conn = sqlite3.connect(f"file:{spec.path}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_S,
                                       check_same_thread=False)
                if conn.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID or \
                        conn.execute("PRAGMA user_version").fetchone()[0] != FORMAT:
                    conn.close()
                    conn = None
            except sqlite3.Error:
                conn = None
        _readers[slot] = conn
    return _readers[slot]


def forget_readers() -> None:
    """Close this process's read connections (after the parent rebuilt or cleared the file)."""
    for slot, conn in list(_readers.items()):
        if conn is not None:
            with contextlib.suppress(sqlite3.Error):
                conn.close()
        del _readers[slot]


def encode(value: Any) -> bytes:
    return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)


def decode(payload: bytes) -> Any:
    """Unpickle a stored result, building nothing but the studio's model classes and plain values."""
    return _Restricted(io.BytesIO(payload)).load()


_ALLOWED_MODULES = ("studio.core.",)
_ALLOWED_GLOBALS = {
    ("builtins", "frozenset"), ("builtins", "set"), ("builtins", "tuple"), ("builtins", "list"),
    ("builtins", "dict"), ("builtins", "str"), ("builtins", "int"), ("builtins", "float"), ("builtins", "bool"),
    ("builtins", "bytes"), ("builtins", "getattr"), ("pathlib", "PosixPath"), ("pathlib", "WindowsPath"),
    ("pathlib", "Path"), ("pathlib", "PurePosixPath"), ("copyreg", "_reconstructor"), ("builtins", "object"),
    ("datetime", "date"), ("datetime", "datetime"), ("datetime", "timezone"), ("datetime", "timedelta"),
}


_REBUILDERS = {("studio.core.model", "_frontmatter_from_pickle"), ("studio.core.model", "_knowledge_from_pickle")}
"""Functions the model's own ``__reduce__`` methods name: the only callables besides classes it may call."""


_allowed: dict[tuple[str, str], Any] = {}
"""Globals already allowed, by (module, name): a warm run decodes thousands of rows naming the same few."""


class _Restricted(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        known = _allowed.get((module, name))
        if known is not None:
            return known
        if (module, name) in _ALLOWED_GLOBALS or (module, name) in _REBUILDERS:
            found = super().find_class(module, name)
        elif module.startswith(_ALLOWED_MODULES) and not name.startswith("_"):
            found = super().find_class(module, name)
            if not isinstance(found, type):  # a class of the studio's model; never one of its functions
                raise pickle.UnpicklingError(f"the result cache names {module}.{name}, which it never stores")
        else:
            raise pickle.UnpicklingError(f"the result cache names {module}.{name}, which it never stores")
        _allowed[(module, name)] = found
        return found


# -- writing, in the process that owns the run ---------------------------------------------------------------

class ResultStore:
    """The writable cache file: created, checked, rebuilt when damaged, pruned when large."""

    def __init__(self, spec: CacheSpec, *, max_bytes: int = MAX_BYTES) -> None:
        self.spec = spec
        self.max_bytes = max_bytes
        self.notices: list[Diagnostic] = []

    def store(self, results: Iterable[NewResult]) -> int:
        """Write ``results`` in one transaction; how many were written (0 when the store is busy or unusable)."""
        rows = [(new.key, new.result.fingerprint.tree, "\x00".join(new.result.fingerprint.extras),
                 new.result.fingerprint.extras_print, new.result.payload, time.time_ns()) for new in results]
        return self._write("INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?)", rows)

    def store_scan(self, key: str, payload: bytes) -> bool:
        """Write one root's scan (``scan_cache``); False when the store is busy or unusable."""
        return self._write("INSERT OR REPLACE INTO scans VALUES (?, ?, ?)", [(key, payload, time.time_ns())]) == 1

    def _write(self, statement: str, rows: Sequence[tuple[object, ...]]) -> int:
        if not rows:
            return 0
        conn = self._open()
        if conn is None:
            return 0
        try:
            with conn:
                conn.executemany(statement, rows)
            self._prune(conn)
        except sqlite3.Error as exc:
            if is_damage(exc):
                self._rebuild(str(exc))
            return 0  # busy past the timeout: the next run stores them
        finally:
            conn.close()
        return len(rows)

    def info(self) -> CacheInfo:
        path = self.spec.path
        if not path.is_file():
            return CacheInfo(path, False, 0, 0, self.max_bytes)
        conn = self._open()
        entries = 0
        if conn is not None:
            try:
                entries = conn.execute("SELECT count(*) FROM results").fetchone()[0]
            except sqlite3.Error:
                entries = 0
            finally:
                conn.close()
        return CacheInfo(path, True, entries, _size(path), self.max_bytes)

    def clear(self) -> None:
        remove_database(self.spec.path)
        forget_readers()

    def _open(self) -> sqlite3.Connection | None:
        path = self.spec.path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            self.notices.append(CACHE_UNAVAILABLE(f"The result cache folder {path.parent} cannot be made "
                                                  f"({exc.strerror or exc}); this run did without it",
                                                  file=str(path.parent)))
            return None
        try:
            return open_or_rebuild(path, self._connect, self._rebuilding)
        except (NotOurs, sqlite3.Error) as exc:
            if not (isinstance(exc, NotOurs) or is_damage(exc)):
                return None  # busy or locked: not a reason to delete anyone's file
            self.notices.append(CACHE_UNAVAILABLE(f"The result cache {path} could not be used; this run did "
                                                  "without it", file=str(path)))
            return None

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(str(self.spec.path), timeout=BUSY_TIMEOUT_S)
        try:
            prepare_database(conn, application_id=APPLICATION_ID, version=FORMAT, create=_create, tables=_TABLES)
            conn.execute("PRAGMA synchronous = NORMAL")
        except BaseException:
            conn.close()
            raise
        return conn

    def _rebuilding(self, why: str) -> None:
        forget_readers()
        self.notices.append(CACHE_REBUILT(f"The result cache {self.spec.path} was not usable ({why}); it was "
                                          "deleted and starts afresh", file=str(self.spec.path)))

    def _rebuild(self, why: str) -> None:
        self._rebuilding(why[:200])
        remove_database(self.spec.path)

    def _prune(self, conn: sqlite3.Connection) -> None:
        """Keep the file under ``max_bytes``: drop the oldest rows, down to ``PRUNE_TO`` of the bound."""
        with contextlib.suppress(sqlite3.OperationalError):  # another writer holds it: the next run prunes
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size = _size(self.spec.path)
        if size <= self.max_bytes:
            return
        with conn:
            for table in _TABLES:  # the same share of each: the oldest packs' results and the oldest roots' scans
                total = conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
                keep = int(total * PRUNE_TO * self.max_bytes / size)
                conn.execute(f"DELETE FROM {table} WHERE key IN (SELECT key FROM {table} ORDER BY written LIMIT ?)",
                             (total - keep,))
        with contextlib.suppress(sqlite3.OperationalError):
            conn.execute("VACUUM")
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def _create(conn: sqlite3.Connection) -> None:
    for statement in _SCHEMA:
        conn.execute(statement)


def _size(path: Path) -> int:
    total = 0
    for suffix in ("", "-wal"):
        with contextlib.suppress(OSError):
            total += os.path.getsize(str(path) + suffix)
    return total
