"""FeedbackRecorder: writes a "helpful / harmful for this task" record off the GUI thread.

The Resolve panel's row menu emits a ``FeedbackRequest``; this object hands it to the core
(``studio.core.feedback.record_feedback``: checks first, then an atomic write to ``runs/feedback-<UTC>.json``)
in the thread pool and reports back. It decides nothing itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from studio.core.feedback import Feedback, FeedbackRecord, record_feedback
from studio.ui import workers


@dataclass(frozen=True, slots=True)
class FeedbackRequest(Feedback):
    """What the user asked to record, from one resolver row (``file`` is the candidate's pack-relative path), and
    where the pack is."""

    pack_root: Path = field(kw_only=True)


def write_request(request: FeedbackRequest) -> tuple[FeedbackRecord, Path]:
    """The core call the worker makes (kept separate so tests can run it directly)."""
    return record_feedback(request.pack_root, request.file, request.outcome, request.query,
                           section=request.section, trace_id=request.trace_id, pack_name=request.pack)


class FeedbackRecorder(QObject):
    """Signals:
        recorded(object, object): the FeedbackRequest and the Path of the record written.
        failed(object, str): the FeedbackRequest and why nothing was written (one line).
    """

    recorded = Signal(object, object)
    failed = Signal(object, str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pending: dict[int, FeedbackRequest] = {}

    def record(self, request: FeedbackRequest) -> int:
        """Queue the write; returns the job's request id."""
        job = workers.submit(write_request, request, on_done=self._done, on_error=self._error)
        self._pending[job] = request
        return job

    def _done(self, job: int, result: object) -> None:
        request = self._pending.pop(job, None)
        if request is not None and isinstance(result, tuple):
            self.recorded.emit(request, result[1])

    def _error(self, job: int, trace: str) -> None:
        request = self._pending.pop(job, None)
        if request is not None:
            last = workers.failure_line(trace)
            # "FeedbackError: x is outside the pack" -> "x is outside the pack"
            self.failed.emit(request, last.split(": ", 1)[1] if ": " in last else last)
