"""Run the workspace scan in a child process and stream the packs back.

Why a process: loading a thousand packs is Python work (YAML, checks). In threads it competes with the
GUI thread for the interpreter lock, and every paint or event that calls into Python waits for it,
which freezes the window for hundreds of milliseconds at a time. A child process has its own lock.

The child runs ``studio.core.workspace.open_workspace`` unchanged and sends each pack as it loads, then
the settled verdict (shadowing and collision findings) of the packs that settling changed. The parent rebuilds the core
``Workspace`` from the packs it received, so later ``replace_pack`` calls work as usual.
"""

from __future__ import annotations

import multiprocessing
import queue
from collections.abc import Callable
from pathlib import Path
from typing import Any

from studio.core.diagnostics import Diagnostic
from studio.core.model import Pack
from studio.core.workspace import Workspace, WorkspaceOptions, open_workspace
from studio.ui.background_child import become_background_child

POLL_SECONDS = 0.1
Message = tuple[str, Any]


def _child(options: WorkspaceOptions, out: Any, cancel: Any) -> None:
    """Entry point of the child process: scan, stream, settle."""
    become_background_child()
    sent: dict[str, tuple[Path | None, list[Diagnostic]]] = {}

    def send(pack: Pack) -> None:
        sent[str(pack.root)] = (pack.shadowed_by, list(pack.diagnostics))
        out.put(("pack", pack))

    try:
        ws = open_workspace(
            options,
            on_pack=send,
            on_progress=lambda done, total: out.put(("progress", (done, total))),
            cancelled=cancel.is_set,
        )
        # Only the packs that settling changed (collisions, shadowing): the parent unpickles this message
        # in one call that holds its interpreter lock, and with every pack's findings in it that took long
        # enough to stall the window's thread.
        verdict = {}
        for p in ws.packs:
            root = str(p.root)
            if sent.get(root) != (p.shadowed_by, p.diagnostics):
                verdict[root] = (p.shadowed_by, p.diagnostics)
        order = [str(p.root) for p in ws.packs]
        out.put(("done", (order, verdict, ws.diagnostics, ws.locations)))
    except BaseException as exc:  # report, never hang the parent
        out.put(("error", f"{type(exc).__name__}: {exc}"))


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
    child = ctx.Process(target=_child, args=(options, out, cancel), daemon=True, name="pack-studio-scan")
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
            if kind == "pack":
                received[str(payload.root)] = payload
                if on_pack is not None:
                    on_pack(payload)
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


def _rebuild(options: WorkspaceOptions, received: dict[str, Pack], order: list[str],
             verdict: dict[str, tuple[Path | None, list[Diagnostic]]], diagnostics: list[Diagnostic],
             locations: list[Any]) -> Workspace:
    packs = [received[root] for root in order if root in received]
    for pack in packs:
        settled = verdict.get(str(pack.root))
        if settled is not None:  # only packs that settling changed are in the verdict
            pack.shadowed_by, pack.diagnostics = settled
    return Workspace(packs, diagnostics, locations, options)
