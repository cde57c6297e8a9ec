"""RunsPanel: a pack's ``runs/`` as a timeline, each record's text and findings, statistics, feedback, evidence.

``set_pack`` reads everything off the GUI thread (the latest pack asked for wins); ``loaded`` fires when
the views show it. Nothing here writes.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QItemSelection, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from studio.core.diagnostics import Diagnostic
from studio.core.model import Pack
from studio.core.runs import RunRecord
from studio.ui.fit import scroll_page, splitter, wrap_label
from studio.ui.mode_panel import Follows, ModePanel
from studio.ui.models.runs import ALL, RECORD_ROLE, RunsFilterProxy, RunsTableModel
from studio.ui.panels._audit import PackAudit, read_pack_audit
from studio.ui.panels.evidence_panel import EvidencePanel
from studio.ui.panels.feedback_view import FeedbackView
from studio.ui.panels.record_view import DiagnosticsList, RecordTextView, read_text_for_display
from studio.ui.panels.run_stats_view import RunStatsView
from studio.ui.row_table import select_first, sorted_row_table
from studio.ui.workers import submit


class RunsPanel(ModePanel):
    """Timeline | Statistics | Feedback | Provenance & evidence, for one pack at a time: the selected one.

    Signals:
        loaded(): the views now show the pack last passed to ``set_pack``.
    """

    mode_title = "Runs"
    mode_tip = "Runs: audit runs/ records, statistics, provenance and evidence of the selected pack"
    follows = Follows.SELECTION | Follows.SELECTED_PACK

    loaded = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.pack: Pack | None = None
        self.audit: PackAudit | None = None
        self._pending = 0
        self.error = ""
        self.title = wrap_label(QLabel("No pack selected."))
        self.kind_filter = QComboBox()
        self.status_filter = QComboBox()
        self.kind_filter.currentIndexChanged.connect(self._filter_changed)
        self.status_filter.currentIndexChanged.connect(self._filter_changed)
        head = QHBoxLayout()
        head.addWidget(self.title, 1)
        head.addWidget(QLabel("Kind"))
        head.addWidget(self.kind_filter)
        head.addWidget(QLabel("Status"))
        head.addWidget(self.status_filter)

        self.model = RunsTableModel(self)
        self.proxy = RunsFilterProxy(self)
        self.proxy.setSourceModel(self.model)
        self.table = sorted_row_table(self.proxy)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
        self.table.selectionModel().selectionChanged.connect(self._selection_changed)
        self.table.doubleClicked.connect(lambda index: self._open_record(index.data(RECORD_ROLE), 1))
        self.record_view = RecordTextView()
        self.record_diagnostics = DiagnosticsList()
        self.record_diagnostics.diagnostic_activated.connect(self._open_diagnostic)
        detail = splitter(Qt.Orientation.Horizontal, (self.record_view, 3), (self.record_diagnostics, 2))
        timeline = splitter(Qt.Orientation.Vertical, (self.table, 0), (detail, 0))

        self.stats_view = RunStatsView()
        self.feedback_view = FeedbackView()
        self.feedback_view.open_file_requested.connect(self.open_file_requested)
        self.evidence = EvidencePanel()
        self.evidence.open_file_requested.connect(self.open_file_requested)
        self.tabs = QTabWidget()
        self.tabs.addTab(timeline, "Timeline")
        self.tabs.addTab(self.stats_view, "Statistics")
        self.tabs.addTab(self.feedback_view, "Feedback")
        self.tabs.addTab(scroll_page(self.evidence), "Provenance && evidence")  # taller than a laptop's room
        layout = QVBoxLayout(self)
        layout.addLayout(head)
        layout.addWidget(self.tabs, 1)
        self._fill_filters()

    # -- loading --------------------------------------------------------------------------------
    def follow(self, packs: Sequence[Pack], selected: Pack | None) -> None:
        self.set_pack(selected)

    def set_pack(self, pack: Pack | None) -> None:
        """Show ``pack``'s runs; reading happens in the pool, and an older answer never replaces a newer one."""
        self.pack = pack
        if pack is None:
            self._pending = 0
            self._show(None)
            return
        self.title.setText(f"{self.pack_label(pack)}: reading runs/ ...")
        self._pending = submit(read_pack_audit, pack, on_done=self._done, on_error=self._failed)

    def reload(self) -> None:
        self.set_pack(self.pack)

    def _done(self, request_id: int, audit: object) -> None:
        if request_id != self._pending or not isinstance(audit, PackAudit):
            return  # a stale answer: the user moved on to another pack
        self._show(audit)

    def _failed(self, request_id: int, trace: str) -> None:
        if request_id != self._pending:
            return
        self.error = trace
        self.title.setText("Reading runs/ failed; see the log.")
        self.loaded.emit()

    def _show(self, audit: PackAudit | None) -> None:
        self.audit = audit
        self.error = ""
        records = audit.runs.records if audit else []
        self.model.set_items(records)
        self._fill_filters()
        self.record_view.show_text("")
        self.record_diagnostics.set_diagnostics([])
        self.stats_view.set_stats(audit.stats if audit else None)
        self.feedback_view.set_summary(audit.feedback if audit else None, audit.root if audit else None)
        self.evidence.set_audit(audit)
        if audit is None:
            self.title.setText("No pack selected.")
        else:
            problems = sum(1 for r in records if r.validity.is_problem)
            self.title.setText(f"{self.pack_label(audit.pack)}: {len(records)} run records"
                               + (f", {problems} with problems" if problems else ""))
        self.table.resizeColumnsToContents()
        if self.proxy.rowCount() > 0:  # show the newest record rather than an empty detail pane
            self.table.selectRow(self.proxy.rowCount() - 1 if self.table.horizontalHeader().sortIndicatorOrder()
                                 == Qt.SortOrder.AscendingOrder else 0)
        self.loaded.emit()

    # -- filters and selection ------------------------------------------------------------------
    def _fill_filters(self) -> None:
        for combo, label, values in ((self.kind_filter, "All kinds", self.model.kinds()),
                                     (self.status_filter, "All statuses", self.model.statuses())):
            combo.blockSignals(True)
            combo.clear()
            combo.addItem(label, ALL)
            for value in values:
                combo.addItem(value, value)
            combo.blockSignals(False)
        self.proxy.set_kind(ALL)
        self.proxy.set_status(ALL)

    def _filter_changed(self) -> None:
        self.proxy.set_kind(self.kind_filter.currentData() or ALL)
        self.proxy.set_status(self.status_filter.currentData() or ALL)

    def set_kind_filter(self, kind: str) -> None:
        self.kind_filter.setCurrentIndex(max(0, self.kind_filter.findData(kind)))

    def set_status_filter(self, status: str) -> None:
        self.status_filter.setCurrentIndex(max(0, self.status_filter.findData(status)))

    def visible_records(self) -> list[RunRecord]:
        return [self.proxy.index(row, 0).data(RECORD_ROLE) for row in range(self.proxy.rowCount())]

    def select_record(self, path: str) -> bool:
        """Select the row of the record at pack-relative ``path`` (as a click would)."""
        return select_first(self.table, RECORD_ROLE,
                            lambda record: isinstance(record, RunRecord) and record.path == path)

    def _selection_changed(self, selected: QItemSelection, _deselected: QItemSelection) -> None:
        indexes = selected.indexes()
        record = indexes[0].data(RECORD_ROLE) if indexes else None
        if isinstance(record, RunRecord) and self.audit is not None:
            self.record_view.show_text(read_text_for_display(self.audit.root, record.path), record.name)
            self.record_diagnostics.set_diagnostics(record.diagnostics)

    def _open_record(self, record: object, line: int) -> None:
        if isinstance(record, RunRecord) and self.audit is not None:
            self.open_file_requested.emit(self.audit.root / record.path, line)

    def _open_diagnostic(self, diag: Diagnostic) -> None:
        if self.audit is not None and diag.file:
            self.open_file_requested.emit(self.audit.root / diag.file, diag.line or 1)
