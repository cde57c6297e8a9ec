"""Reading and preparing packs in worker processes while this process writes: how a large index is built.

Why processes: preparing the text (reading, digesting, cutting into rows, spreading CJK characters) is Python work,
and so is handing the text to the engine. In two threads of one process they take turns at the interpreter lock; in
two processes they run at once, and the engine's own work (tokenising and indexing in its writer's threads, without
the lock) overlaps with both. Workers are started with ``spawn`` (the studio runs Qt threads; forking those is
unsafe) and begin importing while this process lists the packs; each then prepares whole packs, a few ahead of the
writer, and the results are taken in pack order so a build is deterministic.

Used only where it pays: a build of many packs from an empty index (``indexer.refresh``). Where no process can be
started (a daemonic process, which may not have children; a resource limit), or a worker dies, the remaining packs
are prepared in this process instead: nothing is lost, it is only slower. ``spawn`` imports the program's main
module again in the worker, so a script calling ``refresh`` needs the usual ``if __name__ == "__main__"`` guard
(Python refuses to start the worker otherwise, and the refresh fails).
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from studio.core.search.changes import Known, PackWork, RefreshReport, pack_work
from studio.core.search.files import PackListing, list_pack_files

MAX_WORKERS = 1
"""Worker processes. One keeps up with the writer (on the 1,000-pack corpus it needs 4-4.5 s of CPU where the
writer needs 5-6 s); a second only takes CPU from the writer on a machine with two cores (measured: 7.2 s with
two, 6.7 s with one, 8.1 s with the reading thread instead)."""
AHEAD_PER_WORKER = 4
"""Packs prepared ahead of the writer per worker: enough to keep workers busy, few enough to bound memory."""


def can_start_workers() -> bool:
    """False on one core (a worker would only take turns with the writer), inside a daemonic process (Python
    forbids it children) or where multiprocessing is unusable."""
    if (os.cpu_count() or 1) < 2:
        return False
    try:
        return not multiprocessing.current_process().daemon
    except Exception:  # pragma: no cover - a platform without multiprocessing support
        return False


def worker_count() -> int:
    return max(1, min(MAX_WORKERS, (os.cpu_count() or 2) - 1))


def _prepare_pack(root: str, listing: PackListing, known: dict[str, Known]) -> tuple[PackWork, RefreshReport]:
    """In a worker: one pack's changes, with the part of the report it accounts for."""
    report = RefreshReport()
    return pack_work(root, listing.files, known, report, listing.folders), report


def _ready() -> int:
    return os.getpid()


PARENT_POLL_S = 1.0


def _worker_start(parent: int) -> None:
    """In a worker: end when the process that started it is gone. Its input pipe cannot tell (the worker holds
    both ends of it), so a writer killed mid-build would otherwise leave the worker waiting for ever."""
    threading.Thread(target=_watch_parent, args=(parent,), name="parent-watch", daemon=True).start()


def _watch_parent(parent: int) -> None:
    while not threading.Event().wait(PARENT_POLL_S):
        if os.getppid() != parent:
            os._exit(0)


def produce_in_processes(roots: list[str], known: dict[str, dict[str, Known]], report: RefreshReport,
                         stop: Callable[[], bool], workers: int | None = None) -> Generator[PackWork | int, None, None]:
    """Like ``changes.produce`` (the total number of files first, then one ``PackWork`` per pack, in order), with
    the packs prepared in worker processes."""
    count = workers or worker_count()
    try:
        pool = ProcessPoolExecutor(max_workers=count, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_worker_start, initargs=(os.getpid(),))
        warm = [pool.submit(_ready) for _ in range(count)]  # start the workers importing now
    except OSError:  # no child processes here (a resource limit): prepare packs in this process
        pool = None
        warm = []
    listings: list[tuple[str, PackListing]] = []
    for root in roots:
        listing = list_pack_files(root)
        report.skipped.update(listing.skipped)
        listings.append((root, listing))
    yield sum(len(listing.files) for _, listing in listings)
    if pool is None:
        yield from _in_this_process(listings, known, report, stop)
        return
    pending: deque[Future[tuple[PackWork, RefreshReport]]] = deque()
    queued = 0
    try:
        del warm
        while queued < len(listings) or pending:
            while queued < len(listings) and len(pending) < count * AHEAD_PER_WORKER:
                root, listing = listings[queued]
                pending.append(pool.submit(_prepare_pack, root, listing, known.get(root, {})))
                queued += 1
            if stop():
                return
            try:
                work, part = pending.popleft().result()
            except BrokenProcessPool:  # a worker died (killed, out of memory): finish here
                done = queued - len(pending) - 1
                yield from _in_this_process(listings[done:], known, report, stop)
                return
            report.add(part)
            yield work
    finally:
        for future in pending:
            future.cancel()
        pool.shutdown(wait=True, cancel_futures=True)


def _in_this_process(listings: list[tuple[str, PackListing]], known: dict[str, dict[str, Known]],
                     report: RefreshReport, stop: Callable[[], bool]) -> Iterator[PackWork]:
    for root, listing in listings:
        if stop():
            return
        yield pack_work(root, listing.files, known.get(root, {}), report, listing.folders)
