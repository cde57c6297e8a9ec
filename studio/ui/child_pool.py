"""Run CPU-bound core calls in a child process, so the window's thread never waits for the interpreter lock.

Rendering previews, counting tokens and the content checks are Python (and tiktoken) work. In a thread
they hold the GIL for tens of milliseconds at a time and the window stops painting; in a child process
they cannot. A worker thread calls ``run_in_child`` and simply waits for the answer.
"""

from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from studio.ui.background_child import become_background_child

T = TypeVar("T")

_pool: ProcessPoolExecutor | None = None
_lock = threading.Lock()


def run_in_child(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` in the shared child process (spawned on first use); blocks the calling worker thread.

    ``fn`` and its arguments must pickle (module-level functions, core dataclasses). If the child dies, the
    call is made in this process instead, so work is never lost.
    """
    global _pool
    with _lock:
        if _pool is None:
            # spawn, not fork: forking a process that runs Qt threads is unsafe.
            _pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                        initializer=become_background_child)
        pool = _pool
    try:
        return pool.submit(fn, *args).result()
    except BrokenProcessPool:
        with _lock:
            if _pool is pool:
                _pool = None
        return fn(*args)


def shutdown() -> None:
    """Stop the child (at window close); queued calls are cancelled."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=False, cancel_futures=True)
