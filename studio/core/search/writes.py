"""Writing what changed into the search database, and the lookups the comparison needs."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Collection, Mapping
from typing import Any

from studio.core.search.changes import Known, PackWork, RefreshReport
from studio.core.search.engine import EngineWriter
from studio.core.search.folders import FolderStat, trusted_roots
from studio.core.search.store import Store


class Writer:
    """Stores ``PackWork`` as it comes, in transactions of up to ``limit`` characters of text.

    Each pack is written as soon as it arrives, so that the engine's work (tokenising and indexing in its own
    threads, without the interpreter lock) overlaps with the preparing of the next packs; a transaction is
    committed once ``limit`` characters went in (and at ``commit``). The store's lock is held from the first write
    of a transaction to its commit. ``fresh``: the index was empty when the refresh began (the engine writer then
    gets more memory and threads, and no file needs its old rows deleted).
    """

    def __init__(self, store: Store, report: RefreshReport, limit: int, *, fresh: bool = False) -> None:
        self.store = store
        self.report = report
        self.limit = limit
        self.fresh = fresh
        self._conn: sqlite3.Connection | None = None
        self._engine: EngineWriter | None = None
        self._size = 0
        self._next_id = 0
        self._next_file = 0

    def add(self, work: PackWork) -> None:
        conn = self._conn if self._conn is not None else self._begin()
        try:
            self._write(conn, work)
        except BaseException:
            self.abort()
            raise
        self._size += work.text_bytes
        if self._size >= self.limit:
            self.commit()
            self.store.checkpoint()  # between transactions, so the WAL does not grow past one of them

    def commit(self) -> None:
        """Commit what was written (nothing to do when no transaction is open)."""
        conn = self._conn
        if conn is None:
            return
        try:
            assert self._engine is not None
            self._engine.commit()  # first: see ``engine`` for what a crash before SQLite's commit leaves
            conn.execute("COMMIT")
        except BaseException:
            self.abort()
            raise
        self._end()

    def abort(self) -> None:
        if self._conn is not None:
            if self._engine is not None:
                self._engine.rollback()
            with contextlib.suppress(sqlite3.Error):
                self._conn.execute("ROLLBACK")
            self._end()

    def _begin(self) -> sqlite3.Connection:
        self.store.lock.acquire()
        try:
            conn = self.store.begin()
        except BaseException:
            self.store.lock.release()
            raise
        try:
            self._engine = self.store.engine.writer(fresh=self.fresh)
        except BaseException:
            conn.execute("ROLLBACK")
            self.store.lock.release()
            raise
        self._conn = conn
        self._size = 0
        try:
            row = conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'sections'").fetchone()
            self._next_id = int(row[0] if row else 0) + 1
            self._next_file = int(conn.execute("SELECT coalesce(max(id), 0) FROM files").fetchone()[0]) + 1
        except BaseException:
            self.abort()  # the store's lock must not stay held by this thread (every later search would wait)
            raise
        return conn

    def _end(self) -> None:
        self._conn = None
        self._engine = None
        self.store.lock.release()

    def _write(self, conn: sqlite3.Connection, work: PackWork) -> None:
        """Store one pack's changes, reconciled with what the index holds now, inside this transaction: another
        process may have indexed the same files since ``work`` was prepared (two searches building one empty
        index at once), so a file ``work`` thinks new may be there already, and one it thinks there may be gone.
        Deciding here, under the write lock, gives the index one process alone would have made."""
        report = self.report
        engine = self._engine
        assert engine is not None
        pack_id, created = pack_row(conn, work)
        if work.folders is not None:
            write_folders(conn, pack_id, created, work)
        if not (work.files or work.removed or work.touched):
            return
        held: dict[str, tuple[int, bytes]] = {} if created else {
            path: (file_id, bytes(digest)) for path, file_id, digest in
            conn.execute("SELECT path, id, digest FROM files WHERE pack_id = ?", (pack_id,))}
        for path in work.removed:
            old = held.pop(path, None)
            if old is not None:
                drop_file(conn, engine, old[0])
                report.removed += 1
        touched = [(mtime, held[path][0]) for path, mtime in work.touched if path in held]
        if touched:
            conn.executemany("UPDATE files SET mtime_ns = ? WHERE id = ?", touched)
        if not work.files:
            return
        sections: list[tuple[Any, ...]] = []
        new_files: list[tuple[Any, ...]] = []
        next_id = self._next_id
        for read in work.files:
            st = read.stamp
            old = held.get(st.path)
            if old is None:
                file_id = self._next_file
                self._next_file += 1
                new_files.append((file_id, pack_id, st.path, st.layer, st.size, st.mtime_ns, read.digest, read.title))
                if not self.fresh:  # rows a crash left under this id (see ``engine``) go before new ones come
                    engine.delete_file(file_id)
            elif old[1] == read.digest:  # indexed meanwhile by another process, as it is now
                conn.execute("UPDATE files SET size = ?, mtime_ns = ? WHERE id = ?", (st.size, st.mtime_ns, old[0]))
                report.unchanged += 1
                continue
            else:
                file_id = old[0]
                conn.execute("DELETE FROM sections WHERE file_id = ?", (file_id,))
                engine.delete_file(file_id)
                conn.execute("UPDATE files SET size = ?, mtime_ns = ?, digest = ?, title = ? WHERE id = ?",
                             (st.size, st.mtime_ns, read.digest, read.title, file_id))
            path_text = read.path_text
            for kind, heading, start, end, heading_text, body in read.rows:
                sections.append((next_id, file_id, pack_id, kind, heading, start, end))
                engine.add(next_id, file_id, pack_id, kind, st.path, heading_text, path_text, body)
                next_id += 1
            report.indexed += 1
        self._next_id = next_id
        conn.executemany("INSERT INTO files(id, pack_id, path, layer, size, mtime_ns, digest, title) "
                         "VALUES (?,?,?,?,?,?,?,?)", new_files)
        conn.executemany("INSERT INTO sections(id, file_id, pack_id, kind, heading, start_line, end_line) "
                         "VALUES (?,?,?,?,?,?,?)", sections)


def write(store: Store, works: list[PackWork], report: RefreshReport) -> None:
    """Store ``works`` in one transaction."""
    writer = Writer(store, report, limit=1 << 62)
    try:
        for work in works:
            writer.add(work)
        writer.commit()
    finally:
        writer.abort()  # nothing when committed; otherwise the transaction, the engine writer and the lock go


def pack_row(conn: sqlite3.Connection, work: PackWork) -> tuple[int, bool]:
    """The pack's row id, and whether the row was made just now (then it has no files yet)."""
    row = conn.execute("SELECT id, name FROM packs WHERE root = ?", (work.root,)).fetchone()
    if row is None:
        name = work.name or os.path.basename(work.root)
        cursor = conn.execute("INSERT INTO packs(root, name) VALUES (?, ?)", (work.root, name))
        return int(cursor.lastrowid or 0), True
    if work.name is not None and work.name != row[1]:
        conn.execute("UPDATE packs SET name = ? WHERE id = ?", (work.name, row[0]))
    return int(row[0]), False


