"""Bring the search index up to date: the whole workspace (``refresh``) or a few changed paths (``update_paths``).

A file is re-read only when its size or modification time changed, and re-indexed only when its BLAKE2b digest
changed too (a touched but identical file just gets its new time). Files gone from disk, and packs whose folder
is gone, leave the index. Reading and cutting files (Python) runs in a second thread while this one writes
(SQLite, which lets go of the interpreter lock), so the two overlap on a machine with two cores (``changes``
works out and reads what changed, ``writes`` stores it). Writes go in
transactions of at most ``BATCH_BYTES`` of text, so another studio sharing the file never waits long.

A build from an empty index (the first one, or after a compaction) is the large case: the engine's writer gets
two threads and more memory (``engine.FRESH_HEAP_BYTES``), and the text goes in transactions of up to
``FRESH_BATCH_BYTES``. Packs are read and cut in one thread while this one hands their text to the engine, whose
threads tokenise and index without the interpreter lock. Preparing packs in a worker process instead (what the
FTS5 index did, whose inserts held the lock) was slower once the engine's work left this process's threads:
5.3 s against 4.2 s at 1,000 packs, 11.1 s against 7.3 s at 10,000 (text passes through a pipe).
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from studio.core.pack_fs import PackFS, is_text_name
from studio.core.scan import Stamp
from studio.core.search.changes import PackWork, RefreshReport, check_one, produce, produce_threaded
from studio.core.search.folders import FolderStat, SeenFolder
from studio.core.search.store import Store
from studio.core.search.writes import Writer, drop_vanished, known_files, trusted_packs, write

BATCH_BYTES = 32 * 1024 * 1024
"""Text per write transaction: large enough that the engine writes few segments, small enough to hold the lock
about a second."""
FRESH_BATCH_BYTES = 512 * 1024 * 1024
"""Text per write transaction of a build from an empty index (nobody else's rows can be waiting on it)."""
COMPACT_MIN_STRAYS = 20_000
"""Engine rows SQLite does not know (left by a crash between the two commits, see ``engine``); past this and past
the number of sections, the index is emptied and built again."""

Progress = Callable[[int, int], None]


def refresh(store: Store, roots: Iterable[Path | str], *, on_progress: Progress | None = None,
            cancelled: Callable[[], bool] | None = None, threaded: bool = True,
            quick: bool = True, seen: Mapping[str, Stamp] | None = None) -> RefreshReport:
    """Index every indexable file of the packs at ``roots``; other packs already in the index stay.

    Raises ``IndexLocationError`` when the database would lie inside one of the packs. Packs in the index whose
    folder no longer exists are dropped. ``cancelled`` is checked between packs; what was written stays.
    ``threaded``: read and cut packs in a second thread, a few packs ahead of the writer (the engine indexes in
    threads of its own without the interpreter lock, so the three overlap).
    ``quick``: trust packs whose folders all have the times of their last walk (``folders``: a file created,
    deleted, renamed or saved atomically changes them; one rewritten in place does not); False walks every pack
    and stats every file. ``seen``: pack folders as the caller's scan of this run stat'ed them (device, inode,
    mtime, ctime), by absolute path, so that they are not stat'ed again.
    """
    started = time.perf_counter()
    # A root the scan of this run stamped is already absolute and normal (10,000 ``abspath`` calls: 10 ms).
    every = [r if seen is not None and isinstance(r, str) and r in seen else os.path.abspath(r) for r in roots]
    wanted = list(dict.fromkeys(r for r in every if is_text_name(r)))  # the index stores text (see ``files._stamp``)
    # One stat per pack root serves three checks: the index is not inside it, it still exists, its folder times.
    root_stats: dict[str, FolderStat | None] = {
        root: SeenFolder(*seen[root]) if seen is not None and root in seen else _stat(root) for root in wanted}
    store.check_outside(wanted, stats=root_stats)  # the strings as they are: a Path per pack costs 40 ms at 10,000
    store.reopen_if_replaced()
    report = RefreshReport(packs=len(wanted))
    if len(set(every)) > len(wanted):
        report.skipped["undecodable-name"] += len(set(every)) - len(wanted)
    drop_vanished(store, report, {r for r, st in root_stats.items() if st is not None and stat.S_ISDIR(st.st_mode)})
    fresh = _is_empty(store)
    # Emptied in the engine but maybe not in SQLite (see ``clear``): empty both again, unless the clear that set
    # the mark has finished meanwhile (it deletes the mark), or another process's build would be lost.
    if store.meta(CLEARING) and clear(store, lambda: bool(store.meta(CLEARING))):
        report.compacted = True
        fresh = True
    if quick and not fresh:
        trusted = trusted_packs(store, root_stats)
        report.trusted = len(trusted)
        if len(trusted) == len(wanted):
            report.seconds = time.perf_counter() - started
            return report
        wanted = [root for root in wanted if root not in trusted]
    # Checked only when something is to be written (counting the sections costs 16 ms at 10,000 packs): stray
    # engine rows are harmless to a search (``query`` skips them), and a build from nothing must not keep any.
    if _should_compact(store) and clear(store, lambda: _should_compact(store)):
        report.compacted = True
        report.trusted = 0
        wanted = list(root_stats)
        fresh = True
    known = known_files(store, wanted)
    stop = cancelled or (lambda: False)
    works = (produce_threaded if threaded else produce)(wanted, known, report, stop)
    done = 0
    total = 0
    writer = Writer(store, report, FRESH_BATCH_BYTES if fresh else BATCH_BYTES, fresh=fresh)
    try:
        for item in works:
            if isinstance(item, int):
                total = item
                if on_progress is not None:
                    on_progress(0, total)
                continue
            writer.add(item)
            done += item.seen
            if on_progress is not None:
                on_progress(done, total)
            if stop():
                report.cancelled = True
                break
        writer.commit()
    finally:
        writer.abort()  # an error or an interruption: nothing half-written stays in an open transaction
        works.close()  # stops the reading thread
    with store.write() as conn:
        conn.execute("UPDATE meta SET value = ? WHERE key = 'updated'", (str(time.time()),))
    if fresh:
        store.checkpoint()
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
    whole: set[str] = set()
    single: dict[str, set[str]] = {}
    for raw in paths:
        path = os.path.abspath(raw)
        if not is_text_name(path):  # never in the index (see ``files._stamp``)
            report.skipped["undecodable-name"] += 1
            continue
        root = _owning_root(store, path)
        if root is None:
            report.skipped["not-in-the-index"] += 1
        elif path == root:
            whole.add(root)
        else:
            single.setdefault(root, set()).add(os.path.relpath(path, root).replace(os.sep, "/"))
    works: list[PackWork] = []
    for root, rels in single.items():
        if root in whole:
            continue
        with PackFS(root) as fs:  # one per pack: every stat and read below goes through it
            if any(_is_folder(fs, rel) for rel in rels):
                whole.add(root)
                continue
            known = known_files(store, [root]).get(root, {})
            work = PackWork(root, None)
            for rel in sorted(rels):
                check_one(fs, rel, known, work, report)
            works.append(work)
    report.packs = len(whole | set(single))
    if whole:
        by_root = known_files(store, sorted(whole))
        works.extend(w for w in produce(sorted(whole), by_root, report, lambda: False) if not isinstance(w, int))
    write(store, works, report)
    report.seconds = time.perf_counter() - started
    return report


def _stat(path: str) -> os.stat_result | None:
    try:
        return os.stat(path)
    except (OSError, ValueError):
        return None


def _is_folder(fs: PackFS, rel: str) -> bool:
    """A physical folder of the pack (a symlinked one is not entered: ``check_one`` counts it as skipped)."""
    st = fs.lstat(rel)
    return st is not None and stat.S_ISDIR(st.st_mode)


def _is_empty(store: Store) -> bool:
    with store.lock:
        return store.conn.execute("SELECT 1 FROM files LIMIT 1").fetchone() is None


def _should_compact(store: Store) -> bool:
    """True when the engine holds rows SQLite does not know: many of them, or any while SQLite holds none (a
    build from nothing must start from an empty engine)."""
    rows = store.engine.num_docs()
    if rows == 0:
        return False
    with store.lock:
        sections = int(store.conn.execute("SELECT count(*) FROM sections").fetchone()[0])
    strays = rows - sections
    return strays > 0 and (sections == 0 or (strays >= COMPACT_MIN_STRAYS and strays > sections))


CLEARING = "clearing"
"""Key of ``meta`` set while ``clear`` runs: the engine commits first, so a crash before SQLite's commit leaves
SQLite holding every file as indexed over an empty engine, which no stamp comparison would ever notice."""


def clear(store: Store, needed: Callable[[], bool] = lambda: True) -> bool:
    """Empty the index (stray engine rows included) when ``needed()``, asked under the write lock; the refresh
    that follows fills it again. Returns whether it did. Marked in SQLite first, in a transaction of its own, so
    that a refresh finishes an interrupted one (``CLEARING``).

    ``needed`` is asked again inside each transaction because what it saw before may have been another process
    between its engine commit and its SQLite commit (engine rows SQLite did not show yet, which look like
    strays): clearing then emptied the index that process had just built, and its search found nothing
    (seen with four processes building one empty index at once)."""
    with store.write() as conn:
        if not needed():
            return False
        conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, '1')", (CLEARING,))
    with store.write_all() as (conn, engine):
        go = needed()
        conn.execute("DELETE FROM meta WHERE key = ?", (CLEARING,))
        if not go:
            return False
        conn.execute("DELETE FROM sections")
        conn.execute("DELETE FROM files")
        conn.execute("DELETE FROM packs")
        conn.execute("DELETE FROM folders")
        engine.delete_all()
    return True


def _owning_root(store: Store, path: str) -> str | None:
    """The indexed pack holding ``path``: one lookup per folder above it (loading every root cost 8 ms of a
    one-file update at 10,000 packs)."""
    probe = path
    with store.lock:
        while True:
            if store.conn.execute("SELECT 1 FROM packs WHERE root = ?", (probe,)).fetchone() is not None:
                return probe
            parent = os.path.dirname(probe)
            if parent == probe:
                return None
            probe = parent
