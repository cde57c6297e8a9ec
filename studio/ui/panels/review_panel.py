"""ReviewPanel: the queue of disputed and needs-review packs, why each is there, and the curator's decision.

Recording writes ``runs/review-<UTC>.json`` through the core and, only when the curator ticks it and
accepts the diff, the minimal ``status``/``trust`` edit of ``KNOWLEDGE.md`` (both atomic).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from PySide6.QtCore import QItemSelection, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDialog,
    QGroupBox,
    QHeaderView,
    QLabel,
    QListView,
    QListWidget,
    QListWidgetItem,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from studio.core.model import Pack
from studio.core.pack import load_pack
from studio.core.review import ReviewError, ReviewPlan, commit_review, plan_review
from studio.core.review_reasons import ReviewReason, gather_review_reasons, review_queue
from studio.core.runs import read_runs
from studio.ui.panels._table import ItemTableModel, ModelIndex
from studio.ui.panels.review_form import DiffDialog, ReviewForm
from studio.ui.workers import submit

PACK_ROLE = Qt.ItemDataRole.UserRole + 50


_STATUS_COLORS = {"disputed": QColor("#c62828"), "needs-review": QColor("#b26a00"), "stale": QColor("#b26a00")}


class ReviewQueueModel(ItemTableModel[Pack]):
    columns = ("Pack", "Status", "Trust", "Scope")

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not self.valid(index):
            return None
        pack = self.items[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return (pack.name, pack.status or "", pack.trust or "", pack.scope.value)[index.column()]
        if role == Qt.ItemDataRole.ForegroundRole and index.column() == 1:
            return _STATUS_COLORS.get(pack.status or "")
        if role == Qt.ItemDataRole.ToolTipRole:
            return str(pack.root)
        if role == PACK_ROLE:
            return pack
        return None


def _reasons_for(pack: Pack) -> list[ReviewReason]:
    return gather_review_reasons(pack, read_runs(pack.root))


class ReviewPanel(QWidget):
    """Queue on the left; reasons and the decision form for the selected pack on the right.

    Signals:
        open_file_requested(Path, int): a file and a 1-based line the user asked to open.
        reasons_loaded(): the reasons of the selected pack are on screen.
        review_recorded(Path, object): the record written and the edited ``KNOWLEDGE.md`` (or None).
        pack_changed(Path): a pack's files changed on disk because of a review; the workspace should reload it.
    """

    open_file_requested = Signal(Path, int)
    reasons_loaded = Signal()
    review_recorded = Signal(Path, object)
    pack_changed = Signal(Path)

    def __init__(self, packs: list[Pack] | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.packs: list[Pack] = []
        self.pack: Pack | None = None
        self.reasons: list[ReviewReason] = []
        self.diff_dialog: DiffDialog | None = None
        self.last_error = ""
        self._pending = 0
        self.include_stale = QCheckBox("Include stale packs")
        self.include_stale.toggled.connect(lambda *_: self._refresh_queue())
        self.queue = ReviewQueueModel(self)
        self.table = QTableView()
        self.table.setModel(self.queue)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        self.table.setWordWrap(False)
        self.table.setMinimumWidth(400)  # room for the pack names; the splitter sizes from size hints
        header = self.table.horizontalHeader()
        for column, width in enumerate((0, 96, 104, 70)):
            if width:
                header.resizeSection(column, width)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.selectionModel().selectionChanged.connect(self._selection_changed)
        self.queue_label = QLabel()
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.queue_label)
        left_layout.addWidget(self.include_stale)
        left_layout.addWidget(self.table, 1)

        self.heading = QLabel("Select a pack to review.")
        font = self.heading.font()
        font.setBold(True)
        self.heading.setFont(font)
        self.reason_list = QListWidget()
        self.reason_list.setWordWrap(True)  # reasons are sentences; a list view wraps them, a tree would not
        self.reason_list.setResizeMode(QListView.ResizeMode.Adjust)
        self.reason_list.setSpacing(2)
        self.reason_list.setToolTip("Double-click a reason to open its file at the line")
        self.reason_list.itemActivated.connect(self._open_reason)
        self.reason_list.itemDoubleClicked.connect(self._open_reason)
        self.form = ReviewForm()
        self.form.record_requested.connect(self._record_clicked)
        self.problem = QLabel()
        self.problem.setStyleSheet("color: #c62828")
        self.problem.setWordWrap(True)
        self.problem.hide()
        self.form.reset(enabled=False)
        reasons_box = QGroupBox("Why it is in the queue")
        QVBoxLayout(reasons_box).addWidget(self.reason_list)
        decision_box = QGroupBox("Decision")
        QVBoxLayout(decision_box).addWidget(self.form)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.heading)
        right_layout.addWidget(reasons_box, 1)
        right_layout.addWidget(decision_box)
        right_layout.addWidget(self.problem)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(right)
        split.setStretchFactor(0, 2)
        split.setStretchFactor(1, 3)
        layout = QVBoxLayout(self)
        layout.addWidget(split)
        self.set_packs(packs or [])

    # -- queue -------------------------------------------------------------------------------------
    def set_packs(self, packs: list[Pack]) -> None:
        """All packs of the workspace; the queue shows those waiting for review."""
        self.packs = list(packs)
        self._refresh_queue()

    def _refresh_queue(self) -> None:
        keep = str(self.pack.root) if self.pack else None
        queued = review_queue(self.packs, self.include_stale.isChecked())
        self.queue.set_items(queued)
        waiting = {s: sum(1 for p in queued if p.status == s) for s in ("disputed", "needs-review", "stale")}
        self.queue_label.setText(", ".join(f"{n} {s}" for s, n in waiting.items() if n) or "Nothing waits for review.")
        rows = [r for r, p in enumerate(queued) if str(p.root) == keep] or ([0] if queued else [])
        if rows:
            self.table.selectRow(rows[0])  # the kept pack, else the first waiting one: reasons show at once
        else:
            self._show_pack(None)

    def queued_names(self) -> list[str]:
        return [p.name for p in self.queue.items]

    def select_pack(self, name: str) -> bool:
        for row, pack in enumerate(self.queue.items):
            if pack.name == name:
                self.table.selectRow(row)
                return True
        return False

    def _selection_changed(self, selected: QItemSelection, _deselected: QItemSelection) -> None:
        indexes = selected.indexes()
        pack = indexes[0].data(PACK_ROLE) if indexes else None
        self._show_pack(pack if isinstance(pack, Pack) else None)

    def _show_pack(self, pack: Pack | None) -> None:
        if pack is not None and self.pack is not None and pack.root == self.pack.root and self.reasons:
            self.pack = pack
            return
        self.pack = pack
        self.reasons = []
        self.reason_list.clear()
        self.problem.hide()
        self.form.reset(enabled=pack is not None)
        if pack is None:
            self._pending = 0
            self.heading.setText("Select a pack to review.")
            return
        self.heading.setText(f"{pack.name}: {pack.status}, trust {pack.trust or '(none)'}  -  reading reasons ...")
        self._pending = submit(_reasons_for, pack, on_done=self._reasons_done, on_error=self._reasons_failed)

    def _reasons_done(self, request_id: int, reasons: object) -> None:
        if request_id != self._pending or self.pack is None or not isinstance(reasons, list):
            return
        self.reasons = reasons
        for reason in reasons:
            item = QListWidgetItem(f"{reason.kind}: {reason.summary}")
            item.setToolTip(f"{reason.file}:{reason.line}" if reason.file else reason.summary)
            item.setData(Qt.ItemDataRole.UserRole, reason)
            self.reason_list.addItem(item)
        pack = self.pack
        self.heading.setText(f"{pack.name}: {pack.status}, trust {pack.trust or '(none)'}  -  "
                             f"{len(reasons)} reason(s)")
        self.reasons_loaded.emit()

    def _reasons_failed(self, request_id: int, trace: str) -> None:
        if request_id == self._pending:
            self.last_error = trace
            self.heading.setText("Reading the reasons failed.")
            self.reasons_loaded.emit()

    def _open_reason(self, item: QListWidgetItem) -> None:
        reason = item.data(Qt.ItemDataRole.UserRole)
        if isinstance(reason, ReviewReason) and reason.file and self.pack is not None:
            self.open_file_requested.emit(Path(self.pack.root) / reason.file, reason.line)

    # -- recording -------------------------------------------------------------------------------------
    def prepare(self) -> ReviewPlan:
        """What Record would write, computed now; raises ReviewError when it cannot be done as asked."""
        if self.pack is None:
            raise ReviewError("no pack is selected")
        status, trust = self.form.edits()
        examined = list(dict.fromkeys(r.file for r in self.reasons if r.file))
        return plan_review(Path(self.pack.root), self.form.decision, self.form.reason.toPlainText(),
                           reviewer=self.form.reviewer.text().strip() or None, set_status=status, set_trust=trust,
                           files_examined=examined)

    def _record_clicked(self) -> None:
        try:
            plan = self.prepare()
        except ReviewError as exc:
            self._problem(str(exc))
            return
        if plan.edit is not None:
            self.diff_dialog = DiffDialog(plan.edit.diff, self)
            accepted = self.diff_dialog.exec() == QDialog.DialogCode.Accepted
            self.diff_dialog = None
            if not accepted:
                return  # the curator backed out: nothing at all is written
        self.commit(plan)

    def commit(self, plan: ReviewPlan) -> tuple[Path, Path | None] | None:
        """Write ``plan`` (record, then the edit), reload the pack and refresh the queue."""
        if self.pack is None:
            return None
        root = Path(self.pack.root)
        try:
            written = commit_review(root, plan)
        except (ReviewError, OSError) as exc:
            self._problem(str(exc))
            return None
        reloaded = load_pack(root, self.pack.scope, self.pack.scope_root, content=True)
        self.packs = [reloaded if os.path.abspath(p.root) == os.path.abspath(root) else p for p in self.packs]
        self.pack = None
        self.form.reset(enabled=False)
        self._refresh_queue()
        if written[1] is not None:
            self.pack_changed.emit(root)
        self.review_recorded.emit(written[0], written[1])
        return written

    def _problem(self, message: str) -> None:
        """Say why nothing was written, in place (a modal box would hide the reasons the curator needs)."""
        self.last_error = message
        self.problem.setText(f"Not recorded: {message}")
        self.problem.show()
