"""ClaimsView: the Review mode's Claims tab: a pack's claims, their disputes, and the steps of a dispute.

The table lists every claim (source map and ``ontology/claims.json``) with its status, evidence state and dispute;
the thread of the selected claim shows below it with the evidence excerpts inline. The form opens, comments on
or decides a dispute, and "Compare fences" shows what the agent sees for a task before and after the decision,
side by side. Reading claims and threads, writing a step and resolving the fences run in workers (a source map
can be megabytes; a resolve takes hundreds of milliseconds), never on the GUI thread.

Every text from the pack or from a record is shown through the terminal escaping (``studio.core.terminal``):
escape sequences and bidi controls appear as visible ``\\x1b`` / ``\\u202e`` marks, and table cells are cut to a
bounded length. Keyboard only: Tab moves table -> form -> fences, arrows move in the table, Ctrl+Return records,
and every field has an Alt mnemonic.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from studio.core.dispute_actions import FencePair, decision_fences, prepare_step, write_step
from studio.core.disputes import DECISIONS, Claim, ClaimIndex, DisputeError, Threads
from studio.core.disputes.listing import dispute_listing
from studio.core.disputes.render import thread_text
from studio.core.model import Pack
from studio.core.resources import in_builtin_scope
from studio.core.terminal import printable, printable_block
from studio.ui.buttons import command_button
from studio.ui.fit import wrap_label
from studio.ui.models.item_table import ItemTableModel
from studio.ui.pack_text_view import PackTextView
from studio.ui.panels.record_view import monospace_font
from studio.ui.row_table import record_table, size_columns
from studio.ui.workers import failure_line, next_request_id, submit

ACTIONS = (("open", "Open a dispute"), ("comment", "Comment"), ("decide", "Decide"))


@dataclass(frozen=True, slots=True)
class ClaimRow:
    claim: Claim
    dispute: str
    """``open``, ``decided: keep`` ... or empty when the claim was never disputed."""


@dataclass(frozen=True, slots=True)
class ClaimsRead:
    """What the worker read for one pack."""

    rows: list[ClaimRow]
    threads: Threads
    claims: ClaimIndex


def read_claim_rows(root: Path) -> ClaimsRead:
    """The pack's claims with their dispute state (worker side)."""
    threads, claims = dispute_listing(root)
    rows = []
    for claim in claims.claims.values():
        thread = threads.get(claim.claim_id)
        state = "" if thread is None else "open" if thread.is_open else f"decided: {thread.decision}"
        rows.append(ClaimRow(claim, state))
    rows.sort(key=lambda r: (r.dispute != "open", r.dispute == "", r.claim.claim_id))  # open disputes first
    return ClaimsRead(rows, threads, claims)


def record(root: Path, pack_name: str, claim_id: str, action: str, text: str, evidence: list[str],
           decision: str | None, new_text: str | None, author: str | None) -> Path | str:
    """Write one step (worker side): the record's path, or the reason it was refused (nothing written)."""
    try:
        step = prepare_step(root, pack_name, claim_id, action, text, evidence=evidence, decision=decision,
                            new_text=new_text, author=author)
        return write_step(root, step)
    except DisputeError as exc:
        return str(exc)


def compare(pack: Pack, task: str, claim_id: str, decision: str, new_text: str | None) -> FencePair | str:
    """The fences for ``task`` before and after a proposed decision (worker side; nothing written)."""
    try:
        step = prepare_step(pack.root, pack.name, claim_id, "decide", "(proposed decision)", decision=decision,
                            new_text=new_text, author="preview")
    except DisputeError as exc:
        return str(exc)
    return decision_fences(pack, task, step)


class ClaimsModel(ItemTableModel[ClaimRow]):
    columns = ("Claim", "Status", "Evidence", "Dispute", "Text")

    def cell(self, row: ClaimRow, column: int, role: int) -> Any:
        if role not in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return None
        # Cut, escaped and kept plain by ItemTableModel.data (the thread view shows the text whole).
        return (row.claim.claim_id, row.claim.status, row.claim.evidence_state or "-", row.dispute or "-",
                row.claim.text)[column]


