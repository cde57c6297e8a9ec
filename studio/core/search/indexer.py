"""Bring the search index up to date: the whole workspace (``refresh``) or a few changed paths (``update_paths``).

A file is re-read only when its size or modification time changed, and re-indexed only when its BLAKE2b digest
changed too (a touched but identical file just gets its new time). Files gone from disk, and packs whose folder
is gone, leave the index. Reading and cutting files (Python) runs in a second thread while this one writes
(SQLite, which lets go of the interpreter lock), so the two overlap on a machine with two cores. Writes go in
transactions of at most ``BATCH_BYTES`` of text, so another studio sharing the file never waits long.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.core.search.files import FileStamp, ReadFile, decode_file, digest_of, list_pack_files, read_data, stamp_file
from studio.core.search.store import Store
from studio.core.search.textprep import index_text

BATCH_BYTES = 32 * 1024 * 1024
"""Text per write transaction: large enough that FTS5 writes few segments, small enough to hold the lock ~1 s."""
OPTIMIZE_BYTES = 16 * 1024 * 1024
"""A refresh that read this much ends by merging the index into one segment (fast queries, cheap updates)."""
COMPACT_MIN_DEAD = 20_000
"""Rows left behind by changed files; past this and past the number of live rows, the index is rebuilt."""

Progress = Callable[[int, int], None]


@dataclass(slots=True)
class RefreshReport:
    """What one refresh or update did."""

    packs: int = 0
    files: int = 0
    """Indexable files seen."""
    indexed: int = 0
    """Files read and (re)indexed."""
    unchanged: int = 0
    removed: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    """Files (and folders) left out, by reason: ``binary``, ``too-large``, ``undecodable``, ``symlink-escape`` ..."""
    bytes_read: int = 0
    seconds: float = 0.0
    cancelled: bool = False
    compacted: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"packs": self.packs, "files": self.files, "indexed": self.indexed, "unchanged": self.unchanged,
                "removed": self.removed, "skipped": dict(sorted(self.skipped.items())),
                "bytes_read": self.bytes_read, "seconds": round(self.seconds, 3), "cancelled": self.cancelled}


@dataclass(slots=True)
class _Known:
    file_id: int
    size: int
    mtime_ns: int
    digest: bytes


@dataclass(slots=True)
class _PackWork:
    """One pack's changes, prepared off the writing thread."""

    root: str
    name: str | None
    files: list[tuple[ReadFile, int | None]] = field(default_factory=list)
    """Files to (re)index, with the id of the row they replace."""
    touched: list[tuple[int, int]] = field(default_factory=list)
    """(file id, new mtime) of files whose content did not change."""
    removed: list[int] = field(default_factory=list)
    seen: int = 0

    @property
    def text_bytes(self) -> int:
        return sum(len(f.text) for f, _ in self.files)


def refresh(store: Store, roots: Iterable[Path | str], *, on_progress: Progress | None = None,
            cancelled: Callable[[], bool] | None = None, threaded: bool = True) -> RefreshReport:
    """Index every indexable file of the packs at ``roots``; other packs already in the index stay.

    Raises ``IndexLocationError`` when the database would lie inside one of the packs. Packs in the index whose
    folder no longer exists are dropped. ``cancelled`` is checked between packs; what was written stays.
    """
    started = time.perf_counter()
    wanted = list(dict.fromkeys(os.path.abspath(r) for r in roots))
    store.check_outside([Path(r) for r in wanted])
    store.reopen_if_replaced()
    report = RefreshReport(packs=len(wanted))
    if _should_compact(store):
        _clear(store)
        report.compacted = True
    _drop_vanished(store, report)
    known = _known_files(store, wanted)
    stop = cancelled or (lambda: False)
    works = _produce_threaded(wanted, known, report, stop) if threaded else _produce(wanted, known, report, stop)
    done = 0
    total = 0
    batch: list[_PackWork] = []
    size = 0
    for item in works:
        if isinstance(item, int):
            total = item
            if on_progress is not None:
                on_progress(0, total)
            continue
        batch.append(item)
        size += item.text_bytes
        done += item.seen
        if size >= BATCH_BYTES:
            _write(store, batch, report)
            store.checkpoint()
            batch, size = [], 0
        if on_progress is not None:
            on_progress(done, total)
        if stop():
            report.cancelled = True
            break
    _write(store, batch, report)
    with store.write() as conn:
        conn.execute("UPDATE meta SET value = ? WHERE key = 'updated'", (str(time.time()),))
    if report.bytes_read >= OPTIMIZE_BYTES:
        store.optimize()
    else:
        store.maintain()
    report.seconds = time.perf_counter() - started
    return report