def write_folders(conn: sqlite3.Connection, pack_id: int, created: bool, work: PackWork) -> None:
    """The pack's folder stamps as its walk saw them (the table may be missing in an index another, older studio
    shares: then the quick check finds no stamps and walks the pack, which is only slower)."""
    with contextlib.suppress(sqlite3.OperationalError):
        if not created:
            conn.execute("DELETE FROM folders WHERE pack_id = ?", (pack_id,))
        conn.executemany("INSERT OR REPLACE INTO folders(pack_id, path, mtime_ns, ctime_ns) VALUES (?,?,?,?)",
                         [(pack_id, *stamp) for stamp in work.folders or ()])


def trusted_packs(store: Store, root_stats: Mapping[str, FolderStat | None]) -> set[str]:
    """The packs of ``root_stats`` whose folders all have the times of their last walk (``folders``).

    The stamps are read in the table's key order and compared as rows, without a list per pack (building those
    cost more than the comparing: 40 ms of a warm search at 10,000 packs). The stats run after the store's lock is
    let go: another thread's search need not wait for 36,000 of them."""
    with store.lock:
        try:
            roots = dict(store.conn.execute("SELECT id, root FROM packs").fetchall())
            rows = store.conn.execute("SELECT pack_id, path, mtime_ns, ctime_ns FROM folders "
                                      "ORDER BY pack_id, path").fetchall()
        except sqlite3.OperationalError:  # no such table (an older studio shares the index): every pack is walked
            return set()
    return trusted_roots(rows, roots, root_stats)


def drop_file(conn: sqlite3.Connection, engine: EngineWriter, file_id: int) -> None:
    conn.execute("DELETE FROM sections WHERE file_id = ?", (file_id,))
    conn.execute("DELETE FROM files WHERE id = ?", (file_id,))
    engine.delete_file(file_id)


def known_files(store: Store, roots: list[str]) -> dict[str, dict[str, Known]]:
    out: dict[str, dict[str, Known]] = {r: {} for r in roots}
    with store.lock:
        rows = store.conn.execute("SELECT p.root, f.path, f.id, f.size, f.mtime_ns, f.digest FROM files f "
                                  "JOIN packs p ON p.id = f.pack_id WHERE p.root IN (SELECT value FROM json_each(?))",
                                  (json.dumps(roots),)).fetchall()
    for root, path, file_id, size, mtime, digest in rows:
        if root in out:
            out[root][path] = Known(file_id, size, mtime, digest)
    return out


def drop_vanished(store: Store, report: RefreshReport, folders: Collection[str] = ()) -> None:
    """Drop the packs of the index whose folder is gone; ``folders``: roots the caller just found to be folders."""
    with store.lock:
        packs = store.conn.execute("SELECT id, root FROM packs").fetchall()
    gone = [pack_id for pack_id, root in packs if root not in folders and not os.path.isdir(root)]
    if not gone:
        return
    with store.write_all() as (conn, engine):
        for pack_id in gone:
            conn.execute("DELETE FROM sections WHERE pack_id = ?", (pack_id,))
            report.removed += conn.execute("DELETE FROM files WHERE pack_id = ?", (pack_id,)).rowcount
            conn.execute("DELETE FROM packs WHERE id = ?", (pack_id,))
            conn.execute("DELETE FROM folders WHERE pack_id = ?", (pack_id,))
            engine.delete_pack(pack_id)


