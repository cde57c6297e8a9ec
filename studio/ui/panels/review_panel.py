"""ReviewPanel: the queue of disputed and needs-review packs, why each is there, and the curator's decision; and
the Claims tab (``claims_view``): the current pack's claims and the disputes about them.

Recording writes ``runs/review-<UTC>.json`` through the core and, only when the curator ticks it and
accepts the diff, the minimal ``status``/``trust`` edit of ``KNOWLEDGE.md`` (both atomic). The panel then says
what it wrote (in place and through ``status_message`` for the status bar), and the queue shows each pack's
last decision (who, when, what), read from the review records in a worker; a pack whose last decision still
stands (status and trust as it left them, no compile run since) is shown as decided.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QItemSelection, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QGroupBox,
    QHeaderView,
    QLabel,
    QListView,
    QListWidget,
    QListWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from studio.core.labels import PackLabel, pack_labels
from studio.core.model import TRUST_LEVELS, Pack
from studio.core.pack import load_pack
from studio.core.review import ReviewError, ReviewPlan, commit_review, plan_review
from studio.core.review_reasons import (
    REVIEW_STATUSES,
    LastDecision,
    ReviewReason,
    gather_review_reasons,
    in_review_queue,
    last_decision,
    review_queue,
)
from studio.core.runs import read_runs
from studio.ui.buttons import command_button
from studio.ui.fit import splitter, wrap_label
from studio.ui.mode_panel import Follows, ModePanel
from studio.ui.models.item_table import ItemTableModel
from studio.ui.panels.claims_view import ClaimsView
from studio.ui.panels.review_form import DiffDialog, ReviewForm
from studio.ui.row_table import record_table
from studio.ui.shown_text import as_typed, short_line
from studio.ui.turns import next_turn
from studio.ui.workers import LatestWork, next_request_id, submit

PACK_ROLE = Qt.ItemDataRole.UserRole + 50


_STATUS_COLORS = {"disputed": QColor("#c62828"), "needs-review": QColor("#b26a00"), "stale": QColor("#b26a00")}
DECIDED_COLOR = QColor("#8a8f98")
LAST_DECISION_COLUMN = 3


class ReviewQueueModel(ItemTableModel[Pack]):
    """Queued packs with each one's distinguishing label and last decision (filled in when read)."""

    columns = ("Pack", "Status", "Trust", "Last decision")
    item_role = PACK_ROLE

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.labels: dict[Any, PackLabel] = {}
        self.decisions: dict[Path, LastDecision | None] = {}
        """Pack root -> its last decision (None: never reviewed); a root not in it is still being read."""

    def set_decisions(self, decisions: dict[Path, LastDecision | None]) -> None:
        self.decisions.update(decisions)
        if self.items:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.items) - 1, len(self.columns) - 1))

    def decision(self, pack: Pack) -> LastDecision | None:
        return self.decisions.get(Path(pack.root))

    def decided(self, pack: Pack) -> bool:
        found = self.decision(pack)
        return found is not None and found.stands

    def cell(self, pack: Pack, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            label = self.labels.get(pack.root)
            return (label.text if label else pack.name, pack.status or "", pack.trust or "",
                    self._decision_text(pack))[column]
        if role == Qt.ItemDataRole.ForegroundRole:
            if self.decided(pack):
                return DECIDED_COLOR
            return _STATUS_COLORS.get(pack.status or "") if column == 1 else None
        if role == Qt.ItemDataRole.ToolTipRole:
            found = self.decision(pack)
            if column == LAST_DECISION_COLUMN and found is not None:
                state = ("It still stands: status and trust are as it left them." if found.stands else
                         f"Reopened since: {found.newer_run} was recorded after it." if found.newer_run else
                         "Status or trust changed since.")
                return f"{found.summary}\n{found.reason}\n{found.record}\n{state}"
            return f"{pack.scope.value} scope\n{pack.root}"
        return None

    def _decision_text(self, pack: Pack) -> str:
        root = Path(pack.root)
        if root not in self.decisions:
            return "reading…"
        found = self.decisions[root]
        if found is None:
            return "never reviewed"
        return f"\u2713 {found.summary}" if found.stands else found.summary


def _queue_of(packs: list[Pack]) -> tuple[dict[Any, PackLabel], list[Pack]]:
    """Labels for the name groups the queue can show, and every waiting pack (stale ones too) in queue order.

    Only those groups are labelled: labelling all 10,000 packs of a large workspace took half a second.
    """
    waiting = {p.name for p in packs if in_review_queue(p, True)}
    return pack_labels(p for p in packs if p.name in waiting), review_queue(packs, True)


def _decisions_for(packs: list[Pack]) -> dict[Path, LastDecision | None]:
    return {Path(p.root): last_decision(p) for p in packs}


def _reasons_for(pack: Pack) -> list[ReviewReason]:
    return gather_review_reasons(pack, read_runs(pack.root))


class ReviewPanel(ModePanel):
    """Queue on the left; reasons and the decision form for the selected pack on the right.

    Follows every pack: the queue is the workspace's disputed and needs-review packs. A recorded decision emits
    ``runs_written`` (the record) and, when it edited KNOWLEDGE.md, ``pack_changed``.

    Signals:
        reasons_loaded(): the reasons of the selected pack are on screen.
        review_recorded(Path, object): the record written and the edited ``KNOWLEDGE.md`` (or None).
        decisions_loaded(): the queue's Last decision column is filled in.
        diff_requested(object): show what changed in this Pack since its last review decision.
    """

    mode_title = "Review"
    mode_tip = "Review: disputed and needs-review packs, their reasons, and a recorded decision"
    follows = Follows.WORKSPACE | Follows.EVERY_PACK | Follows.SELECTION

    reasons_loaded = Signal()
    review_recorded = Signal(Path, object)
    decisions_loaded = Signal()
    diff_requested = Signal(object)

    def __init__(self, packs: list[Pack] | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.packs: list[Pack] = []
        self.pack: Pack | None = None
        self.reasons: list[ReviewReason] = []
        self.diff_dialog: DiffDialog | None = None
        self.last_error = ""
        self._pending = 0
        self._decisions_pending = 0
        self._decisions_all = False
        """Whether the latest read covers every queued pack (then older answers are stale)."""
        self._last_record: Path | None = None
        self._followed: Sequence[Pack] | None = None
        self._selecting = False
        """True while the panel selects a row itself (not the user): no ``pack_chosen`` then."""
        self._waiting: list[Pack] = []
        """Every pack waiting for review, stale ones included, most urgent first (``review_queue``)."""
        self._queue_work = LatestWork(self._queue_made)
        self.include_stale = QCheckBox("Include stale packs")
        self.include_stale.toggled.connect(lambda *_: self._refresh_queue())
        self.queue = ReviewQueueModel(self)
        self.table = record_table(self.queue)
        header = self.table.horizontalHeader()
        header.resizeSection(0, 160)
        # Status and trust are short words from the standard's lists: room for the longest, worked out once
        # (measuring the cells at each change of the queue asked Python for hundreds of them).
        metrics = self.table.fontMetrics()
        for column, words in ((1, REVIEW_STATUSES + ("stale",)), (2, TRUST_LEVELS)):
            header.resizeSection(column, max(metrics.horizontalAdvance(w) for w in words) + 24)
        header.setSectionResizeMode(LAST_DECISION_COLUMN, QHeaderView.ResizeMode.Stretch)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # labels differ at their ends
        self.table.selectionModel().selectionChanged.connect(self._selection_changed)
        self.queue_label = wrap_label(QLabel())
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.queue_label)
        left_layout.addWidget(self.include_stale)
        left_layout.addWidget(self.table, 1)

        self.heading = wrap_label(QLabel("Select a pack to review."))
        font = self.heading.font()
        font.setBold(True)
        self.heading.setFont(font)
        self.since_review = command_button(
            "Changes since the last review decision",
            lambda: self.diff_requested.emit(self.pack) if self.pack else None,
            "Compare the pack with the git commit of its last recorded review decision")
        self.since_review.setEnabled(False)
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
        self.notice = QLabel()
        self.notice.setStyleSheet("color: #2e7d32")
        self.notice.setWordWrap(True)
        self.notice.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.notice.hide()
        self.form.reset(enabled=False)
        reasons_box = QGroupBox("Why it is in the queue")
        QVBoxLayout(reasons_box).addWidget(self.reason_list)
        decision_box = QGroupBox("Decision")
        QVBoxLayout(decision_box).addWidget(self.form)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.heading)
        right_layout.addWidget(self.since_review, 0, Qt.AlignmentFlag.AlignLeft)
        right_layout.addWidget(reasons_box, 1)
        right_layout.addWidget(decision_box)
        right_layout.addWidget(self.problem)
        right_layout.addWidget(self.notice)
        split = splitter(Qt.Orientation.Horizontal, (left, 6), (right, 5))
        split.setSizes([420, 380])  # the queue's pack labels first; the splitter keeps what the user drags
        self.claims = ClaimsView()
        self.claims.recorded.connect(self._dispute_recorded)
        self.tabs = QTabWidget()
        self.tabs.addTab(split, "&Packs")
        self.tabs.addTab(self.claims, "&Claims")
        self.tabs.currentChanged.connect(lambda *_: self._claims_follow())
        self._selected: Pack | None = None
        """The window's current pack: the Claims tab shows its claims."""
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        self.set_packs(packs or [])

    # -- queue -------------------------------------------------------------------------------------
    def follow(self, packs: Sequence[Pack], selected: Pack | None) -> None:
        """The queue of the workspace's packs, with the window's current pack selected when it waits for review."""
        if packs is not self._followed:  # the same list: only the selection changed (nothing to read again)
            self._followed = packs
            self.set_packs(list(packs))
        if selected is not None:
            self._select_root(selected.root)
        self._selected = selected
        self._claims_follow()

    def show_claims(self) -> None:
        """Bring the Claims tab to the front (the window's current pack's claims)."""
        self.tabs.setCurrentWidget(self.claims)

    def _claims_follow(self) -> None:
        if self.tabs.currentWidget() is self.claims:  # read only when on screen
            self.claims.set_pack(self._selected or self.pack)

    def _dispute_recorded(self, path: Path) -> None:
        if self.claims.pack is not None:
            self.runs_written.emit(Path(self.claims.pack.root))
        self.status_message.emit(f"Dispute step recorded in {path.name}")

    def set_packs(self, packs: list[Pack]) -> None:
        """All packs of the workspace; the queue shows those waiting for review.

        Finding them and labelling them takes 50-60 ms at 10,000 packs, so a large workspace's queue is worked
        out in a worker thread; the old queue stays on screen meanwhile.
        """
        self.packs = list(packs)
        self._queue_work.run(len(self.packs), _queue_of, self.packs)

    def _queue_made(self, made: tuple[dict[Any, PackLabel], list[Pack]]) -> None:
        self.queue.labels, self._waiting = made
        self._refresh_queue(reread=True)  # records may have come and gone: read again, showing the old meanwhile

    def _refresh_queue(self, keep_root: Path | None = None, reread: bool = False) -> None:
        keep = str(keep_root) if keep_root is not None else str(self.pack.root) if self.pack else None
        stale = self.include_stale.isChecked()
        queued = [p for p in self._waiting if stale or p.status != "stale"]
        self.queue.set_items(queued)
        self._update_queue_label()
        unread = queued if reread else [p for p in queued if Path(p.root) not in self.queue.decisions]
        if unread:
            self._decisions_all = reread
            # Read a turn later: the queue's first paint comes first, instead of taking turns at the interpreter
            # lock with the reading (the longest stall switching to Review at 1,000 packs: 47 -> 38-41 ms).
            self._decisions_pending = request = next_request_id()

            def read_decisions() -> None:
                if request == self._decisions_pending:  # else a newer queue asked for its own
                    submit(_decisions_for, unread, on_done=self._decisions_done, request_id=request)

            next_turn(self, read_decisions)
        rows = [r for r, p in enumerate(queued) if str(p.root) == keep] or ([0] if queued else [])
        if rows:
            self._select_row(rows[0])  # the kept pack, else the first waiting one: reasons show at once
        else:
            self._show_pack(None)

    def _update_queue_label(self) -> None:
        queued = self.queue.items
        waiting = {s: sum(1 for p in queued if p.status == s) for s in ("disputed", "needs-review", "stale")}
        decided = sum(1 for p in queued if self.queue.decided(p))
        text = ", ".join(f"{n} {s}" for s, n in waiting.items() if n) or "Nothing waits for review."
        self.queue_label.setText(text + (f" ({decided} decided, shown in grey)" if decided else ""))

    def _decisions_done(self, request_id: int, decisions: object) -> None:
        # Every answer is kept (each covers its own packs); only one older than a later read of the same packs
        # could be stale, and it is: a read requested before the latest is dropped.
        if request_id < self._decisions_pending and self._decisions_all or not isinstance(decisions, dict):
            return
        self.queue.set_decisions(decisions)
        self._update_queue_label()
        self.decisions_loaded.emit()

    def queued_names(self) -> list[str]:
        return [p.name for p in self.queue.items]

    def select_pack(self, name: str) -> bool:
        for row, pack in enumerate(self.queue.items):
            if pack.name == name:
                self._select_row(row)
                return True
        return False

    def _select_root(self, root: Path) -> bool:
        for row, pack in enumerate(self.queue.items):
            if Path(pack.root) == Path(root):
                self._select_row(row)
                return True
        return False

    def _select_row(self, row: int) -> None:
        self._selecting = True
        try:
            self.table.selectRow(row)
        finally:
            self._selecting = False

    def _selection_changed(self, selected: QItemSelection, _deselected: QItemSelection) -> None:
        indexes = selected.indexes()
        pack = indexes[0].data(PACK_ROLE) if indexes else None
        self._show_pack(pack if isinstance(pack, Pack) else None)
        if isinstance(pack, Pack) and not self._selecting:
            self.pack_chosen.emit(Path(pack.root))  # the user's pick: the whole window follows

    def _show_pack(self, pack: Pack | None) -> None:
        if pack is not None and self.pack is not None and pack.root == self.pack.root and self.reasons:
            self.pack = pack
            return
        self.pack = pack
        self.reasons = []
        self.reason_list.clear()
        self.problem.hide()
        self.notice.hide()
        self.form.reset(enabled=pack is not None)
        self.since_review.setEnabled(pack is not None)
        if pack is None:
            self._pending = 0
            self.heading.setText("Select a pack to review.")
            return
        self._say_heading(pack, "reading reasons ...")
        self._pending = submit(_reasons_for, pack, on_done=self._reasons_done, on_error=self._reasons_failed)

    def _say_heading(self, pack: Pack, progress: str) -> None:
        """The heading: the pack, its status and trust (the author's values: short and escaped), ``progress``."""
        self.heading.setText(f"{self._label(pack)}: {short_line(pack.status or '(none)')}, "
                             f"trust {short_line(pack.trust or '(none)')}  -  {progress}")

    def _label(self, pack: Pack) -> str:
        label = self.queue.labels.get(pack.root)
        return short_line(label.text) if label is not None else self.pack_label(pack)

    def _reasons_done(self, request_id: int, reasons: object) -> None:
        if request_id != self._pending or self.pack is None or not isinstance(reasons, list):
            return
        self.reasons = reasons
        for reason in reasons:
            item = QListWidgetItem(short_line(f"{reason.kind}: {reason.summary}"))
            item.setToolTip(as_typed(f"{reason.file}:{reason.line}" if reason.file else reason.summary))
            item.setData(Qt.ItemDataRole.UserRole, reason)
            self.reason_list.addItem(item)
        pack = self.pack
        self._say_heading(pack, f"{len(reasons)} reason(s)")
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
        self._waiting = review_queue(self.packs, True)
        label = self.queue.labels.get(self.pack.root)
        message = _written_message(plan, written, root, label.text if label else reloaded.name)
        self.pack = None
        self.form.reset(enabled=False)
        self.queue.decisions.pop(root, None)  # re-read: the new record is its last decision now
        self._refresh_queue(keep_root=root)
        self._last_record = written[0]
        self.notice.setText(message)
        self.notice.show()
        if written[1] is not None:
            self.pack_changed.emit(root)
        self.review_recorded.emit(written[0], written[1])
        self.runs_written.emit(Path(root))
        self.status_message.emit(message)
        return written

    def last_record_path(self) -> Path | None:
        """The review record this panel wrote last (None before the first)."""
        return self._last_record

    def _problem(self, message: str) -> None:
        """Say why nothing was written, in place (a modal box would hide the reasons the curator needs)."""
        self.notice.hide()
        self.last_error = message
        self.problem.setText(f"Not recorded: {message}")
        self.problem.show()


def _written_message(plan: ReviewPlan, written: tuple[Path, Path | None], root: Path, label: str) -> str:
    """``Recorded "confirm" for acme in runs/review-….json; KNOWLEDGE.md now says status ready.``"""
    record = written[0]
    try:
        where = record.relative_to(root).as_posix()
    except ValueError:
        where = str(record)
    text = f"Recorded \u201c{plan.record.decision}\u201d for {label} in {where}"
    if written[1] is not None and plan.edit is not None:
        changes = ", ".join(f"{key} {new}" for key, (_old, new) in plan.edit.changes.items())
        text += f"; KNOWLEDGE.md now says {changes}"
    return text + "."
