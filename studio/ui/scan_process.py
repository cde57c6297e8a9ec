"""Run the workspace scan in a child process and stream the packs back.

Why a process: loading a thousand packs is Python work (YAML, checks). In threads it competes with the
GUI thread for the interpreter lock, and every paint or event that calls into Python waits for it,
which freezes the window for hundreds of milliseconds at a time. A child process has its own lock.

The child runs ``studio.core.workspace.open_workspace`` with one worker process per core and sends the packs as
they load (in small lists), then the verdicts settling gave (shadowing, collisions, origin). The parent rebuilds
the core ``Workspace`` from the packs it received and those verdicts, so later ``replace_pack`` calls work as
usual.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from studio.core.batch_gc import tune_for_batch
from studio.core.diagnostics import Diagnostic
from studio.core.model import NO_VERDICT, Pack, Verdict
from studio.core.workspace import Workspace, WorkspaceOptions, open_workspace
from studio.ui.background_child import become_background_child, end_with_parent

POLL_SECONDS = 0.1
SEND_EVERY = 50
SEND_SECONDS = 0.05
Message = tuple[str, Any]


def _child(options: WorkspaceOptions, out: Any, cancel: Any) -> None:
    """Entry point of the child process: scan, stream the packs as they load, then send the verdicts."""
    become_background_child()
    tune_for_batch()
    # Loading is CPU-bound Python: one worker per core, forked from here (they run at this process's lower
    # priority, so the window still wins a core when it needs one).
    options.processes = os.cpu_count() or 1
    options.worker_init = end_with_parent
    outbox = _Outbox(out)
    try:
        ws = open_workspace(
            options,
            on_pack=outbox.add,
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
    """Packs go to the window in lists, not one message each: a message costs a pickle call and a queue round trip
    on both sides, which at 10,000 packs added seconds. A list leaves after ``SEND_EVERY`` packs or
    ``SEND_SECONDS``, whichever comes first, so the first packs still show at once."""

    def __init__(self, out: Any) -> None:
        self._out = out
        self._packs: list[Pack] = []
        self._since = time.monotonic()

    def add(self, pack: Pack) -> None:
        self._packs.append(pack)
        if len(self._packs) >= SEND_EVERY or time.monotonic() - self._since >= SEND_SECONDS:
            self.flush()

    def flush(self) -> None:
        if self._packs:
            self._out.put(("packs", self._packs))
            self._packs = []
        self._since = time.monotonic()


def open_workspace_in_child(
    options: WorkspaceOptions,
    on_pack: Callable[[Pack], None] | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> Workspace:
    """Same contract as ``open_workspace``, but the work happens in a spawned child process.

    Blocks the calling (worker) thread until the child is done; raises RuntimeError if it dies.
    """
    ctx = multiprocessing.get_context("spawn")  # fork is unsafe in a process running Qt threads
    out = ctx.Queue()
    cancel = ctx.Event()
    # Not a daemon: a daemonic process may not start the loading workers. It still ends with the window: it
    # watches its parent (background_child), and a cancelled scan stops between two batches.
    child = ctx.Process(target=_child, args=(options, out, cancel), name="pack-studio-scan")
    child.start()
    received: dict[str, Pack] = {}
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
            if kind == "packs":
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


def _rebuild(options: WorkspaceOptions, received: dict[str, Pack], order: list[str], verdicts: dict[str, Verdict],
             diagnostics: list[Diagnostic], locations: list[Any]) -> Workspace:
    packs = [received[root] for root in order if root in received]
    # Its name index is built later, on the window's thread (``WorkspaceSession``): here it contended with the
    # window for the interpreter lock.
    return Workspace.settled(packs, diagnostics, locations, options,
                             verdicts={Path(root): verdict for root, verdict in verdicts.items()})
