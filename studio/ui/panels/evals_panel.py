"""EvalsPanel: run a pack's eval suites, see each case pass or fail, and compare two configurations.

A run reads the suite and evaluates it in a one-thread pool that owns a ResolverSession (the session is not
thread-safe, and its caches make the next run cheap); only the answer to the newest request is shown.
Configuration A is the working tree with the chosen budget, profile and ranking; B is another configuration
or the last recorded run of the suite, and the table then shows per-case deltas. Nothing here writes except
"Record run" (``runs/``) and ``add_case_from_result`` (``evals/answer-quality.json``), both on request.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QItemSelection, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QSpinBox,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from studio.core.evals.authoring import CaseAddition, context_case_from_result, prepare_case, write_case
from studio.core.evals.compare import CaseDelta, compare_runs
from studio.core.evals.model import ContextOutcome, DiscoveryOutcome, EvalConfig
from studio.core.evals.records import summary_of, write_eval_record
from studio.core.evals.runner import LAST_RECORDED, PairResult, evaluate_pair
from studio.core.evals.suites import pack_suites
from studio.core.model import PROFILES, Pack
from studio.core.resolver import ResolveResult, ResolverSession
from studio.core.resolver.budget import DEFAULT_BUDGET, MAX_BUDGET, MIN_BUDGET
from studio.core.terminal import printable
from studio.core.tokens import DEFAULT_ENCODING
from studio.ui.buttons import command_button
from studio.ui.debounce import debounce_timer
from studio.ui.diff_preview import DiffPreviewDialog
from studio.ui.fit import FlowLayout, splitter, wrap_label
from studio.ui.mode_panel import Follows, ModePanel
from studio.ui.models.evals import CASE_ROLE, FILTERS, CaseFilterProxy, EvalCasesModel
from studio.ui.panels.coverage_view import CoverageView
from studio.ui.panels.handoffs import CaseFromResult, ResolveTask
from studio.ui.row_table import record_table, select_first, size_columns
from studio.ui.workers import serial_pool, submit

RANKINGS = ("bm25f", "bm25", "reference")
COMPARE_MODES = (("none", "No comparison"), ("config", "Configuration B"), ("last", "Last recorded run"))
DEBOUNCE_MS = 150


class ConfigBox(QGroupBox):
    """Budget, profile and ranking of one configuration."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(title, parent)
        # The same bounds and default as every --budget (studio.core.resolver.budget).
        self.budget = QSpinBox(minimum=MIN_BUDGET, maximum=MAX_BUDGET, singleStep=250, value=DEFAULT_BUDGET,
                               suffix=" tok")
        self.profile = QComboBox()
        self.profile.addItem("pack's profile", None)
        for p in PROFILES:
            self.profile.addItem(p, p)
        self.ranking = QComboBox()
        for r in RANKINGS:
            self.ranking.addItem(r, r)
        row = FlowLayout(self)
        row.setContentsMargins(6, 6, 6, 6)
        for label, widget in (("Budget", self.budget), ("Profile", self.profile), ("Ranking", self.ranking)):
            row.add_labelled(label, widget)

    def config(self, encoding: str) -> EvalConfig:
        return EvalConfig(self.budget.value(), self.profile.currentData(), encoding, self.ranking.currentData())

    def set_config(self, budget: int | None = None, profile: str | None = None, ranking: str | None = None) -> None:
        if budget is not None:
            self.budget.setValue(budget)
        if profile is not None:
            self.profile.setCurrentIndex(max(0, self.profile.findData(profile)))
        if ranking is not None:
            self.ranking.setCurrentIndex(max(0, self.ranking.findData(ranking)))


