"""The app's side of workspace search: builds the index in a child process, searches it in a worker thread.

Why a child process for building: indexing a large workspace is seconds of Python work (reading, cutting,
preparing text) besides SQLite's; in a thread it would compete with the window's thread for the interpreter
lock. The child writes the same SQLite file the window reads (WAL lets the window search while it writes).
Small updates from the live-reload watcher (one changed pack or file) are cheap and run in a worker thread.
Searches run one at a time on their own worker; a newer search drops the queued older ones and each answer
carries its request id, so the caller shows only the latest.

Signals:
    indexing(int, int): files checked so far and in all, while a refresh runs.
    index_ready(object): the ``RefreshReport`` of a finished refresh or update.
    results(int, object): request id and ``SearchResults``.
    notice(str): something to tell the user once (an index rebuilt, kept in memory, a failure).
"""

from __future__ import annotations

import multiprocessing
import queue
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from studio.core.search import RefreshReport, SearchIndex
from studio.core.search.store import IndexLocationError
from studio.ui import workers
from studio.ui.background_child import become_background_child

POLL_SECONDS = 0.1
PROGRESS_EVERY_S = 0.1


def _child(cache_dir: str, roots: list[str], out: Any, cancel: Any) -> None:
    """Entry point of the indexing process."""
    become_background_child()
    last = [0.0]

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] >= PROGRESS_EVERY_S or done >= total:
            last[0] = now
            out.put(("progress", (done, total)))

    try:
        index = SearchIndex.open(cache_dir)
        try:
            report = index.refresh(roots, on_progress=progress, cancelled=cancel.is_set)
            out.put(("notices", [n.message for n in index.notices]))
        finally:
            index.close()
        out.put(("done", report))
    except BaseException as exc:  # report, never hang the parent
        out.put(("error", f"{type(exc).__name__}: {exc}"))


class SearchService(QObject):
    indexing = Signal(int, int)
    index_ready = Signal(object)
    results = Signal(int, object)
    notice = Signal(str)

    def __init__(self, cache_dir: Path, parent: QObject | None = None, *, in_child_process: bool = True) -> None:
        super().__init__(parent)
        self.cache_dir = Path(cache_dir)
        self.in_child_process = in_child_process
        self.index = SearchIndex.open(self.cache_dir)
        """The window's connection (searches and small updates); the child process opens its own."""
        self.writer = workers.serial_pool(self)  # one writer per studio: a refresh and the updates take turns
        self.reader = workers.serial_pool(self)
        self.last_report: RefreshReport | None = None
        self.refreshing = False
        self._cancel = threading.Event()
        self._unsent = [n.message for n in self.index.notices]
        """Notices from opening the index, sent with the first refresh (nobody listens during ``__init__``)."""

    # -- keeping the index current ---------------------------------------------------------------------
    def refresh(self, roots: Iterable[Path | str]) -> None:
        """Bring the index up to date for the workspace's packs (built from nothing the first time)."""
        wanted = [str(r) for r in roots]
        for message in self._unsent:
            self.notice.emit(message)
        self._unsent = []
        self._cancel.clear()
        self.refreshing = True
        self.writer.clear()
        if self.in_child_process and self.index.path is not None:
            fn, args = self._refresh_in_child, (wanted,)
        else:
            fn, args = self._refresh_here, (wanted,)
        workers.submit(fn, *args, on_done=self._refreshed, on_error=self._failed, pool=self.writer)

    def update_paths(self, paths: Iterable[Path | str]) -> None:
        """Re-index changed files or packs (what ``LiveWatch.pack_changed`` / ``file_changed`` report)."""
        workers.submit(self._update, [str(p) for p in paths], on_done=self._updated, on_error=self._failed,
                       pool=self.writer)

    def _update(self, paths: list[str]) -> RefreshReport:
        report = self.index.update_paths(paths)
        self.index.maintain()  # housekeeping on this worker, after the change is searchable
        return report

    def cancel(self) -> None:
        self._cancel.set()

    def _refresh_here(self, roots: list[str]) -> RefreshReport:
        return self.index.refresh(roots, on_progress=self.indexing.emit, cancelled=self._cancel.is_set)

    def _refresh_in_child(self, roots: list[str]) -> RefreshReport:
        """Runs on the writer thread: start the child, relay its progress, return its report."""
        ctx = multiprocessing.get_context("spawn")  # fork is unsafe in a process running Qt threads
        out = ctx.Queue()
        cancel = ctx.Event()
        child = ctx.Process(target=_child, args=(str(self.cache_dir), roots, out, cancel), daemon=True,
                            name="pack-studio-search-index")
        child.start()
        try:
            while True:
                if self._cancel.is_set():
                    cancel.set()
                try:
                    kind, payload = out.get(timeout=POLL_SECONDS)
                except queue.Empty:
                    if not child.is_alive() and out.empty():
                        raise RuntimeError(f"the indexing process ended unexpectedly (exit code {child.exitcode})"
                                           ) from None
                    continue
                if kind == "progress":
                    self.indexing.emit(*payload)
                elif kind == "notices":
                    for message in payload:
                        self.notice.emit(message)
                elif kind == "error":
                    raise RuntimeError(payload)
                elif kind == "done":
                    assert isinstance(payload, RefreshReport)
                    return payload
        finally:
            child.join(timeout=5)
            if child.is_alive():
                child.kill()

    def _refreshed(self, _rid: int, report: object) -> None:
        self.refreshing = False
        if isinstance(report, RefreshReport):
            self.last_report = report
            self.index_ready.emit(report)

    def _updated(self, _rid: int, report: object) -> None:
        if isinstance(report, RefreshReport):
            self.index_ready.emit(report)

    def _failed(self, _rid: int, text: str) -> None:
        self.refreshing = False
        last = workers.failure_line(text)
        if IndexLocationError.__name__ in last:
            last = last.split(":", 1)[-1].strip()
        self.notice.emit(f"Search index: {last}")

    # -- searching -------------------------------------------------------------------------------------
    def search(self, text: str, *, roots: Iterable[Path | str] | None = None, kinds: Iterable[str] | None = None,
               path_prefix: str = "", limit: int = 200) -> int:
        """Start a search; its answer comes as ``results(request_id, SearchResults)``. Returns the id."""
        request_id = workers.next_request_id()
        self.reader.clear()  # queued searches that have not started are out of date
        roots_list = None if roots is None else [str(r) for r in roots]
        kinds_list = None if kinds is None else list(kinds)
        workers.submit(self._search, text, roots_list, kinds_list, path_prefix, limit, request_id=request_id,
                       on_done=self.results.emit, on_error=self._failed, pool=self.reader)
        return request_id

    def _search(self, text: str, roots: list[str] | None, kinds: list[str] | None, prefix: str,
                limit: int) -> object:
        found = self.index.search(text, roots=roots, kinds=kinds, path_prefix=prefix, limit=limit)
        for n in found.notices:
            self.notice.emit(n.message)
        return found

    def close(self) -> None:
        """Stop a running refresh, wait for the workers, close the connection."""
        self._cancel.set()
        self.writer.clear()
        self.reader.clear()
        self.writer.waitForDone(10_000)
        self.reader.waitForDone(10_000)
        self.index.close()
