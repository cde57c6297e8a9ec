"""Run core calls off the GUI thread: a QRunnable plus a QObject that carries its result back as signals.

Every job carries a request id. Callers keep the id of their latest request and drop results with an
older one, so a slow answer to an old question never overwrites the answer to the current one.
"""

from __future__ import annotations

import itertools
import traceback
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal, Slot

from studio.ui.turns import next_turn

_ids = itertools.count(1)


def next_request_id() -> int:
    """A process-wide increasing id; newer requests always get larger numbers."""
    return next(_ids)


class JobSignals(QObject):
    """Signal carrier for one job (QRunnable is not a QObject, so it cannot emit by itself).

    Signals:
        finished(int, object): request id and the function's return value.
        failed(int, str): request id and a formatted traceback; the worker never raises into Qt.
    """

    finished = Signal(int, object)
    failed = Signal(int, str)

    def release_when_delivered(self) -> None:
        """Drop the last reference once a result has been delivered (connect after the caller's slots).

        Connected as this object's own method, the connection holds no Python reference to it: the lambda that
        named the job here kept every job, with its arguments (a 10,000-pack list for some), alive for good,
        through a cycle that runs through Qt's connection list, where the cycle collector cannot see it.
        """
        self.finished.connect(self._delivered)
        self.failed.connect(self._delivered)

    @Slot()
    def _delivered(self) -> None:
        # Not now: this object is still delivering its own signal. A timer's call is dropped once made.
        QTimer.singleShot(0, lambda: _forget(self))


def _nothing() -> None:
    return None


def _forget(signals: JobSignals) -> None:
    """Drop a delivered job. Its Python object outlives this: the pool was given the QRunnable, and PySide keeps
    the wrapper of an object the C++ side owns (measured: every job of a session was still alive). So the job lets
    go of its function (a closure may hold a whole workspace) and of this signal carrier, and only a bare object
    of a few hundred bytes stays behind."""
    job = _keep_alive.pop(signals, None)
    if job is not None:
        job.fn = _nothing
        job.signals = _RELEASED


class Job(QRunnable):
    """Call ``fn(*args)`` in the pool and report through ``signals``."""

    def __init__(self, fn: Callable[..., Any], *args: Any, request_id: int | None = None) -> None:
        super().__init__()
        self.fn = fn
        self.args = args
        self.request_id = request_id if request_id is not None else next_request_id()
        self.signals = JobSignals()
        # Not deleted by the pool: Qt would delete it in the pool's thread without the interpreter lock, and
        # PySide's wrapper bookkeeping then races the GUI thread (a segmentation fault, seen at the 3rd opening
        # of a 10,000-pack workspace). The job is dropped from ``_keep_alive`` on the GUI thread instead.
        self.setAutoDelete(False)

    @Slot()
    def run(self) -> None:
        args, self.args = self.args, ()  # the job object may outlive the call: its arguments need not
        try:
            result = self.fn(*args)
        except BaseException:  # noqa: B036 - a Rust panic (pyo3 PanicException) is a BaseException too
            # A worker must always report back: a job that dies silently leaves its panel waiting forever
            # ("counting…"). The caller shows the text.
            self.signals.failed.emit(self.request_id, traceback.format_exc())
            return
        finally:
            del args
        self.signals.finished.emit(self.request_id, result)


def failure_line(trace: str) -> str:
    """The line of a failed job's traceback to show the user: its last, the exception and its message."""
    lines = trace.strip().splitlines()
    return lines[-1] if lines else "unknown error"


def serial_pool(parent: QObject) -> QThreadPool:
    """A pool, owned by ``parent``, that runs its jobs one at a time in the order given: for work on something that
    belongs to one thread at a time (a resolver session, the search index's writer), or that must not overlap."""
    pool = QThreadPool(parent)
    pool.setMaxThreadCount(1)
    return pool


def submit(
    fn: Callable[..., Any],
    *args: Any,
    on_done: Callable[[int, Any], None] | None = None,
    on_error: Callable[[int, str], None] | None = None,
    request_id: int | None = None,
    pool: QThreadPool | None = None,
) -> int:
    """Queue ``fn(*args)`` on the global thread pool; returns the request id.

    ``on_done``/``on_error`` are connected with the signals' default (queued) connection, so they run on
    the thread that owns the signal carrier: the GUI thread.
    """
    job = Job(fn, *args, request_id=request_id)
    if on_done is not None:
        job.signals.finished.connect(on_done)
    if on_error is not None:
        job.signals.failed.connect(on_error)
    _keep_alive[job.signals] = job
    job.signals.release_when_delivered()
    (pool or QThreadPool.globalInstance()).start(job)
    return job.request_id


# Each job and its signal carrier, until its queued result is delivered (then dropped on the GUI thread).
_keep_alive: dict[JobSignals, Job] = {}
_RELEASED = JobSignals()
"""What a delivered job's ``signals`` point to instead of its own carrier (one shared object, never emitted)."""


IN_PLACE_LIMIT = 2000
"""``LatestWork``: inputs up to this size are worked out at once on the GUI thread (a few ms), larger ones in a
worker thread."""


class LatestWork:
    """A series of jobs of which only the newest answer counts, each worked out at once when its input is small
    and in a worker otherwise (how panels follow a workspace of any size without holding the window).

    ``later``: a worker job starts a turn after it is asked for, so that what the window paints meanwhile does not
    take turns at the interpreter lock with it (``context`` owns that delay).
    """

    def __init__(self, on_done: Callable[[Any], None], context: QObject | None = None, later: bool = False) -> None:
        self.on_done = on_done
        self.context = context
        self.later = later
        self.pending = 0
        """The id of the job whose answer is awaited (0: none)."""

    def run(self, size: int, fn: Callable[..., Any], *args: Any) -> None:
        """Work out ``fn(*args)`` for an input of ``size`` items; ``on_done`` gets its answer unless a newer
        ``run`` (or ``cancel``) came first."""
        if size <= IN_PLACE_LIMIT:
            self.pending = 0
            self.on_done(fn(*args))
            return
        self.pending = request = next_request_id()

        def start() -> None:
            if request == self.pending:
                submit(fn, *args, on_done=self._done, request_id=request)

        if self.later and self.context is not None:
            next_turn(self.context, start)
        else:
            start()

    def cancel(self) -> None:
        """An answer still being worked out is out of date."""
        self.pending = 0

    def _done(self, request_id: int, result: Any) -> None:
        if request_id == self.pending:
            self.pending = 0
            self.on_done(result)
