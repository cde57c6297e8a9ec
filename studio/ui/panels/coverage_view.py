"""CoverageView (a tab of Evals mode): what the selected pack answers, what it does not, and a draft for a gap.

The report (``studio.core.coverage``) resolves every known task, so it runs in a one-thread pool with its own
``ResolverSession``, only while the tab is on screen, and only the answer to the newest request is shown. The
left list clusters similar unanswered tasks (fifty wordings of one question are one gap); the matrix shows every
task (gaps first) against the files that answer it. "Make draft" plans a draft page and eval case for the
selected gap and shows the diff; nothing is written until "Write draft", which writes both files atomically
(``coverage.apply_draft``) and then measures again.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from PySide6.QtCore import QItemSelection, QRect, QSize, Qt, Signal
from PySide6.QtGui import QPainter, QShowEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.core.coverage import (
    CoverageOptions,
    CoverageReport,
    CoverageTask,
    GapCluster,
    GapDraft,
    apply_draft,
    cluster_gaps,
    compute_coverage,
    draft_gap,
)
from studio.core.model import Pack
from studio.core.resolver import ResolverSession
from studio.core.terminal import printable
from studio.ui.buttons import command_button
from studio.ui.diff_highlighter import DiffHighlighter
from studio.ui.fit import splitter, wrap_label
from studio.ui.models.coverage import FIXED_COLUMNS, TASK_ROLE, CoverageMatrixModel
from studio.ui.pack_text_view import PackTextView
from studio.ui.row_table import record_table, size_columns
from studio.ui.shown_text import as_typed, short_line
from studio.ui.theme import editor_font
from studio.ui.workers import serial_pool, submit

CLUSTER_ROLE = Qt.ItemDataRole.UserRole + 61
FILE_COLUMN_WIDTH = 26
FILE_HEADER_HEIGHT = 96
"""File names are written upwards in their column's header: a matrix of 40 files fits across, names readable."""


@dataclass(frozen=True, slots=True)
class CoverageAnswer:
    """What one background run hands back to the view."""

    report: CoverageReport
    clusters: list[GapCluster]


def measure(pack: Pack, budget: int, session: ResolverSession) -> CoverageAnswer:
    """The worker's job: the report and its gap clusters (pure core work)."""
    report = compute_coverage([pack], CoverageOptions(budget=budget), session)[0]
    return CoverageAnswer(report, cluster_gaps(report.tasks))


