"""ClientsView: what each client profile would load for the task on screen, side by side (Resolve mode, Clients tab).

One row per file some client loads, one column per client (``studio.core.clients``); a tick where the client
loads it. Rows on which the clients disagree are highlighted (the divergences); the header gives each client's
token count, and the warnings of every client are listed below. The comparison runs in a worker thread
(``ResolverPanel`` submits ``compare``), so this view only shows a ``Comparison``.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.core.clients import Comparison
from studio.ui.fit import wrap_label
from studio.ui.pack_text_view import PackTextView
from studio.ui.shown_text import as_typed

DIVERGENT = QColor("#fff3cd")
"""Rows some clients load and others do not."""
LOADED = "\u2713"


class ClientsView(QWidget):
    """A file-by-client table with the divergences highlighted, and each client's warnings."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.comparison: Comparison | None = None
        self.summary = wrap_label(QLabel("Run the resolver to compare clients."))
        self.allow_custom = QCheckBox("Custom types explicitly allowed")
        self.allow_custom.setToolTip("Let every client load packs whose type is outside the standard list "
                                     "(some clients load those only when explicitly allowed)")
        self.only_divergent = QCheckBox("Only differences")
        self.only_divergent.toggled.connect(lambda *_: self._fill())
        options = QHBoxLayout()
        options.addWidget(self.summary, 1)
        options.addWidget(self.allow_custom)
        options.addWidget(self.only_divergent)
        self.table = QTableWidget()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().hide()
        self.table.setWordWrap(False)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        self.table.setTextElideMode(Qt.TextElideMode.ElideLeft)  # the file name is the end of the path
        self.warnings = PackTextView()  # client warnings name pack files
        self.warnings.setPlaceholderText("No client warns.")
        # Side by side: Resolve mode's lower half is wide and short; the table needs the height.
        body = QHBoxLayout()
        body.addWidget(self.table, 4)
        body.addWidget(self.warnings, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(options)
        layout.addLayout(body, 1)

    def show_waiting(self) -> None:
        self.summary.setText("Comparing clients ...")

    def show_comparison(self, comparison: Comparison) -> None:
        self.comparison = comparison
        self._fill()

    def _fill(self) -> None:
        comparison = self.comparison
        if comparison is None:
            return
        runs = comparison.runs
        divergent = {d.path for d in comparison.divergences}
        paths = list(dict.fromkeys(p for r in runs for p in r.selected))
        if self.only_divergent.isChecked():
            paths = [p for p in paths if p in divergent]
        self.table.clear()
        self.table.setColumnCount(len(runs) + 1)
        self.table.setRowCount(len(paths))
        headers = ["File"] + [f"{r.client}\n{r.tokens:,} tok" + ("*" if r.token_method != "tokenizer" else "")
                              for r in runs]
        self.table.setHorizontalHeaderLabels(headers)
        loads = [set(r.selected) for r in runs]
        brush = QBrush(DIVERGENT)
        for row, path in enumerate(paths):
            name = QTableWidgetItem(path)
            name.setToolTip(as_typed(path))
            cells = [name] + [QTableWidgetItem(LOADED if path in s else "") for s in loads]
            for column, cell in enumerate(cells):
                if path in divergent:
                    cell.setBackground(brush)
                if column:
                    cell.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                self.table.setItem(row, column, cell)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in range(1, len(runs) + 1):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.summary.setText(f"{len(divergent)} of {len(set().union(*loads)) if loads else 0} files differ "
                             "(highlighted); * the client's own estimate (characters / 4)")
        self.warnings.setPlainText("\n\n".join(f"{r.client}: {w}" for r in runs for w in r.warnings))