def update_paths(store: Store, paths: Iterable[Path | str]) -> RefreshReport:
    """Re-index what changed at ``paths`` (files, folders or pack roots) of packs already in the index.

    Cheap for one file: a stat, and a read only when it changed. A folder or a pack root re-checks that
    whole pack. Paths outside every indexed pack are ignored (counted as ``not-in-the-index``). No checkpoint
    runs here, nor any merge (see ``Store.maintain``): call ``SearchIndex.maintain`` afterwards, off the path.
    """
    started = time.perf_counter()
    store.reopen_if_replaced()
    report = RefreshReport()
    with store.lock:
        roots = {r: i for i, r in store.conn.execute("SELECT id, root FROM packs")}
    whole: set[str] = set()
    single: dict[str, set[str]] = {}
    for raw in paths:
        path = os.path.abspath(raw)
        root = _owning_root(path, roots)
        if root is None:
            report.skipped["not-in-the-index"] += 1
        elif path == root or os.path.isdir(path):
            whole.add(root)
        else:
            single.setdefault(root, set()).add(os.path.relpath(path, root).replace(os.sep, "/"))
    report.packs = len(whole | set(single))
    works: list[_PackWork] = []
    if whole:
        by_root = _known_files(store, sorted(whole))
        works.extend(w for w in _produce(sorted(whole), by_root, report, lambda: False) if not isinstance(w, int))
    for root, rels in single.items():
        if root in whole:
            continue
        known = _known_files(store, [root]).get(root, {})
        work = _PackWork(root, None)
        for rel in sorted(rels):
            _check_one(root, rel, known, work, report)
        works.append(work)
    _write(store, works, report)
    report.seconds = time.perf_counter() - started
    return report


# -- preparing (no writes) ---------------------------------------------------------------------------------
def _produce(roots: list[str], known: dict[str, dict[str, _Known]], report: RefreshReport,
             stop: Callable[[], bool]) -> Iterator[_PackWork | int]:
    listings = []
    for root in roots:
        listing = list_pack_files(root)
        report.skipped.update(listing.skipped)
        listings.append((root, listing.files))
    yield sum(len(files) for _, files in listings)
    for root, files in listings:
        if stop():
            return
        yield _pack_work(root, files, known.get(root, {}), report)


def _produce_threaded(roots: list[str], known: dict[str, dict[str, _Known]], report: RefreshReport,
                      stop: Callable[[], bool]) -> Iterator[_PackWork | int]:
    """``_produce`` in a second thread, a few packs ahead of the writer."""
    out: queue.Queue[_PackWork | int | BaseException | None] = queue.Queue(maxsize=16)
    halt = threading.Event()

    def run() -> None:
        try:
            for item in _produce(roots, known, report, lambda: halt.is_set() or stop()):
                out.put(item)
                if halt.is_set():
                    break
        except BaseException as exc:  # handed to the writer's thread, which raises it
            out.put(exc)
            return
        out.put(None)

    thread = threading.Thread(target=run, name="search-index-reader", daemon=True)
    thread.start()
    try:
        while True:
            item = out.get()
            if item is None:
                return
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:
        halt.set()
        while thread.is_alive():  # unblock a reader waiting on a full queue
            with contextlib.suppress(queue.Empty):
                out.get(timeout=0.05)
        thread.join()


def _pack_work(root: str, files: list[FileStamp], known: dict[str, _Known], report: RefreshReport) -> _PackWork:
    work = _PackWork(root, None, seen=len(files))
    left = dict(known)
    for stamp in files:
        report.files += 1
        old = left.pop(stamp.path, None)
        if old is not None and old.size == stamp.size and old.mtime_ns == stamp.mtime_ns:
            report.unchanged += 1
            continue
        _read_into(root, stamp, old, work, report)
    work.removed.extend(k.file_id for k in left.values())
    return work


def _check_one(root: str, rel: str, known: dict[str, _Known], work: _PackWork, report: RefreshReport) -> None:
    old = known.get(rel)
    stamp = stamp_file(root, rel)
    if isinstance(stamp, str):
        if stamp != "missing":
            report.skipped[stamp] += 1
        if old is not None:
            work.removed.append(old.file_id)
        return
    report.files += 1
    if old is not None and old.size == stamp.size and old.mtime_ns == stamp.mtime_ns:
        report.unchanged += 1
        return
    _read_into(root, stamp, old, work, report)


def _read_into(root: str, stamp: FileStamp, old: _Known | None, work: _PackWork, report: RefreshReport) -> None:
    data = read_data(root, stamp)
    if isinstance(data, str):
        report.skipped[data] += 1
        if old is not None:
            work.removed.append(old.file_id)
        return
    report.bytes_read += len(data)
    digest = digest_of(data)
    if old is not None and old.digest == digest:
        work.touched.append((old.file_id, stamp.mtime_ns))
        report.unchanged += 1
        return
    read = decode_file(stamp, data, digest)
    if isinstance(read, str):
        report.skipped[read] += 1
        if old is not None:
            work.removed.append(old.file_id)
        return
    if stamp.layer == "guide":
        work.name = read.pack_name or os.path.basename(root)
    work.files.append((read, old.file_id if old is not None else None))


