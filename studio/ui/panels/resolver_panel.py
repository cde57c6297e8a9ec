"""ResolverPanel: the resolver simulator. Every input change re-runs ``resolve`` off the GUI thread.

Changes are debounced (``DEBOUNCE_MS``) and sent to a one-thread pool that owns the ResolverSession
(the session is not thread-safe, and its caches make re-runs cheap). Each request gets an id; only the
answer to the newest request is shown, and queued requests that were overtaken are dropped unrun.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QModelIndex, QPoint, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QMessageBox,
    QSizePolicy,
    QSplitter,
    QStyle,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from studio.core.diagnostics import counted
from studio.core.model import Pack
from studio.core.resolver import ResolveResult, ResolverSession
from studio.core.tokens import DEFAULT_ENCODING
from studio.ui.buttons import command_button
from studio.ui.debounce import debounce_timer
from studio.ui.feedback_recorder import FeedbackRecorder, FeedbackRequest
from studio.ui.fit import OutputBox, scroll_page, wrap_label
from studio.ui.mode_panel import Follows, ModePanel
from studio.ui.models.candidates import ROW_ROLE, CandidateFilterProxy, CandidateRow, CandidateTableModel
from studio.ui.panels._compare import Comparison, compare_results
from studio.ui.panels.budget_bar import BudgetBar, Segment, pack_color
from studio.ui.panels.candidate_menu import build_row_menu
from studio.ui.panels.handoffs import CaseFromResult, ResolveTask
from studio.ui.panels.layers_view import LayersView
from studio.ui.panels.resolve_extras import ResolveExtras
from studio.ui.panels.resolver_inputs import ResolverInputs
from studio.ui.panels.resolver_results import CompareView, FenceView, FindingsView, ReferenceView
from studio.ui.row_table import size_columns
from studio.ui.shown_text import as_typed
from studio.ui.workers import LatestWork, failure_line, next_request_id, serial_pool, submit

DEBOUNCE_MS = 50
FORM_FLOOR_LINES = 5
"""Lines of text the form keeps in sight however low the page (the pack in view and the task)."""
RESULT_ROWS = 6
"""Candidate rows the results keep in sight before the form above them gives way (it scrolls in its place):
the results are the mode's main output; at 1024x700 with Find in Workspace open they showed two rows."""
COUNT_STEP = 32
"""Candidates tokenized per background step: a few milliseconds, so a new request waits at most that long."""


def _rows_height(table: QTableView, rows: int) -> int:
    """The height ``table`` needs to show its header and ``rows`` rows, and a horizontal scroll bar."""
    scroll_bar = table.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
    return (table.horizontalHeader().sizeHint().height() + rows * table.verticalHeader().defaultSectionSize()
            + scroll_bar + 2 * table.frameWidth())


def _offered(packs: list[Pack], selected: Pack | None) -> tuple[list[Pack], list[str], Pack | None]:
    """The packs that load and their names (read here, off the GUI thread, for a large workspace), and the pack
    to activate."""
    usable = [p for p in packs if p.loads]
    return usable, [p.name for p in usable], selected


