"""Run the workspace scan in a child process and stream the packs back.

Why a process: loading a thousand packs is Python work (YAML, checks). In threads it competes with the
GUI thread for the interpreter lock, and every paint or event that calls into Python waits for it,
which freezes the window for hundreds of milliseconds at a time. A child process has its own lock.

The child runs ``studio.core.workspace.open_workspace`` with one worker process per core and sends the packs as
they load (in small lists), then the verdicts settling gave (shadowing, collisions, origin). The parent rebuilds
the core ``Workspace`` from the packs it received and those verdicts, so later ``replace_pack`` calls work as
usual.

With the result cache, the child first sends what the cache knows of the workspace, unchecked, for the window to
show at once; the load that follows then sends only the packs that differ from it (``studio.ui.cached_first``).

A child serves one scan. When a scan ends, the next child is started at once and waits for its options: starting
an interpreter and importing the core took 0.35-0.40 s of a warm re-opening of 1,000 packs that otherwise takes
0.4 s in the child, and a re-opening (or a rescan) is the moment the user waits for. At most one child waits.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from studio.core.batch_gc import tune_for_batch
from studio.core.diagnostics import Diagnostic
from studio.core.model import NO_VERDICT, Pack, Verdict
from studio.core.workspace import Workspace, WorkspaceOptions, open_workspace
from studio.ui import gc_policy
from studio.ui.background_child import become_background_child, end_with_parent, lower_priority
from studio.ui.cached_first import Confirmation, decode, stored_results

POLL_SECONDS = 0.1
SEND_EVERY = 50
SEND_SECONDS = 0.05
Message = tuple[str, Any]


def _child(jobs: Any, out: Any, cancel: Any) -> None:
    """Entry point of the child process: wait for a scan's options, scan, stream the packs as they load, then send
    the verdicts. ``None`` instead of options ends it unused (the window closed)."""
    become_background_child()
    tune_for_batch()
    options = jobs.get()
    if options is None:
        return
    # Loading is CPU-bound Python: one worker per core, forked from here (they run at this process's lower
    # priority, so the window still wins a core when it needs one).
    options.processes = os.cpu_count() or 1
    options.worker_init = end_with_parent
    outbox = _Outbox(out, "packs")
    try:
        # What the cache knows goes first, unchecked; the load below confirms it and sends only what differs.
        stored = _Outbox(out, "cached")
        try:
            shown = stored_results(options, stored.add, cancel.is_set,
                                   on_found=lambda found: out.put(("progress", (0, found))))
        except Exception:  # noqa: BLE001  # showing early is a nicety: whatever fails, the load sends every pack
            shown = {}
        stored.flush()
        out.put(("cached-end", len(shown)))
        confirmation = Confirmation(shown)

        def confirmed(pack: Pack) -> None:
            if confirmation.differs(pack):
                outbox.add(pack)

        ws = open_workspace(
            options,
            on_pack=confirmed,
            on_progress=lambda done, total: out.put(("progress", (done, total))),
            cancelled=cancel.is_set,
        )
        outbox.flush()
        # The packs went over as loaded; settling adds only verdicts, and only packs that have one (collisions,
        # shadowing, origin) need anything more. The parent unpickles this message in one call holding its
        # interpreter lock, so it stays small.
        verdicts = {str(p.root): p.verdict for p in ws.packs if p.verdict != NO_VERDICT}
        order = [str(p.root) for p in ws.packs]
        out.put(("done", (order, verdicts, ws.diagnostics, ws.locations)))
    except BaseException as exc:  # report, never hang the parent
        out.put(("error", f"{type(exc).__name__}: {exc}"))


class _Outbox:
    """Packs (or stored results) go to the window in lists, not one message each: a message costs a pickle call and a
    queue round trip on both sides, which at 10,000 packs added seconds. A list leaves after ``SEND_EVERY`` items or
    ``SEND_SECONDS``, whichever comes first, so the first packs still show at once."""

    def __init__(self, out: Any, kind: str) -> None:
        self._out = out
        self._kind = kind
        """The message's kind: ``packs`` or ``cached``."""
        self._items: list[object] = []
        self._since = time.monotonic()

    def add(self, item: object) -> None:
        self._items.append(item)
        if len(self._items) >= SEND_EVERY or time.monotonic() - self._since >= SEND_SECONDS:
            self.flush()

    def flush(self) -> None:
        if self._items:
            self._out.put((self._kind, self._items))
            self._items = []
        self._since = time.monotonic()