class FileNamesHeader(QHeaderView):
    """A horizontal header that writes the file columns' names upwards (the task columns stay as they are)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.setSectionsClickable(False)
        self.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom)

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        model = self.model()
        if model is not None and model.columnCount() > len(FIXED_COLUMNS):
            hint.setHeight(FILE_HEADER_HEIGHT)
        return hint

    def paintSection(self, painter: QPainter, rect: QRect, logical_index: int) -> None:
        model = self.model()
        if logical_index < len(FIXED_COLUMNS) or model is None:
            super().paintSection(painter, rect, logical_index)
            return
        painter.save()
        super().paintSection(painter, rect, -1)  # the section's frame and background, without its text
        text = str(model.headerData(logical_index, Qt.Orientation.Horizontal) or "")
        colour = model.headerData(logical_index, Qt.Orientation.Horizontal, Qt.ItemDataRole.ForegroundRole)
        if colour is not None:
            painter.setPen(colour)
        painter.translate(rect.left() + rect.width() // 2 + painter.fontMetrics().ascent() // 2 - 2,
                          rect.bottom() - 4)
        painter.rotate(-90)
        width = rect.height() - 8
        painter.drawText(0, 0, painter.fontMetrics().elidedText(text, Qt.TextElideMode.ElideMiddle, width))
        painter.restore()


class CoverageView(QWidget):
    """The Coverage tab: gap clusters, the task x file matrix, and a draft preview for the selected gap.

    Signals:
        measured(): the view now shows the answer to the latest measurement (or says why it failed).
    """

    measured = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.pack: Pack | None = None
        self.budget = CoverageOptions().budget
        self.answer: CoverageAnswer | None = None
        self.draft: GapDraft | None = None
        self.error = ""
        self.session = ResolverSession()
        self.pool = serial_pool(self)  # the session belongs to one thread at a time
        self._latest = 0
        self._stale = True

        self.summary = wrap_label(QLabel("No pack selected."))
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.refresh_button = command_button("Measure again", self.run,
                                             "Resolve every known task again (after editing pages or recording runs)")
        head = QHBoxLayout()
        head.addWidget(self.summary, 1)
        head.addWidget(self.refresh_button)

        self.clusters = QTreeWidget()
        self.clusters.setHeaderLabels(["Gaps (similar tasks together)", "Asked"])
        self.clusters.setRootIsDecorated(True)
        size_columns(self.clusters.header(), (0, 50), stretch=0)
        self.clusters.currentItemChanged.connect(self._cluster_chosen)

        self.model = CoverageMatrixModel(self)
        self.table = record_table(self.model)
        self.table.setHorizontalHeader(FileNamesHeader(self.table))
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        self.table.selectionModel().selectionChanged.connect(self._selection_changed)

        self.detail = PackTextView(font=editor_font(), wrap=False)  # drafts quote the task and pack text
        self.highlighter = DiffHighlighter(self.detail.document())
        self.draft_button = command_button(
            "Make draft", self.make_draft, "Plan a draft page and eval case for the selected gap; shows the diff first")
        self.write_button = command_button(
            "Write draft", self.write_draft, "Write the previewed draft into the pack (atomically), then measure again")
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.draft_button)
        buttons.addWidget(self.write_button)
        bottom = QWidget()
        bottom_layout = QVBoxLayout(bottom)
        bottom_layout.setContentsMargins(0, 0, 0, 0)
        bottom_layout.addWidget(self.detail, 1)
        bottom_layout.addLayout(buttons)

        across = splitter(Qt.Orientation.Horizontal, (self.clusters, 1), (self.table, 3))
        down = splitter(Qt.Orientation.Vertical, (across, 4), (bottom, 1))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addLayout(head)
        layout.addWidget(down, 1)
        self._show(None)

    # -- inputs ---------------------------------------------------------------------------------------------
    def set_pack(self, pack: Pack | None, budget: int | None = None) -> None:
        """Measure ``pack`` now when the tab is on screen, else the next time it is shown."""
        self.pack = pack
        if budget is not None:
            self.budget = budget
        self._stale = True
        if pack is None:
            self._latest = 0
            self._show(None)
            return
        if self.isVisible():
            self.run()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._stale and self.pack is not None:
            self.run()

    def shutdown(self) -> None:
        self.pool.clear()
        self.pool.waitForDone(5000)

    # -- measuring ------------------------------------------------------------------------------------------
    def run(self) -> int:
        """Measure the pack's coverage now; returns the request id (0 when there is no pack)."""
        if self.pack is None:
            return 0
        self._stale = False
        self.summary.setText(f"{html.escape(short_line(self.pack.name))}: resolving every known task ...")
        self._latest = submit(measure, self.pack, self.budget, self.session, on_done=self._done,
                              on_error=self._failed, pool=self.pool)
        return self._latest

    def _done(self, request_id: int, answer: object) -> None:
        if request_id == self._latest and isinstance(answer, CoverageAnswer):
            self._show(answer)
            self.measured.emit()

    def _failed(self, request_id: int, trace: str) -> None:
        if request_id == self._latest:
            self.error = trace
            self.summary.setText("Measuring coverage failed; see the log.")
            self.measured.emit()

    def _show(self, answer: CoverageAnswer | None) -> None:
        self.answer, self.draft, self.error = answer, None, ""
        self.model.set_report(answer.report if answer else None, answer.clusters if answer else [])
        self._fill_clusters(answer.clusters if answer else [])
        self.summary.setText(_summary_html(answer, self.model.hidden_files) if answer else
                             "No pack selected." if self.pack is None else "Not measured yet.")
        self.detail.setPlainText("\n".join(answer.report.notes) if answer else "")
        header = self.table.horizontalHeader()
        for column, width in enumerate((40, 330, 60, 50)):
            if column < self.model.columnCount():
                header.resizeSection(column, width)
        for column in range(len(FIXED_COLUMNS), self.model.columnCount()):
            header.resizeSection(column, FILE_COLUMN_WIDTH)
        if self.model.rowCount():
            self.table.selectRow(0)
        self._update_buttons()

    def _fill_clusters(self, clusters: list[GapCluster]) -> None:
        self.clusters.clear()
        for cluster in clusters:
            lead = cluster.tasks[0]
            shown = printable(lead.text)  # recorded queries are anybody's text
            top = QTreeWidgetItem([shown if len(cluster.tasks) == 1 else
                                   f"{shown}  (+{len(cluster.tasks) - 1} similar)", str(cluster.size)])
            top.setData(0, CLUSTER_ROLE, lead.id)
            top.setToolTip(0, as_typed(shown + ("\nshared terms: " + printable(", ".join(cluster.terms))
                                                if cluster.terms else "")))
            for task in cluster.tasks[1:]:
                child = QTreeWidgetItem([printable(task.text), str(task.count)])
                child.setData(0, CLUSTER_ROLE, task.id)
                child.setToolTip(0, as_typed(printable(task.text)))
                top.addChild(child)
            self.clusters.addTopLevelItem(top)

    # -- selection and drafts -------------------------------------------------------------------------------
    def selected_task(self) -> CoverageTask | None:
        rows = self.table.selectionModel().selectedRows()
        task = self.model.data(rows[0], TASK_ROLE) if rows else None
        return task if isinstance(task, CoverageTask) else None

    def select_task(self, task_id: str) -> bool:
        row = self.model.row_of(task_id)
        if row >= 0:
            self.table.selectRow(row)
            self.table.scrollTo(self.model.index(row, 1))
        return row >= 0

    def _cluster_chosen(self, item: QTreeWidgetItem | None, _previous: QTreeWidgetItem | None) -> None:
        if item is not None:
            self.select_task(str(item.data(0, CLUSTER_ROLE)))

    def _selection_changed(self, _selected: QItemSelection, _deselected: QItemSelection) -> None:
        self.draft = None
        task = self.selected_task()
        if task is not None:
            lines = [task.text, "", ("answered" if task.answered else "GAP") + f" ({task.source}, asked "
                     f"{task.count}x, from {task.origin or 'unknown'})", f"why: {task.why}"]
            lines += [f"{'answered by' if task.answered else 'picked, lacks terms'}: {p}" for p in task.by]
            if not task.answered:
                lines += ["", "Make draft plans a draft page and an eval case for it (a preview; nothing is written)."]
            self.detail.setPlainText("\n".join(lines))
        self._update_buttons()

    def make_draft(self) -> GapDraft | None:
        """Plan the draft for the selected gap and show its diff (a dry run: nothing is written)."""
        task = self.selected_task()
        if self.pack is None or task is None or task.answered:
            return None
        try:
            self.draft = draft_gap(self.pack, task.text)
        except ValueError as exc:
            self.draft = None
            self.detail.setPlainText(f"No draft: {exc}")
        else:
            self.detail.setPlainText(f"Preview (nothing written yet; Write draft writes these "
                                     f"{len(self.draft.edits)} files):\n\n{self.draft.diff()}")
        self._update_buttons()
        return self.draft

    def write_draft(self) -> bool:
        """Write the previewed draft atomically; a file changed since the preview is not overwritten."""
        if self.pack is None or self.draft is None:
            return False
        draft, self.draft = self.draft, None
        try:
            written = apply_draft(self.pack, draft)
        except OSError as exc:
            self.detail.setPlainText(f"Not written: {exc}. Make the draft again to see the file as it is now.")
            self._update_buttons()
            return False
        self.detail.setPlainText("Written:\n" + "\n".join(str(p) for p in written))
        self.run()
        return True

    def _update_buttons(self) -> None:
        task = self.selected_task()
        self.draft_button.setEnabled(self.pack is not None and task is not None and not task.answered)
        self.write_button.setEnabled(self.draft is not None)


def _summary_html(answer: CoverageAnswer, hidden_files: int) -> str:
    report = answer.report
    s = report.summary()
    if not s["tasks"]:
        return f"<b>{html.escape(short_line(report.pack))}</b>: no known tasks (no eval suites, recorded queries or " \
               "ontology coverage rows)."
    text = (f"<b>{html.escape(short_line(report.pack))}</b>: {s['tasks']:,} tasks, "
            f"<span style='color:#2e7d32'>{s['answered']:,} answered</span>, "
            f"<span style='color:#c62828'>{s['gaps']:,} gaps</span> in {len(answer.clusters):,} clusters; "
            f"{len(report.never_selected):,} files no task selects")
    if report.skipped:
        text += f"; {len(report.skipped):,} inputs skipped"
    if hidden_files:
        text += f" ({hidden_files:,} more files not shown as columns)"
    return text
