"""Usage feedback: a file helped or harmed a task, recorded in ``runs/`` and aggregated into confidence.

``record`` checks and writes one ``runs/feedback-<UTC>.json``; ``aggregate`` turns a pack's feedback records into
per-file counts, a confidence and the recent history. The resolver's optional ranking fold lives in
``studio.core.resolver.feedback``.
"""

from __future__ import annotations

from studio.core.feedback.aggregate import (
    FeedbackSummary,
    FileFeedback,
    aggregate_feedback,
    wilson_lower,
)
from studio.core.feedback.record import (
    OUTCOMES,
    Feedback,
    FeedbackError,
    FeedbackRecord,
    make_feedback_record,
    record_feedback,
    write_feedback_record,
)

__all__ = [
    "OUTCOMES", "Feedback", "FeedbackError", "FeedbackRecord", "FeedbackSummary", "FileFeedback",
    "aggregate_feedback", "make_feedback_record", "record_feedback", "wilson_lower", "write_feedback_record",
]