class ResolverPanel(ModePanel):
    """Inputs on top, then the budget bar, the candidate table and the result tabs.

    Follows the workspace (the packs that load are offered) and the selection (the selected pack is the one
    activated when the panel is seeded); see ``ModePanel`` for the shared signals.

    Signals:
        result_shown(object): the ResolveResult now on screen.
        run_saved(list): paths of the context records just written.
        feedback_requested(object): a ``FeedbackRequest`` from a row's context menu ("Mark helpful / harmful for
            this task"); connect it to ``FeedbackRecorder.record``, and the recorder's ``recorded`` / ``failed``
            back to ``note_feedback_recorded`` / ``note_feedback_failed``.
    """

    mode_title = "Resolve"
    mode_tip = "Resolve: simulate the resolver and see why each file was picked or skipped"
    follows = Follows.WORKSPACE | Follows.SELECTION

    result_shown = Signal(object)
    run_saved = Signal(list)
    feedback_requested = Signal(object)

    def __init__(self, packs: list[Pack] | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = ResolverSession()
        self._encoding = DEFAULT_ENCODING
        self._refresh_id = -1
        self.background_pending = False
        """True from a result with uncounted candidates until the refreshed, fully counted one is shown."""
        # A turn later: the panel's first paint comes first, instead of taking turns at the interpreter lock with
        # the worker (which made a 35 ms paint a 60 ms stall).
        self._offer_work = LatestWork(self._offer, self, later=True)
        self.pool = serial_pool(self)  # the session belongs to exactly one thread at a time
        self.result: ResolveResult | None = None
        self.pinned: ResolveResult | None = None
        self.pinned_label = ""
        self.comparison: Comparison | None = None
        self.error = ""
        self.dropped = 0
        """Answers that arrived after a newer request had been sent (counted, never shown)."""
        self._latest = 0
        self._sent_at = 0.0
        self.last_latency_ms = 0.0
        self._debounce = debounce_timer(self, DEBOUNCE_MS, self.run_now)

        self.header = wrap_label(QLabel())
        """Which pack the simulation starts from, by its distinguishing label (and why it is not offered)."""
        self.header.hide()
        self.inputs = ResolverInputs()
        self.inputs.changed.connect(self._debounce.start)
        self.status = wrap_label(QLabel())
        self.pin_button = command_button("Pin", self.pin, "Keep this result and compare every later run with it")
        self.unpin_button = command_button("Unpin", self.unpin)
        self.save_button = command_button("Save as run ...", self._save_clicked,
                                          "Write this resolution as runs/context-<time>.json into each pack that "
                                          "contributed context")
        # Feedback from the row menu is written off the GUI thread; Runs shows it through ``runs_written``.
        self.recorder = FeedbackRecorder(self)
        self.feedback_requested.connect(self.recorder.record)
        self.recorder.recorded.connect(self._feedback_written)
        self.recorder.failed.connect(self.note_feedback_failed)
        self.case_button = command_button("Add as eval case", self._case_clicked,
                                          "Add this task to the pack's answer-quality suite, expecting the files "
                                          "picked now (Evals mode)")
        buttons = QHBoxLayout()
        buttons.addWidget(self.status, 1)
        for button in (self.pin_button, self.unpin_button, self.save_button, self.case_button):
            buttons.addWidget(button)
        self.bar = BudgetBar()

        self.model = CandidateTableModel(self)
        self.proxy = CandidateFilterProxy(self)
        self.proxy.setSourceModel(self.model)
        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)  # selected first, in fence order
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setWordWrap(False)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        # Fixed widths: measuring ~500 rows on every re-run would cost more than the resolve itself.
        size_columns(self.table.horizontalHeader(), (64, 110, 0, 90, 48, 52, 44, 120), stretch=2)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.table.clicked.connect(self._row_clicked)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._show_row_menu)
        self.trace_ids: dict[str, str] = {}
        """Pack root -> run_id of the context record saved for the result on screen (a feedback's trace id)."""
        self.filter = QLineEdit(placeholderText="Filter by path, section, reason ...")
        self.filter.textChanged.connect(self.proxy.set_needle)
        self.show_selected = QCheckBox("selected")
        self.show_skipped = QCheckBox("skipped")
        for box in (self.show_selected, self.show_skipped):
            box.setChecked(True)
            box.toggled.connect(lambda *_: self.proxy.set_shown(self.show_selected.isChecked(),
                                                                self.show_skipped.isChecked()))
        filters = QHBoxLayout()
        filters.addWidget(self.filter, 1)
        filters.addWidget(self.show_selected)
        filters.addWidget(self.show_skipped)
        table_box = QWidget()
        table_layout = QVBoxLayout(table_box)
        table_layout.setContentsMargins(0, 0, 0, 0)
        table_layout.addLayout(filters)
        table_layout.addWidget(self.table, 1)
        self.table.setMinimumHeight(_rows_height(self.table, RESULT_ROWS))

        self.fence = FenceView()
        self.findings = FindingsView()
        self.compare = CompareView()
        self.reference = ReferenceView()
        self.tabs = QTabWidget()
        self.tabs.addTab(self.fence, "Fenced output")
        self.tabs.addTab(self.findings, "Warnings && gaps")
        self.tabs.addTab(self.compare, "Compare")
        self.tabs.addTab(self.reference, "Reference")
        # The L0 -> L1 -> L2 simulation of the same task: run only while its tab is in front.
        self.layers = LayersView()
        self.layers.open_location.connect(self.open_file_requested)
        self.layers_page = scroll_page(self.layers)  # its three lists need more height than a laptop has
        self.tabs.addTab(self.layers_page, "Layers")
        self.tabs.currentChanged.connect(lambda _i: self._simulate_layers())
        self.result_shown.connect(lambda _result: self._simulate_layers())
        self._layers_for: object = None
        # Candidates, clients side by side and the budget sweep share the wide side: they are tables and a plot.
        self.left_tabs = QTabWidget()
        self.left_tabs.addTab(table_box, "Candidates")
        self.extras = ResolveExtras(self.left_tabs, self.inputs.request, self)
        self.result_shown.connect(self.extras.show_result)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.left_tabs)
        split.addWidget(self.tabs)
        split.setStretchFactor(0, 2)  # the candidate table is what people read first
        split.setStretchFactor(1, 1)
        split.setSizes([700, 350])

        # The form scrolls in its place once the page is too low for it and RESULT_ROWS candidates: the results
        # (with their status line and budget bar) are what the mode is for, so they keep their rows. A layout
        # item with a stretch shrinks to its minimum before the others (Qt's box layout), so the form gives
        # way first; above its natural height the form stays put and the results take every pixel left.
        form = QWidget()
        form_layout = QVBoxLayout(form)
        form_layout.setContentsMargins(0, 0, 0, 0)
        form_layout.addWidget(self.header)
        form_layout.addWidget(self.inputs)
        self.form_area = scroll_page(form)
        self.form_area.setFrameShape(QFrame.Shape.NoFrame)
        self.form_area.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        self.form_area.setMinimumHeight(FORM_FLOOR_LINES * self.fontMetrics().height())
        output = OutputBox()
        output_layout = QVBoxLayout(output)
        output_layout.setContentsMargins(0, 0, 0, 0)
        output_layout.addLayout(buttons)
        output_layout.addWidget(self.bar)
        output_layout.addWidget(split, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.form_area)
        layout.addWidget(output, 1)
        # F5 (re-run) is the window's View ▸ Re-run the resolver, so Help ▸ Keyboard Shortcuts lists it.
        self._update_buttons()
        if packs is not None:
            self.set_packs(packs)

    # -- inputs ------------------------------------------------------------------------------------
    def follow(self, packs: Sequence[Pack], selected: Pack | None) -> None:
        """Offer the packs that load, with the selected one activated.

        Activating a whole large workspace is rarely the question: the resolver starts from the pack in
        view, and the user adds others in the panel. Picking the packs that load and reading their names took
        35 ms at 10,000 packs, so a large workspace's are picked in a worker thread.
        """
        self.show_pack_in_view(selected)
        self._offer_work.run(len(packs), _offered, list(packs), selected)

    def _offer(self, made: tuple[list[Pack], list[str], Pack | None]) -> None:
        usable, names, selected = made
        first = selected if selected is not None else next(iter(usable), None)
        self.inputs.set_packs(usable, {first.name} if first is not None else set(), names=names)

    def show_pack_in_view(self, pack: Pack | None) -> None:
        """Name the pack the simulation starts from (by its label: another pack may share its name)."""
        self.header.setVisible(pack is not None)
        if pack is None:
            return
        text = f"Pack in view: {self.pack_label(pack)}"
        if pack.shadowed_by is not None:
            text += f". This copy does not load (shadowed by {pack.shadowed_by}); the copy that wins its name is used."
        elif not pack.loads:
            text += ". It does not load (quarantined or skipped), so it is not offered below."
        self.header.setText(text)

    def set_packs(self, packs: list[Pack], checked: set[str] | None = None) -> None:
        """Offer ``packs`` for activation (a re-run follows)."""
        self._offer_work.cancel()  # a workspace still being picked in a worker is out of date
        self.inputs.set_packs(packs, checked)

    def run_now(self, *, refresh: bool = False) -> int:
        """Send the current form to the worker now; returns the request id.

        ``refresh`` re-runs the same form to show counts made in the background (the status keeps its text).
        """
        self._debounce.stop()
        request = self.inputs.request()
        self._encoding = request.encoding
        self._latest = request_id = next_request_id()
        self._refresh_id = request_id if refresh else -1
        self._sent_at = time.perf_counter()
        self.pool.clear()  # queued requests and counting steps that have not started are out of date
        if not refresh:
            self.status.setText("Resolving ...")
            self.trace_ids = {}  # a saved record describes the previous result, not the next one
        submit(self.session.resolve, request, on_done=self._done, on_error=self._failed, request_id=request_id,
               pool=self.pool)
        return request_id

    def _done(self, request_id: int, result: object) -> None:
        if request_id != self._latest or not isinstance(result, ResolveResult):
            self.dropped += 1
            return
        self.show_result(result)
        self.last_latency_ms = (time.perf_counter() - self._sent_at) * 1000
        self.background_pending = bool(result.uncounted) and request_id != self._refresh_id
        if self.background_pending:  # (a refresh never starts another round)
            self._count_some(request_id)

    # -- background counting -------------------------------------------------------------------------
    # The first resolve tokenizes only what the budget can reach; the rest is counted here in small steps
    # on the session's thread while the user is idle, so that the next slider move finds every count
    # cached and the table can show exact numbers. A new request clears the queued steps (run_now).
    def _count_some(self, request_id: int) -> None:
        step = functools.partial(self.session.count_pending, self._encoding, limit=COUNT_STEP)
        submit(step, on_done=self._counted, on_error=self._failed, request_id=request_id, pool=self.pool)

    def _counted(self, request_id: int, remaining: object) -> None:
        if request_id != self._latest:
            return  # a newer request is on its way; its answer starts counting again if needed
        if isinstance(remaining, int) and remaining > 0:
            self._count_some(request_id)
        else:
            self.run_now(refresh=True)  # every count is cached now: show them all (about 10 ms)

    def _failed(self, request_id: int, trace: str) -> None:
        if request_id != self._latest:
            return
        self.background_pending = False
        self.error = trace
        last = failure_line(trace)
        self.status.setText(f"The resolver failed: {last}")

    # -- results -----------------------------------------------------------------------------------
    def show_result(self, result: ResolveResult) -> None:
        self.result = result
        self.error = ""
        self.model.set_result(result)
        # With one pack activated its name on every row only takes room from the paths (the header names it).
        self.table.setColumnHidden(1, len(result.packs) <= 1)
        segments = [Segment(p.name, sum(d.tokens or 0 for d in p.selected), pack_color(i))
                    for i, p in enumerate(result.packs)]
        self.bar.set_usage(result.budget, result.tokens_used, segments)
        self.fence.show_result(result)
        self.findings.show_result(result)
        self.reference.show_result(result)
        selected = sum(len(p.selected) for p in result.packs)
        skipped = sum(len(p.skipped) for p in result.packs)
        pending = f"; counting {result.uncounted} more in the background" if result.uncounted else ""
        self.status.setText(f"{selected} selected, {skipped} skipped, {counted(len(result.warnings), 'warning')}, "
                            f"{counted(len(result.citation_gaps), 'citation gap')}{pending}")
        self._refresh_comparison()
        self._update_buttons()
        self.result_shown.emit(result)

    def selected_paths(self) -> list[str]:
        return [d.path for p in (self.result.packs if self.result else []) for d in p.selected]

    def pin(self) -> None:
        """Keep the result on screen now as the baseline for comparison."""
        if self.result is None:
            return
        self.pinned = self.result
        self.pinned_label = f"budget {self.result.budget:,}, {self.result.tokens_used:,} tokens"
        self._refresh_comparison()
        self.tabs.setCurrentWidget(self.compare)
        self._update_buttons()

    def unpin(self) -> None:
        self.pinned = None
        self._refresh_comparison()
        self._update_buttons()

    def _refresh_comparison(self) -> None:
        self.comparison = compare_results(self.pinned, self.result) if self.pinned and self.result else None
        self.compare.show_comparison(self.comparison, self.pinned_label)

    def _update_buttons(self) -> None:
        has_selection = bool(self.result and any(p.selected for p in self.result.packs))
        self.pin_button.setEnabled(self.result is not None)
        self.unpin_button.setEnabled(self.pinned is not None)
        self.save_button.setEnabled(has_selection)

    def _row_clicked(self, index: QModelIndex) -> None:
        row = index.data(ROW_ROLE)
        if not isinstance(row, CandidateRow) or self.result is None:
            return
        roots = {p.name: Path(p.pack.root) for p in self.result.packs}
        root = roots.get(row.decision.pack)
        if root is not None:
            line = row.decision.lines[0] if row.decision.lines else 1
            self.open_file_requested.emit(root / row.decision.path, line)

    # -- feedback from the row menu (recorded by whoever listens to feedback_requested) -------------------
    def row_menu(self, index: QModelIndex) -> QMenu | None:
        """The context menu for the row at ``index`` (None outside a row); ``_show_row_menu`` shows it."""
        row = index.data(ROW_ROLE) if index.isValid() else None
        if not isinstance(row, CandidateRow) or self.result is None:
            return None
        return build_row_menu(self, row, self.result, self.feedback_requested.emit,
                              lambda: self._row_clicked(index), self.trace_ids)

    def _show_row_menu(self, pos: QPoint) -> None:
        menu = self.row_menu(self.table.indexAt(pos))
        if menu is not None:
            menu.exec(self.table.viewport().mapToGlobal(pos))
            menu.deleteLater()

    def note_feedback_recorded(self, request: FeedbackRequest, path: object) -> None:
        """Say what was written; with "Use feedback" on, re-run so the ranking shows it."""
        self.status.setText(f"Recorded {request.outcome} for {request.file} ({Path(str(path)).name})")
        if self.inputs.use_feedback.isChecked():
            self._debounce.start()

    def _feedback_written(self, request: FeedbackRequest, path: object) -> None:
        self.note_feedback_recorded(request, path)
        self.runs_written.emit(Path(request.pack_root))

    def note_feedback_failed(self, request: FeedbackRequest, message: str) -> None:
        self.status.setText(f"Feedback for {request.file} was not recorded: {message}")

    def set_cache_dir(self, cache_dir: Path) -> None:
        """Where the Layers tab's search index lives (the app's cache folder, never a pack)."""
        self.layers.cache_dir = cache_dir

    def _simulate_layers(self) -> None:
        if (self.tabs.currentWidget() is self.layers_page and self.result is not None
                and self.result is not self._layers_for):
            self._layers_for = self.result
            self.layers.simulate_for(self.result)

    def accept(self, request: object) -> bool:
        if not isinstance(request, ResolveTask):
            return False
        self.inputs.set_task(request.task, request.budget, request.profile)
        return True

    def _case_clicked(self) -> None:
        if self.result is None:
            return
        picked = [p for p in self.result.packs if p.selected]
        if picked:
            self.handoff.emit("Evals", CaseFromResult(self.result, Path(picked[0].pack.root)))

    # -- save as run (explicit user action only) ---------------------------------------------------
    def _save_clicked(self) -> None:
        if self.result is None:
            return
        targets = [p.name for p in self.result.packs if p.selected]
        answer = QMessageBox.question(
            self, "Save as run",
            as_typed("Write this resolution as a context record into runs/ of: " + ", ".join(targets) + "?"))
        if answer == QMessageBox.StandardButton.Yes:
            self.write_run_records()

    def write_run_records(self) -> list[Path]:
        """Write the shown result's context record into each contributing pack (atomic, never overwrites)."""
        from studio.core.resolver.records import write_context_record

        if self.result is None:
            return []
        written: list[Path] = []
        problems: list[str] = []
        for res in self.result.packs:
            if not res.selected:
                continue
            try:
                written.append(write_context_record(self.result, Path(res.pack.root)))
                self.trace_ids[str(res.pack.root)] = written[-1].stem  # the record's run_id
            except OSError as exc:
                problems.append(f"{res.name}: {exc}")
        self.status.setText(f"Saved {len(written)} run record(s)" + (f"; failed: {'; '.join(problems)}"
                                                                      if problems else ""))
        self.run_saved.emit(written)
        for res in self.result.packs:
            if res.selected:
                self.runs_written.emit(Path(res.pack.root))
        return written

    def shutdown(self) -> None:
        """Stop the debounce and wait for the worker (call before the widget goes away)."""
        self._debounce.stop()
        for pool in (self.pool, self.extras.pool):
            pool.clear()
            pool.waitForDone(5000)