class _ScanChild:
    """A started scan process and its queues; it waits for the options of one scan."""

    def __init__(self) -> None:
        ctx = multiprocessing.get_context("spawn")  # fork is unsafe in a process running Qt threads
        self.jobs: Any = ctx.Queue()
        self.out: Any = ctx.Queue()
        self.cancel: Any = ctx.Event()
        # Not a daemon: a daemonic process may not start the loading workers. It still ends with the window: it
        # watches its parent (background_child), and a cancelled scan stops between two batches.
        self.process = ctx.Process(target=_child, args=(self.jobs, self.out, self.cancel), name="pack-studio-scan")
        self.process.start()
        if self.process.pid is not None:  # its imports run at the helper's priority, not the window's
            lower_priority(self.process.pid, os.getpid())

    def stop(self) -> None:
        """End a child that was never given a scan."""
        self.jobs.put(None)
        self.process.join(timeout=2)
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=1)
        for q in (self.jobs, self.out):
            q.close()
            q.join_thread()


_waiting: _ScanChild | None = None
_waiting_lock = threading.Lock()
_closed = False
_stop_at_exit = False


def _take_child() -> _ScanChild:
    """The child that waits (a new one when none does, or it died)."""
    global _waiting
    with _waiting_lock:
        child, _waiting = _waiting, None
    if child is not None and child.process.is_alive():
        return child
    if child is not None:
        child.stop()
    return _ScanChild()


def _start_next() -> None:
    global _waiting, _stop_at_exit
    with _waiting_lock:
        if _waiting is not None or _closed:
            return
        _waiting = _ScanChild()
        if not _stop_at_exit:
            # After a child was made, so after multiprocessing registered its own exit handler, which therefore
            # runs after this one: it would finalize the child's queues and then wait for the child to end (a
            # process that scanned and exits without closing a window, such as a test run, must not hang on it).
            atexit.register(shutdown)
            _stop_at_exit = True


def shutdown() -> None:
    """Stop the waiting child (at window close); no child is started after this."""
    global _waiting, _closed
    with _waiting_lock:
        child, _waiting, _closed = _waiting, None, True
    if child is not None:
        child.stop()


def open_workspace_in_child(
    options: WorkspaceOptions,
    on_pack: Callable[[Pack], None] | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    on_cached: Callable[[list[Pack]], None] | None = None,
) -> Workspace:
    """Same contract as ``open_workspace``, but the work happens in a spawned child process.

    With a result cache, ``on_cached`` first gets every pack the cache knows, as stored (unchecked), in one list;
    then ``on_pack`` sees, as the load confirms them, only packs that differ from those (a later copy of the same
    root) or were not among them. The workspace returned holds the confirmed packs only.
    Blocks the calling (worker) thread until the child is done; raises RuntimeError if it dies.
    """
    scan = _take_child()
    scan.jobs.put(options)
    child, out, cancel = scan.process, scan.out, scan.cancel
    received: dict[str, Pack] = {}
    from_cache: list[Pack] = []
    try:
        while True:
            if cancelled is not None and cancelled():
                cancel.set()
            try:
                kind, payload = out.get(timeout=POLL_SECONDS)
            except queue.Empty:
                if not child.is_alive() and out.empty():
                    raise RuntimeError(f"the scan process ended unexpectedly (exit code {child.exitcode})") from None
                continue
            if kind == "cached":
                for item in payload:
                    pack = decode(item)
                    if pack is None:  # the child's confirmation finds it differs, and sends the loaded copy
                        continue
                    from_cache.append(pack)
                    received[str(pack.root)] = pack
                gc_policy.packs_decoded()
            elif kind == "cached-end":
                if on_cached is not None and from_cache:
                    on_cached(from_cache)
                from_cache = []
            elif kind == "packs":
                for pack in payload:
                    received[str(pack.root)] = pack
                    if on_pack is not None:
                        on_pack(pack)
            elif kind == "progress" and on_progress is not None:
                on_progress(*payload)
            elif kind == "error":
                raise RuntimeError(f"the scan failed: {payload}")
            elif kind == "done":
                return _rebuild(options, received, *payload)
    finally:
        child.join(timeout=5)
        if child.is_alive():
            child.kill()
        _start_next()


def _rebuild(options: WorkspaceOptions, received: dict[str, Pack], order: list[str], verdicts: dict[str, Verdict],
             diagnostics: list[Diagnostic], locations: list[Any]) -> Workspace:
    packs = [received[root] for root in order if root in received]
    # Its name index is built later, on the window's thread (``WorkspaceSession``): here it contended with the
    # window for the interpreter lock.
    return Workspace.settled(packs, diagnostics, locations, options,
                             verdicts={Path(root): verdict for root, verdict in verdicts.items()})