class EvalsPanel(ModePanel):
    """Suites of one pack, a table of cases, a filter, and a comparison of two configurations.

    Follows the selected pack (its suites) and re-runs when that pack changes on disk, so an edited split or
    description shows what got better or worse. A case opens in Resolve mode through a ``ResolveTask``
    handoff; Resolve hands over ``CaseFromResult`` to add a case from the current task.

    Signals:
        open_in_resolve(str, int, object): a case's prompt, budget and profile (or None) to open in Resolve mode.
        finished(): the table now shows the answer to the latest run.
        case_added(str): the id of a case ``add_case_from_result`` appended (after its preview was applied).
    """

    mode_title = "Evals"
    mode_tip = "Evals: measure whether the right pack is activated and the right context picked; compare two setups"
    # The workspace too: its packs compete in discovery cases (and a hidden panel lets go of a replaced one).
    follows = Follows.WORKSPACE | Follows.SELECTION | Follows.SELECTED_PACK

    open_in_resolve = Signal(str, int, object)
    finished = Signal()
    case_added = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.pack: Pack | None = None
        self.workspace: list[Pack] = []
        self.case_preview: DiffPreviewDialog | None = None  # the open "Add eval case" preview, if any
        self.encoding = DEFAULT_ENCODING
        self.result: PairResult | None = None
        self.error = ""
        self.session = ResolverSession()
        self.pool = serial_pool(self)  # the session belongs to one thread at a time
        self._latest = 0
        self._debounce = debounce_timer(self, DEBOUNCE_MS, self.run)

        self.title = wrap_label(QLabel("No pack selected."))
        self.suite_combo = QComboBox()
        self.suite_combo.setMinimumContentsLength(22)
        self.suite_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.run_button = command_button("Run", self.run,
                                         "Run the suite again (after editing a split, a description or the budget)")
        head = QHBoxLayout()
        head.addWidget(self.title, 1)
        head.addWidget(QLabel("Suite"))
        head.addWidget(self.suite_combo)
        head.addWidget(self.run_button)

        self.config_a = ConfigBox("A: working tree")
        self.config_b = ConfigBox("B")
        self.config_b.set_config(budget=2000)
        self.compare_mode = QComboBox()
        for key, text in COMPARE_MODES:
            self.compare_mode.addItem(text, key)
        # Two rows, so that the panel fits a 1024-pixel window.
        configs = QGridLayout()
        configs.addWidget(self.config_a, 0, 0, 1, 2)
        compare = QHBoxLayout()
        compare.addWidget(QLabel("compare with"))
        compare.addWidget(self.compare_mode)
        configs.addLayout(compare, 1, 0)
        configs.addWidget(self.config_b, 1, 1)
        configs.setColumnStretch(2, 1)

        self.filter = QComboBox()
        for mode in FILTERS:
            self.filter.addItem(mode.capitalize(), mode)
        self.summary = QLabel()
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.summary.setWordWrap(True)
        bar = QHBoxLayout()
        bar.addWidget(QLabel("Show"))
        bar.addWidget(self.filter)
        bar.addWidget(self.summary, 1)

        self.model = EvalCasesModel(self)
        self.proxy = CaseFilterProxy(self)
        self.proxy.setSourceModel(self.model)
        self.table = record_table(self.proxy)
        size_columns(self.table.horizontalHeader(), (150, 90, 90, 80, 120, 90, 300), stretch=7)
        self.table.selectionModel().selectionChanged.connect(self._selection_changed)
        self.table.doubleClicked.connect(lambda _index: self.open_selected_in_resolve())
        self.detail = QTextBrowser()
        self.detail.setOpenLinks(False)
        split = splitter(Qt.Orientation.Vertical, (self.table, 3), (self.detail, 1))

        self.open_button = command_button("Open in Resolve", self.open_selected_in_resolve,
                                          "Open the selected case in Resolve mode with its prompt and budget")
        self.edit_button = command_button("Edit suite", self._edit_suite)
        self.record_button = command_button("Record run A", self.record_run,
                                            "Write run A under runs/ (the Runs mode charts pass rate and recall over "
                                            "time)")
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        for button in (self.open_button, self.edit_button, self.record_button):
            buttons.addWidget(button)

        layout = QVBoxLayout(self)
        layout.addLayout(head)
        layout.addLayout(configs)
        layout.addLayout(bar)
        cases = QWidget()
        cases_layout = QVBoxLayout(cases)
        cases_layout.setContentsMargins(0, 0, 0, 0)
        cases_layout.addWidget(split, 1)
        cases_layout.addLayout(buttons)
        self.coverage = CoverageView()  # the pack's known tasks, answered or not, and drafts for the gaps
        self.tabs = QTabWidget()
        self.tabs.addTab(cases, "Cases")
        self.tabs.addTab(self.coverage, "Coverage")
        layout.addWidget(self.tabs, 1)

        self.suite_combo.currentIndexChanged.connect(self._changed)
        self.compare_mode.currentIndexChanged.connect(self._compare_mode_changed)
        self.filter.currentIndexChanged.connect(lambda *_: self.proxy.set_mode(self.filter.currentData()))
        for box in (self.config_a, self.config_b):
            box.budget.valueChanged.connect(self._changed)
            box.profile.currentIndexChanged.connect(self._changed)
            box.ranking.currentIndexChanged.connect(self._changed)
        self._compare_mode_changed()
        self._show(None)

    # -- following the workspace -----------------------------------------------------------------------------
    def follow(self, packs: Sequence[Pack], selected: Pack | None) -> None:
        self.set_pack(selected, [p for p in packs if p.loads],
                      suite=self.suite_combo.currentData() if self.pack is not None and selected is not None
                      and self.pack.root == selected.root else None)

    def accept(self, request: object) -> bool:
        if not isinstance(request, CaseFromResult):
            return False
        if self.pack is None or self.pack.root != request.pack_root:
            owner = next((p for p in self.workspace if p.root == request.pack_root), None)
            if owner is None:
                self.title.setText("The pack of that resolve is not in the workspace.")
                return True
            self.set_pack(owner, self.workspace)
        self.add_case_from_result(request.result)
        return True

    def shutdown(self) -> None:
        self.pool.clear()
        self.pool.waitForDone(5000)
        self.coverage.shutdown()

    # -- inputs ---------------------------------------------------------------------------------------------
    def set_pack(self, pack: Pack | None, workspace: list[Pack] | None = None, suite: str | None = None) -> None:
        """Show ``pack``'s suites and run ``suite`` (default: the first); ``workspace`` packs compete in discovery."""
        self.pack = pack
        self.workspace = list(workspace or [])
        self.coverage.set_pack(pack, self.config_a.budget.value())
        self.suite_combo.blockSignals(True)
        self.suite_combo.clear()
        for rel in pack_suites(pack.root) if pack is not None else []:
            self.suite_combo.addItem(rel, rel)
        if suite is not None:
            self.suite_combo.setCurrentIndex(max(0, self.suite_combo.findData(suite)))
        self.suite_combo.blockSignals(False)
        if pack is None or self.suite_combo.count() == 0:
            self._latest = 0
            self._show(None)
            self.title.setText("No pack selected." if pack is None else
                               f"{self.pack_label(pack)}: no suites under evals/ (add a case from Resolve mode)")
            return
        self.run()

    def set_encoding(self, encoding: str) -> None:
        self.encoding = encoding
        self._changed()

    def set_compare(self, mode: str) -> None:
        """``none``, ``config`` (configuration B) or ``last`` (the last recorded run)."""
        self.compare_mode.setCurrentIndex(max(0, self.compare_mode.findData(mode)))

    def select_suite(self, rel: str) -> bool:
        index = self.suite_combo.findData(rel)
        if index >= 0:
            self.suite_combo.setCurrentIndex(index)
        return index >= 0

    def set_filter(self, mode: str) -> None:
        self.filter.setCurrentIndex(max(0, self.filter.findData(mode)))

    def _compare_mode_changed(self) -> None:
        # B's settings exist only when B is a configuration: a disabled copy of A's box read as a second run.
        self.config_b.setVisible(self.compare_mode.currentData() == "config")
        self._changed()

    def _changed(self) -> None:
        if self.pack is not None and self.suite_combo.count():
            self._debounce.start()

    # -- running --------------------------------------------------------------------------------------------
    def run(self) -> int:
        """Evaluate the current suite now; returns the request id (0 when there is nothing to run)."""
        self._debounce.stop()
        rel = self.suite_combo.currentData()
        if self.pack is None or not rel:
            return 0
        mode = self.compare_mode.currentData()
        b: EvalConfig | str | None = (self.config_b.config(self.encoding) if mode == "config" else
                                      LAST_RECORDED if mode == "last" else None)
        self.title.setText(f"{self.pack_label(self.pack)}: running {rel} ...")
        self._latest = submit(evaluate_pair, self.pack, self.pack.root / rel, self.config_a.config(self.encoding), b,
                              self.workspace, self.session, on_done=self._done, on_error=self._failed, pool=self.pool)
        return self._latest

    def _done(self, request_id: int, result: object) -> None:
        if request_id != self._latest or not isinstance(result, PairResult):
            return  # overtaken by a newer run
        self._show(result)

    def _failed(self, request_id: int, trace: str) -> None:
        if request_id != self._latest:
            return
        self.error = trace
        self.title.setText("The eval run failed; see the log.")
        self.finished.emit()

    def _show(self, result: PairResult | None) -> None:
        self.result = result
        self.error = ""
        if result is None:
            self.model.set_cases([], False)
            self.summary.setText("")
            self.detail.setHtml("")
            return
        cases = result.comparison.cases if result.comparison else compare_runs(result.a, result.a).cases
        # The change always reads from the left column to the right one: A -> B, or recorded -> now.
        recorded = result.b is not None and bool(result.b.source)
        self.model.labels = ("recorded", "now") if recorded else ("A", "B")
        compared = result.comparison is not None
        if result.comparison is not None:
            self.model.descriptions = (result.comparison.label_a, result.comparison.label_b)
        self.model.set_cases(cases, compared)
        # Without a comparison there is one run: no B column and no change to show.
        for column in (2, 3):
            self.table.setColumnHidden(column, not compared)
        self.summary.setText(self._summary_html(result))
        pack_name = self.pack_label(self.pack) if self.pack else printable(result.a.pack)
        problems = len(result.suite.findings)
        self.title.setText(f"{pack_name}: {result.a.kind} suite, {len(cases)} case(s)"
                           + (f", {problems} finding(s) in the suite" if problems else ""))
        if self.proxy.rowCount():
            self.table.selectRow(0)
        else:
            self.detail.setHtml(self._findings_html(result))
        self.finished.emit()

    # -- reading the result ---------------------------------------------------------------------------------
    def visible_cases(self) -> list[CaseDelta]:
        return [self.proxy.index(row, 0).data(CASE_ROLE) for row in range(self.proxy.rowCount())]

    def selected_case(self) -> CaseDelta | None:
        rows = self.table.selectionModel().selectedRows()
        case = rows[0].data(CASE_ROLE) if rows else None
        return case if isinstance(case, CaseDelta) else None

    def select_case(self, case_id: str) -> bool:
        return select_first(self.table, CASE_ROLE, lambda case: isinstance(case, CaseDelta) and case.id == case_id)

    def _selection_changed(self, _selected: QItemSelection, _deselected: QItemSelection) -> None:
        case = self.selected_case()
        self.detail.setHtml(self._case_html(case) if case else "")

    def _summary_html(self, result: PairResult) -> str:
        notes = "".join(f"<br><span style='color:#b26a00'>{html.escape(n)}</span>" for n in result.a.notes)
        if result.b is None or result.comparison is None:
            parts = [f"<b>A</b> ({html.escape(result.a.config.label())}): {_summary_text(summary_of(result.a))}"]
            if result.note:
                parts.append(html.escape(result.note))
            return " &nbsp;|&nbsp; ".join(parts) + notes
        left, right = (result.b, result.a) if result.b.source else (result.a, result.b)
        names = self.model.labels
        parts = [f"<b>{names[0]}</b> ({html.escape(result.comparison.label_a)}): {_summary_text(summary_of(left))}",
                 f"<b>{names[1]}</b> ({html.escape(result.comparison.label_b)}): {_summary_text(summary_of(right))}"]
        counts = result.comparison.counts()
        changed = ", ".join(f"{n} {k}" for k, n in counts.items() if n and k != "unchanged") or "no change"
        parts.append(f"<b>cases</b>: {html.escape(changed)}")
        return " &nbsp;|&nbsp; ".join(parts) + notes

    def _case_html(self, case: CaseDelta) -> str:
        out = [f"<p><b>{html.escape(case.id)}</b>: {html.escape(case.prompt)}</p>"]
        runs = (case.a, case.b) if self.model.has_b else (case.a, None)  # one run: B is A's copy, not a run
        for label, outcome in zip(self.model.labels, runs, strict=True):
            if outcome is None:
                continue
            verdict = "passed" if outcome.passed else "<span style='color:#c62828'>failed</span>"
            if isinstance(outcome, DiscoveryOutcome):
                out.append(f"<p><b>{label}</b> {verdict}: expected {outcome.expected}, got {outcome.actual} (score "
                           f"{outcome.score:.2f}). {html.escape(outcome.reason)}</p>")
                continue
            policy = set(outcome.policy_loaded)
            picked = ", ".join(("<b>" if s.required else "") + html.escape(s.key) + ("</b>" if s.required else "")
                               for s in outcome.selected if s.key not in policy)
            out.append(f"<p><b>{label}</b> {verdict}, {outcome.tokens_used}/{outcome.budget} tokens. Picked for the "
                       f"task: {picked or '(nothing)'}</p>")
            if policy:
                out.append(f"<p>Loaded by policy: {html.escape(', '.join(outcome.policy_loaded))}</p>")
            if outcome.missed:
                missed = ", ".join(html.escape(m) for m in outcome.missed)
                out.append(f"<p style='color:#c62828'>Missed: {missed}</p>")
            if outcome.not_run:
                out.append(f"<p><i>Not run (needs a model): {html.escape(', '.join(outcome.not_run))}</i></p>")
        if case.entered or case.left:
            out.append(f"<p>{self.model.labels[1]} picks {html.escape(', '.join(case.entered) or 'nothing new')}; "
                       f"no longer "
                       f"{html.escape(', '.join(case.left) or 'anything')}.</p>")
        return "".join(out)

    def _findings_html(self, result: PairResult) -> str:
        if not result.suite.findings:
            return "<p>No cases to show.</p>"
        return "".join(f"<p>{d.line}:{d.column} {html.escape(d.severity.value)} {html.escape(d.code)}: "
                       f"{html.escape(d.message)}</p>" for d in result.suite.findings)

    # -- actions --------------------------------------------------------------------------------------------
    def open_selected_in_resolve(self) -> None:
        case = self.selected_case()
        if case is None:
            return
        outcome = case.a if case.a is not None and not (self.result and self.result.b and self.result.b.source) \
            else case.b
        budget = outcome.budget if isinstance(outcome, ContextOutcome) else self.config_a.budget.value()
        profile = (outcome.profile if isinstance(outcome, ContextOutcome) else None) or \
            self.config_a.profile.currentData()
        self.open_in_resolve.emit(case.prompt, budget, profile)
        self.handoff.emit("Resolve", ResolveTask(case.prompt, budget, profile))

    def _edit_suite(self) -> None:
        rel = self.suite_combo.currentData()
        if self.pack is None or not rel:
            return
        case = self.selected_case()
        line = 1
        if case is not None and self.result is not None:
            line = next((c.line for c in self.result.suite.cases if c.id == case.id), 1)
        self.open_file_requested.emit(self.pack.root / rel, line)

    def record_run(self) -> Path | None:
        """Write run A under ``runs/``; returns the path (None when there is nothing to record or it failed)."""
        if self.pack is None or self.result is None or not self.result.a.outcomes:
            return None
        try:
            path = write_eval_record(self.result.a, self.pack.root)
        except OSError as exc:
            self.title.setText(f"Could not record the run: {exc}")
            return None
        self.title.setText(f"Recorded {path.relative_to(self.pack.root).as_posix()}")
        return path

    def add_case_from_result(self, result: ResolveResult, files: list[str] | None = None) -> str | None:
        """Preview appending a case expecting ``result``'s picks (or ``files``) to ``evals/answer-quality.json``:
        the suite file's diff, written only on Apply (then the suite re-runs and ``case_added`` is emitted).

        Returns the id the case will get, or None (with the reason in the title) when it cannot be added.
        """
        if self.pack is None:
            return None
        case = context_case_from_result(result, self.pack.name, files=files)
        try:
            addition = prepare_case(self.pack, case)
        except (OSError, ValueError) as exc:
            self.title.setText(f"Could not add the case: {exc}")
            return None
        where = "a new file" if addition.old_text is None else "appended; the rest of the file is kept as it is"
        dialog = DiffPreviewDialog(
            "Add eval case", f"<b>Add case {html.escape(addition.case_id)}</b> to "
            f"<code>{html.escape(addition.suite)}</code>", addition.diff,
            f"Written to the pack when you apply ({where}).", self.window(), apply_text="Add case")
        dialog.accepted.connect(lambda: self._write_case(addition))
        dialog.finished.connect(dialog.deleteLater)
        self.case_preview = dialog
        dialog.open()
        return addition.case_id

    def _write_case(self, addition: CaseAddition) -> None:
        try:
            write_case(addition)
        except OSError as exc:
            self.title.setText(f"Could not add the case: {exc}")
            return
        if self.pack is not None and self.pack.root == addition.pack_root:
            self.set_pack(self.pack, self.workspace, addition.suite)
        self.case_added.emit(addition.case_id)


def _summary_text(summary: dict[str, object]) -> str:
    rate = summary.get("pass_rate")
    text = f"{summary.get('passed')}/{summary.get('total')} pass"
    if isinstance(rate, float | int):
        text += f" ({rate:.0%})"
    for key, label in (("context_recall", "recall"), ("mrr", "MRR"), ("precision", "precision"),
                       ("recall", "selection recall")):
        value = summary.get(key)
        if isinstance(value, float | int):
            text += f", {label} {value:.2f}"
    return html.escape(text)
