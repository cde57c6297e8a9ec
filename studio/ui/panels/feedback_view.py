"""FeedbackView: per-file usage feedback of one pack (helpful, harmful, confidence, latest outcomes and tasks).

Shows a ``FeedbackSummary`` (``studio.core.feedback.aggregate``) computed off the GUI thread with the rest of
the Runs audit. Files are listed best first, as the core ranks them; the confidence (Wilson lower bound of the
helpful share) is drawn as a bar. Selecting a file lists every outcome recorded for it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QItemSelection, QModelIndex, QPersistentModelIndex, QRect, Qt, Signal
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QTreeWidget,
    QVBoxLayout,
    QWidget,
)

from studio.core.diagnostics import Diagnostic
from studio.core.feedback import FeedbackSummary, FileFeedback
from studio.ui.fit import splitter
from studio.ui.models.item_table import ItemTableModel
from studio.ui.panels.record_view import DiagnosticsList
from studio.ui.row_table import size_columns
from studio.ui.shown_text import text_row

COLUMNS = ("File", "Helpful", "Harmful", "Confidence", "Latest outcome")
CONFIDENCE_COLUMN = COLUMNS.index("Confidence")
FILE_ROLE = Qt.ItemDataRole.UserRole + 50
CONFIDENCE_ROLE = Qt.ItemDataRole.UserRole + 51
HELPFUL_COLOR = QColor("#2e7d32")
HARMFUL_COLOR = QColor("#c62828")
GONE_COLOR = QColor("#8a8f98")
EMPTY_TEXT = ("No feedback recorded yet. Mark a resolver row helpful or harmful for a task, or run "
              "pack-studio feedback PACK --file F --outcome helpful --task TEXT.")


def _latest(f: FileFeedback) -> str:
    recent = f.recent(1)
    if not recent:
        return ""
    e = recent[0]
    query = e.query if len(e.query) <= 70 else e.query[:69] + "…"
    return f"{e.outcome}: \u201c{query}\u201d ({e.timestamp})"


class FeedbackTableModel(ItemTableModel[FileFeedback]):
    """One row per file with feedback, in the core's order (confidence, then helpful count)."""

    columns = COLUMNS
    item_role = FILE_ROLE

    def cell(self, f: FileFeedback, col: int, role: int) -> Any:
        confidence = f.confidence
        if role == Qt.ItemDataRole.DisplayRole:
            shown = "-" if confidence is None else f"{confidence:.2f}"
            return (f.path, str(f.helpful), str(f.harmful), shown, _latest(f))[col]
        if role == CONFIDENCE_ROLE:
            return confidence
        if role == Qt.ItemDataRole.ForegroundRole:
            if not f.exists:
                return GONE_COLOR
            if col == 1 and f.helpful:
                return HELPFUL_COLOR
            if col == 2 and f.harmful:
                return HARMFUL_COLOR
        if role == Qt.ItemDataRole.ToolTipRole:
            if not f.exists:
                return f"{f.path} is no longer in the pack; its outcomes rank nothing."
            if col == CONFIDENCE_COLUMN:
                return ("Wilson score lower bound (95%) of the helpful share: the share of helpful outcomes one can "
                        "be fairly sure of, given how many there are.")
            return f.path if col == 0 else _latest(f)
        return None


class ConfidenceBar(QStyledItemDelegate):
    """Paints the confidence as a bar over its number (green share of the cell width)."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex,
              ) -> None:
        super().paint(painter, option, index)
        value = index.data(CONFIDENCE_ROLE)
        if isinstance(value, float):
            # Drawn over the cell (translucent, so the number shows through): a selected row keeps its bar.
            rect: QRect = option.rect.adjusted(2, 3, -2, -3)
            painter.save()
            painter.fillRect(rect, QColor(127, 127, 127, 35))
            filled = QRect(rect.left(), rect.top(), max(1, round(rect.width() * value)), rect.height())
            painter.fillRect(filled, QColor(46, 125, 50, 110))
            painter.restore()


class FeedbackView(QWidget):
    """Summary line, the per-file table, the selected file's outcomes, and findings about feedback records.

    Signals:
        open_file_requested(Path, int): a file (double-clicked row, or a finding's record) and a 1-based line.
    """

    open_file_requested = Signal(Path, int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.root: Path | None = None
        self.summary: FeedbackSummary | None = None
        self.title = QLabel(EMPTY_TEXT)
        self.title.setWordWrap(True)
        self.model = FeedbackTableModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setItemDelegateForColumn(CONFIDENCE_COLUMN, ConfidenceBar(self.table))
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        size_columns(self.table.horizontalHeader(), (260, 64, 64, 90), stretch=4)
        self.table.selectionModel().selectionChanged.connect(self._selected)
        self.table.doubleClicked.connect(self._open_row)
        self.history = QTreeWidget()
        self.history.setHeaderLabels(["Time", "Outcome", "Task", "Section", "Trace", "Reviewer"])
        self.history.setRootIsDecorated(False)
        size_columns(self.history.header(), (150, 70, 300, 100, 140))
        self.findings = DiagnosticsList()
        self.findings.diagnostic_activated.connect(self._open_finding)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(splitter(Qt.Orientation.Vertical, (self.table, 3), (self.history, 2), (self.findings, 1)), 1)

    def set_summary(self, summary: FeedbackSummary | None, root: Path | None = None) -> None:
        """Show ``summary`` (None clears); ``root`` is the pack directory, for opening files."""
        self.summary, self.root = summary, root
        self.model.set_items(summary.files if summary else [])
        self.history.clear()
        self.findings.set_diagnostics(summary.diagnostics if summary else [])
        self.findings.setVisible(bool(summary and summary.diagnostics))
        if summary is None or (not summary.files and not summary.not_counted):
            self.title.setText(EMPTY_TEXT)
        else:
            left_out = f"; {summary.not_counted} not counted (see the findings and the Timeline)" \
                if summary.not_counted else ""
            self.title.setText(f"{summary.records} feedback record(s) about {len(summary.files)} file(s){left_out}. "
                               "Confidence: Wilson lower bound of the helpful share; files rank by it.")
        if summary and summary.files:
            self.table.selectRow(0)

    def _selected(self, selected: QItemSelection, _deselected: QItemSelection) -> None:
        indexes = selected.indexes()
        f = indexes[0].data(FILE_ROLE) if indexes else None
        self.history.clear()
        if not isinstance(f, FileFeedback):
            return
        for e in f.recent(len(f.events)):
            item = text_row([e.timestamp, e.outcome, e.query, e.section or "", e.trace_id or "", e.reviewer])
            item.setForeground(1, HELPFUL_COLOR if e.outcome == "helpful" else HARMFUL_COLOR)
            self.history.addTopLevelItem(item)

    def _open_row(self, index: QModelIndex) -> None:
        f = index.data(FILE_ROLE)
        if isinstance(f, FileFeedback) and f.exists and self.root is not None:
            self.open_file_requested.emit(self.root / f.path, 1)

    def _open_finding(self, diag: Diagnostic) -> None:
        if self.root is not None and diag.file:
            self.open_file_requested.emit(self.root / diag.file, diag.line or 1)