class ClaimsView(QWidget):
    """Signals:
        loaded(): the claims of the current pack are in the table.
        recorded(Path): a step was written (the record's path).
        fences_shown(): the before/after fences are on screen.
    """

    loaded = Signal()
    recorded = Signal(Path)
    fences_shown = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.pack: Pack | None = None
        self.read: ClaimsRead | None = None
        self.last_message = ""
        self._pending = 0
        self._fence_request = 0
        self.heading = wrap_label(QLabel("Select a pack to see its claims."))
        self.model = ClaimsModel(self)
        self.table = record_table(self.model)
        size_columns(self.table.horizontalHeader(), (170, 80, 110, 100), stretch=4)
        self.table.selectionModel().selectionChanged.connect(lambda *_: self._show_thread())
        # Evidence excerpts are pack text: their blank runs are bounded. Wrapped at the widget's width.
        self.thread_view = PackTextView(font=monospace_font())
        self.thread_view.setPlaceholderText("The selected claim's dispute, with its evidence excerpts.")
        self.thread_view.setTabChangesFocus(True)

        self.action = QComboBox()
        for key, label in ACTIONS:
            self.action.addItem(label, key)
        self.action.currentIndexChanged.connect(lambda *_: self._action_changed())
        self.decision = QComboBox()
        self.decision.addItems(list(DECISIONS))
        self.decision.currentIndexChanged.connect(lambda *_: self._action_changed())
        self.author = QLineEdit()
        self.author.setPlaceholderText("your name (default: login name)")
        self.text = QPlainTextEdit()
        self.text.setTabChangesFocus(True)
        self.text.setPlaceholderText("Why (open, decide) or your position (comment)")
        self.text.setFixedHeight(self.fontMetrics().lineSpacing() * 3 + 12)
        self.new_text = QLineEdit()
        self.new_text.setPlaceholderText("the claim's new text (amend)")
        self.evidence = QLineEdit()
        self.evidence.setPlaceholderText("sources/spec.md:12, sources/notes.md")
        self.record_button = command_button("&Record step", self.record_step, "Write the step to runs/ (Ctrl+Return)")
        QShortcut(QKeySequence("Ctrl+Return"), self, self.record_step,
                  context=Qt.ShortcutContext.WidgetWithChildrenShortcut)
        form = QFormLayout()
        for label, field in (("&Step", self.action), ("De&cision", self.decision), ("&Author", self.author),
                             ("&Text", self.text), ("&New text", self.new_text), ("E&vidence", self.evidence)):
            buddy = QLabel(label)
            buddy.setBuddy(field)
            form.addRow(buddy, field)
        form.addRow(self.record_button)
        self.message = wrap_label(QLabel())
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form.addRow(self.message)

        self.task = QLineEdit()
        self.task.setPlaceholderText("a task, e.g. how big is the brew boiler")
        self.compare_button = command_button("Compare &fences", self.compare_fences,
                                             "What the agent sees for the task before and after the chosen decision")
        self.task.returnPressed.connect(self.compare_fences)
        task_row = QHBoxLayout()
        task_label = QLabel("Tas&k")
        task_label.setBuddy(self.task)
        task_row.addWidget(task_label)
        task_row.addWidget(self.task, 1)
        task_row.addWidget(self.compare_button)
        self.before = self._fence_pane()
        self.after = self._fence_pane()
        fences = QSplitter(Qt.Orientation.Horizontal)
        for title, pane in (("Before the decision", self.before), ("After the decision", self.after)):
            box = QWidget()
            box_layout = QVBoxLayout(box)
            box_layout.setContentsMargins(0, 0, 0, 0)
            box_layout.addWidget(QLabel(title))
            box_layout.addWidget(pane, 1)
            fences.addWidget(box)

        form_box = QWidget()
        form_box.setLayout(form)
        middle = QSplitter(Qt.Orientation.Horizontal)
        middle.addWidget(self.thread_view)
        middle.addWidget(form_box)
        middle.setSizes([560, 420])
        fence_box = QWidget()
        fence_layout = QVBoxLayout(fence_box)
        fence_layout.setContentsMargins(0, 0, 0, 0)
        fence_layout.addLayout(task_row)
        fence_layout.addWidget(fences, 1)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        split.addWidget(middle)
        split.addWidget(fence_box)
        split.setSizes([200, 260, 160])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.heading)
        layout.addWidget(split, 1)
        self.setTabOrder(self.table, self.thread_view)
        self._action_changed()
        self._enable(False)

    def _fence_pane(self) -> PackTextView:
        pane = PackTextView(font=monospace_font())  # wraps at the widget's width
        pane.setTabChangesFocus(True)
        return pane

    # -- the pack and its claims -------------------------------------------------------------------
    def set_pack(self, pack: Pack | None, *, reread: bool = False) -> None:
        """Show ``pack``'s claims (read in a worker); the same pack again only when ``reread``."""
        if pack is not None and self.pack is not None and pack.root == self.pack.root and not reread:
            return
        self.pack = pack
        if pack is None:
            self.model.set_items([])
            self.heading.setText("Select a pack to see its claims.")
            self._enable(False)
            return
        self.heading.setText(f"{printable(pack.name)}: reading claims ...")
        self._pending = submit(read_claim_rows, pack.root, on_done=self._claims_read,
                               on_error=lambda _id, trace: self._say(f"Claims could not be read: "
                                                                     f"{failure_line(trace)}"))

    def _claims_read(self, request_id: int, read: object) -> None:
        if request_id != self._pending or not isinstance(read, ClaimsRead) or self.pack is None:
            return
        keep = self.selected_claim()
        self.read = read
        self.model.set_items(read.rows)
        open_count = sum(1 for r in read.rows if r.dispute == "open")
        builtin = in_builtin_scope(self.pack.root)
        self.heading.setText(f"{printable(self.pack.name)}: {len(read.rows)} claim(s), {open_count} open "
                             "dispute(s)" + (" (built-in example: read-only)" if builtin else ""))
        rows = [i for i, r in enumerate(read.rows) if r.claim.claim_id == keep] or ([0] if read.rows else [])
        if rows:
            self.table.selectRow(rows[0])
        self._enable(bool(read.rows) and not builtin)
        self.compare_button.setEnabled(bool(read.rows))
        self._show_thread()
        self.loaded.emit()

    def select_claim(self, claim_id: str) -> bool:
        for row, item in enumerate(self.model.items):
            if item.claim.claim_id == claim_id:
                self.table.selectRow(row)
                return True
        return False

    def selected_claim(self) -> str | None:
        rows = self.table.selectionModel().selectedRows()
        return self.model.item(rows[0].row()).claim.claim_id if rows else None

    def _show_thread(self) -> None:
        claim_id = self.selected_claim()
        if claim_id is None or self.read is None:
            self.thread_view.setPlainText("")
            return
        claim = self.read.claims.get(claim_id)
        thread = self.read.threads.get(claim_id)
        files = list(claim.files) if claim is not None else []
        if thread is None:
            source = f"source {printable(claim.source)}" if claim is not None and claim.source else "no source"
            self.thread_view.setPlainText(f"{printable(claim_id)}: no dispute ({source})\n  claim: "
                                     f"{printable(claim.text if claim else '')}\n  compiled into: "
                                     f"{', '.join(printable(f) for f in files) or '-'}")
        else:
            self.thread_view.setPlainText(thread_text(thread, files))
        wanted = "open" if thread is None or not thread.is_open else "comment"
        self.action.setCurrentIndex(next(i for i, (k, _) in enumerate(ACTIONS) if k == wanted))

    # -- steps ---------------------------------------------------------------------------------------
    def _action_changed(self) -> None:
        deciding = self.action.currentData() == "decide"
        self.decision.setEnabled(deciding)
        self.new_text.setEnabled(deciding and self.decision.currentText() == "amend")
        self.evidence.setEnabled(not deciding)

    def _enable(self, enabled: bool) -> None:
        for widget in (self.action, self.author, self.text, self.evidence, self.record_button):
            widget.setEnabled(enabled)
        self.compare_button.setEnabled(enabled)
        if enabled:
            self._action_changed()
        else:
            self.decision.setEnabled(False)
            self.new_text.setEnabled(False)

    def record_step(self) -> None:
        """Write the step the form describes (in a worker); the message says what happened."""
        claim_id = self.selected_claim()
        if self.pack is None or claim_id is None or not self.record_button.isEnabled():
            return
        action = str(self.action.currentData())
        deciding = action == "decide"
        evidence = [] if deciding else [e.strip() for e in self.evidence.text().split(",") if e.strip()]
        new_text = self.new_text.text() if deciding and self.decision.currentText() == "amend" else None
        self.record_button.setEnabled(False)
        self._say("Recording ...")
        submit(record, self.pack.root, self.pack.name, claim_id, action, self.text.toPlainText(), evidence,
               self.decision.currentText() if deciding else None, new_text, self.author.text().strip() or None,
               on_done=self._recorded,
               on_error=lambda _id, trace: self._refused(f"failed: {failure_line(trace)}"))

    def _recorded(self, _request_id: int, result: object) -> None:
        if not isinstance(result, Path):
            self._refused(str(result))
            return
        self.record_button.setEnabled(True)
        self.text.clear()
        self.new_text.clear()
        self.evidence.clear()
        self._say(f"Recorded in {printable(str(result))}")
        self.recorded.emit(result)
        self.set_pack(self.pack, reread=True)

    def _refused(self, why: str) -> None:
        self.record_button.setEnabled(True)
        self._say(f"Not recorded: {printable(why)}; nothing written")

    def _say(self, text: str) -> None:
        self.last_message = text
        self.message.setText(text)

    # -- fences --------------------------------------------------------------------------------------
    def compare_fences(self) -> None:
        """Resolve the task before and after the chosen decision (in a worker) and show both fences."""
        claim_id = self.selected_claim()
        task = self.task.text().strip()
        if self.pack is None or claim_id is None or not task:
            self._say("Type a task and select a claim to compare fences.")
            return
        new_text = self.new_text.text() or "(amended text)" if self.decision.currentText() == "amend" else None
        self._say("Resolving the task before and after the decision ...")
        self._fence_request = request = next_request_id()
        submit(compare, self.pack, task, claim_id, self.decision.currentText(), new_text,
               on_done=self._fences_done, request_id=request,
               on_error=lambda _id, trace: self._say(f"The fences could not be resolved: {failure_line(trace)}"))

    def _fences_done(self, request_id: int, pair: object) -> None:
        if request_id != self._fence_request:
            return
        if not isinstance(pair, FencePair):
            self._say(f"No comparison: {printable(str(pair))}")
            return
        # The warnings first: they are where a decision shows (the fence ends with them, below the text).
        for pane, warnings, fence in ((self.before, pair.before_warnings, pair.before),
                                      (self.after, pair.after_warnings, pair.after)):
            listed = "\n".join(f"- {printable(w)}" for w in warnings) or "(none)"
            pane.setPlainText(f"Warnings ({len(warnings)}):\n{listed}\n\nFence:\n{printable_block(fence)}")
        gone = sum(1 for w in pair.before_warnings if w not in pair.after_warnings)
        added = sum(1 for w in pair.after_warnings if w not in pair.before_warnings)
        self._say(f"Decision '{self.decision.currentText()}': {gone} warning(s) gone, {added} added.")
        self.fences_shown.emit()
