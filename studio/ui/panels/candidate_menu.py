"""The context menu of a resolver candidate row: open it, or mark it helpful / harmful for the current task.

Marking builds a ``FeedbackRequest`` and hands it to a callback (the panel emits it); nothing is written here.
The feedback entries are disabled, with the reason as their tooltip, when there is no task to record them for.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QWidget

from studio.core.resolver import ResolveResult
from studio.ui.feedback_recorder import FeedbackRequest
from studio.ui.models.candidates import CandidateRow

OUTCOME_LABELS = (("helpful", "Mark helpful for this task"), ("harmful", "Mark harmful for this task"))


def feedback_request(row: CandidateRow, result: ResolveResult, outcome: str,
                     trace_ids: dict[str, str] | None = None) -> FeedbackRequest | None:
    """The request for ``row`` in ``result`` (None when its pack is not part of the result or there is no task)."""
    d = row.decision
    res = next((p for p in result.packs if p.name == d.pack), None)
    if res is None or not result.task.strip():
        return None
    root = Path(res.pack.root)
    return FeedbackRequest(d.pack, d.path, outcome, result.task.strip(), d.section, (trace_ids or {}).get(str(root)),
                           pack_root=root)


def build_row_menu(parent: QWidget, row: CandidateRow, result: ResolveResult,
                   on_feedback: Callable[[FeedbackRequest], None], on_open: Callable[[], None],
                   trace_ids: dict[str, str] | None = None) -> QMenu:
    """The menu for one row; its actions call ``on_feedback`` / ``on_open`` when triggered."""
    menu = QMenu(parent)
    where = row.decision.path + (f" § {row.decision.section}" if row.decision.section else "")
    open_action = menu.addAction(f"Open {where}")
    open_action.triggered.connect(on_open)
    menu.addSeparator()
    for outcome, label in OUTCOME_LABELS:
        action = QAction(label, menu)
        action.setData(outcome)
        request = feedback_request(row, result, outcome, trace_ids)
        if request is None:
            action.setEnabled(False)
            action.setToolTip("Type a task first: feedback is recorded for a task.")
        else:
            action.setToolTip(f"Write runs/feedback-<time>.json into {row.decision.pack}: {where} was {outcome} "
                              f"for \u201c{request.query[:80]}\u201d")
            action.triggered.connect(lambda _checked=False, r=request: on_feedback(r))
        menu.addAction(action)
    menu.setToolTipsVisible(True)
    return menu