# -- writing ---------------------------------------------------------------------------------------------
def _write(store: Store, works: list[_PackWork], report: RefreshReport) -> None:
    if not works:
        return
    with store.write() as conn:
        next_id = (conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'sections'").fetchone() or (0,))[0] + 1
        dead = 0
        for work in works:
            pack_id = _pack_id(conn, work)
            for file_id in work.removed:
                dead += _drop_file(conn, file_id)
                report.removed += 1
            conn.executemany("UPDATE files SET mtime_ns = ? WHERE id = ?", [(m, i) for i, m in work.touched])
            sections: list[tuple[Any, ...]] = []
            fts: list[tuple[int, str, str, str]] = []
            for read, old_id in work.files:
                st = read.stamp
                if old_id is None:
                    cur = conn.execute(
                        "INSERT INTO files(pack_id, path, layer, size, mtime_ns, digest, title) VALUES (?,?,?,?,?,?,?)",
                        (pack_id, st.path, st.layer, st.size, st.mtime_ns, read.digest, read.title))
                    file_id = int(cur.lastrowid or 0)
                else:
                    file_id = old_id
                    dead += conn.execute("DELETE FROM sections WHERE file_id = ?", (file_id,)).rowcount
                    conn.execute("UPDATE files SET size = ?, mtime_ns = ?, digest = ?, title = ? WHERE id = ?",
                                 (st.size, st.mtime_ns, read.digest, read.title, file_id))
                path_text = index_text(st.path)
                for row in read.rows:
                    sections.append((next_id, file_id, pack_id, row.kind, row.heading, row.start_line, row.end_line))
                    fts.append((next_id, index_text(row.headings), path_text, index_text(row.text)))
                    next_id += 1
                report.indexed += 1
            conn.executemany("INSERT INTO sections(id, file_id, pack_id, kind, heading, start_line, end_line) "
                             "VALUES (?,?,?,?,?,?,?)", sections)
            conn.executemany("INSERT INTO fts(rowid, heading, path, body) VALUES (?,?,?,?)", fts)
        if dead:
            conn.execute("UPDATE meta SET value = CAST(value AS INTEGER) + ? WHERE key = 'dead'", (dead,))


def _pack_id(conn: sqlite3.Connection, work: _PackWork) -> int:
    row = conn.execute("SELECT id, name FROM packs WHERE root = ?", (work.root,)).fetchone()
    if row is None:
        name = work.name or os.path.basename(work.root)
        return int(conn.execute("INSERT INTO packs(root, name) VALUES (?, ?)", (work.root, name)).lastrowid or 0)
    if work.name is not None and work.name != row[1]:
        conn.execute("UPDATE packs SET name = ? WHERE id = ?", (work.name, row[0]))
    return int(row[0])


def _drop_file(conn: sqlite3.Connection, file_id: int) -> int:
    dead = conn.execute("DELETE FROM sections WHERE file_id = ?", (file_id,)).rowcount
    conn.execute("DELETE FROM files WHERE id = ?", (file_id,))
    return int(dead)


def _known_files(store: Store, roots: list[str]) -> dict[str, dict[str, _Known]]:
    out: dict[str, dict[str, _Known]] = {r: {} for r in roots}
    with store.lock:
        rows = store.conn.execute("SELECT p.root, f.path, f.id, f.size, f.mtime_ns, f.digest FROM files f "
                                  "JOIN packs p ON p.id = f.pack_id WHERE p.root IN (SELECT value FROM json_each(?))",
                                  (json.dumps(roots),)).fetchall()
    for root, path, file_id, size, mtime, digest in rows:
        if root in out:
            out[root][path] = _Known(file_id, size, mtime, digest)
    return out


def _drop_vanished(store: Store, report: RefreshReport) -> None:
    with store.lock:
        packs = store.conn.execute("SELECT id, root FROM packs").fetchall()
    gone = [pack_id for pack_id, root in packs if not os.path.isdir(root)]
    if not gone:
        return
    with store.write() as conn:
        dead = 0
        for pack_id in gone:
            dead += conn.execute("DELETE FROM sections WHERE pack_id = ?", (pack_id,)).rowcount
            report.removed += conn.execute("DELETE FROM files WHERE pack_id = ?", (pack_id,)).rowcount
            conn.execute("DELETE FROM packs WHERE id = ?", (pack_id,))
        conn.execute("UPDATE meta SET value = CAST(value AS INTEGER) + ? WHERE key = 'dead'", (dead,))


def _should_compact(store: Store) -> bool:
    dead = int(store.meta("dead", "0") or 0)
    if dead < COMPACT_MIN_DEAD:
        return False
    with store.lock:
        live = store.conn.execute("SELECT count(*) FROM sections").fetchone()[0]
    return bool(dead > live)


def _clear(store: Store) -> None:
    """Empty the index (rows left behind included); the refresh that follows fills it again."""
    with store.write() as conn:
        conn.execute("DELETE FROM sections")
        conn.execute("DELETE FROM files")
        conn.execute("DELETE FROM packs")
        conn.execute("INSERT INTO fts(fts) VALUES ('delete-all')")
        conn.execute("UPDATE meta SET value = '0' WHERE key = 'dead'")


def _owning_root(path: str, roots: dict[str, int]) -> str | None:
    probe = path
    while True:
        if probe in roots:
            return probe
        parent = os.path.dirname(probe)
        if parent == probe:
            return None
        probe = parent
