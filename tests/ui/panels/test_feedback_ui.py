"""Feedback in the window's pieces: the resolver row menu, the recorder, the "Use feedback" switch, Runs ▸ Feedback."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from studio.core.feedback import record_feedback
from studio.core.pack import load_pack
from studio.ui.feedback_recorder import FeedbackRecorder, FeedbackRequest
from studio.ui.models.candidates import ROW_ROLE, CandidateRow
from studio.ui.panels.feedback_view import CONFIDENCE_COLUMN, FeedbackView
from studio.ui.panels.resolver_panel import ResolverPanel
from studio.ui.panels.runs_panel import RunsPanel

TASK = "What are the boiler specifications and the warranty terms?"
WARRANTY = "compiled/splits/product-brief/warranty.md"


@pytest.fixture
def pack_root(examples_copy: Path) -> Path:
    return examples_copy / "northwind-espresso"


@pytest.fixture
def panel(qtbot, pack_root: Path) -> Iterator[ResolverPanel]:
    widget = ResolverPanel([load_pack(pack_root)])
    qtbot.addWidget(widget)
    widget.inputs.task.setPlainText(TASK)
    with qtbot.waitSignal(widget.result_shown, timeout=10000):
        widget.inputs.set_budget(4000)
    qtbot.waitUntil(lambda: not widget.background_pending, timeout=10000)
    yield widget
    widget.shutdown()


def _index_of(panel: ResolverPanel, path: str):  # noqa: ANN202 - a QModelIndex
    for row in range(panel.proxy.rowCount()):
        index = panel.proxy.index(row, 0)
        data = index.data(ROW_ROLE)
        if isinstance(data, CandidateRow) and data.decision.path == path:
            return index
    raise AssertionError(f"{path} is not in the table")


def test_row_menu_emits_a_feedback_request(qtbot, panel: ResolverPanel, pack_root: Path) -> None:
    menu = panel.row_menu(_index_of(panel, WARRANTY))
    assert menu is not None
    labels = [a.text() for a in menu.actions() if a.text()]
    assert labels[1:] == ["Mark helpful for this task", "Mark harmful for this task"]
    helpful = next(a for a in menu.actions() if a.data() == "helpful")
    with qtbot.waitSignal(panel.feedback_requested) as emitted:
        helpful.trigger()
    request = emitted.args[0]
    assert isinstance(request, FeedbackRequest)
    assert (request.pack_root, request.file, request.outcome, request.query) == (
        pack_root.resolve(), WARRANTY, "helpful", TASK)
    assert request.trace_id is None and not (pack_root / "runs" / "feedback").exists()  # nothing written yet


def test_feedback_needs_a_task(qtbot, panel: ResolverPanel) -> None:
    with qtbot.waitSignal(panel.result_shown, timeout=10000):
        panel.inputs.task.setPlainText("   ")
    menu = panel.row_menu(_index_of(panel, "KNOWLEDGE.md"))
    assert menu is not None
    marks = [a for a in menu.actions() if a.data() in ("helpful", "harmful")]
    assert marks and not any(a.isEnabled() for a in marks)
    assert "Type a task first" in marks[0].toolTip()


def test_a_saved_run_gives_the_trace_id(qtbot, panel: ResolverPanel, pack_root: Path) -> None:
    [written] = panel.write_run_records()
    menu = panel.row_menu(_index_of(panel, WARRANTY))
    assert menu is not None
    with qtbot.waitSignal(panel.feedback_requested) as emitted:
        next(a for a in menu.actions() if a.data() == "harmful").trigger()
    assert emitted.args[0].trace_id == written.stem


def test_recorder_writes_off_the_gui_thread_and_reports(qtbot, pack_root: Path) -> None:
    recorder = FeedbackRecorder()
    request = FeedbackRequest("northwind-espresso", WARRANTY, "helpful", TASK, trace_id="context-x",
                              pack_root=pack_root)
    with qtbot.waitSignal(recorder.recorded, timeout=10000) as done:
        recorder.record(request)
    path = done.args[1]
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    assert (data["file"], data["outcome"], data["query"], data["trace_id"]) == (WARRANTY, "helpful", TASK, "context-x")
    bad = FeedbackRequest("northwind-espresso", "../outside.md", "helpful", TASK, pack_root=pack_root)
    before = sorted((pack_root / "runs").iterdir())
    with qtbot.waitSignal(recorder.failed, timeout=10000) as failed:
        recorder.record(bad)
    assert failed.args[0] is bad and "outside the pack" in failed.args[1]
    assert sorted((pack_root / "runs").iterdir()) == before


def test_use_feedback_switch_reranks_and_explains(qtbot, panel: ResolverPanel, pack_root: Path) -> None:
    assert panel.inputs.request().use_feedback is False
    for i in range(3):
        record_feedback(pack_root, WARRANTY, "helpful", f"{TASK} {i}")
    with qtbot.waitSignal(panel.result_shown, timeout=10000) as shown:
        panel.inputs.use_feedback.setChecked(True)
    result = shown.args[0]
    decision = next(d for p in result.packs for d in p.selected if d.path == WARRANTY)
    assert decision.feedback.startswith("Feedback: 3 helpful, 0 harmful")
    tip = _index_of(panel, WARRANTY).siblingAtColumn(7).data(Qt.ItemDataRole.ToolTipRole)
    assert "Feedback: 3 helpful" in tip


def test_recorded_feedback_reruns_when_feedback_is_used(qtbot, panel: ResolverPanel, pack_root: Path) -> None:
    with qtbot.waitSignal(panel.result_shown, timeout=10000):
        panel.inputs.use_feedback.setChecked(True)
    qtbot.waitUntil(lambda: not panel.background_pending, timeout=10000)
    menu = panel.row_menu(_index_of(panel, WARRANTY))
    assert menu is not None
    # The panel records through its own FeedbackRecorder (off the GUI thread) and tells Runs through runs_written.
    with qtbot.waitSignal(panel.runs_written, timeout=10000):
        next(a for a in menu.actions() if a.data() == "harmful").trigger()
    with qtbot.waitSignal(panel.result_shown, timeout=10000) as shown:
        pass  # the re-run the recorded feedback started
    decision = next(d for p in shown.args[0].packs for d in [*p.selected, *p.skipped] if d.path == WARRANTY)
    assert decision.feedback.startswith("Feedback: 0 helpful, 1 harmful")
    assert len(list((pack_root / "runs").glob("feedback-*.json"))) == 1  # written once


def test_runs_panel_shows_feedback_per_file(qtbot, qtmodeltester, pack_root: Path) -> None:
    for outcome, task in (("helpful", "boiler size"), ("helpful", "warranty length"), ("harmful", "price")):
        record_feedback(pack_root, WARRANTY, outcome, task)
    record_feedback(pack_root, "compiled/facts.md", "harmful", "boiler size")
    panel = RunsPanel()
    qtbot.addWidget(panel)
    with qtbot.waitSignal(panel.loaded, timeout=10000):
        panel.set_pack(load_pack(pack_root))
    view = panel.feedback_view
    qtmodeltester.check(view.model)
    rows = [[view.model.index(r, c).data() for c in range(4)] for r in range(view.model.rowCount())]
    assert rows == [[WARRANTY, "2", "1", "0.21"], ["compiled/facts.md", "0", "1", "0.00"]]
    assert "4 feedback record(s) about 2 file(s)" in view.title.text()
    assert [view.history.topLevelItem(i).text(2) for i in range(view.history.topLevelItemCount())] == [
        "price", "warranty length", "boiler size"]
    panel.set_kind_filter("feedback-record")
    assert len(panel.visible_records()) == 4


def test_feedback_view_empty_and_findings(qtbot, tmp_path: Path, pack_root: Path) -> None:
    view = FeedbackView()
    qtbot.addWidget(view)
    view.set_summary(None)
    assert "No feedback recorded yet" in view.title.text() and view.model.rowCount() == 0
    (pack_root / "runs" / "feedback-2026-05-01T10-00-00Z.json").write_text(json.dumps({
        "record": "feedback", "pack": "someone-else", "file": WARRANTY, "outcome": "helpful", "query": "q",
        "reviewer": "r", "timestamp": "2026-05-01T10:00:00Z"}, indent=2), encoding="utf-8")
    from studio.core.feedback import aggregate_feedback
    from studio.core.runs import read_runs

    view.set_summary(aggregate_feedback(read_runs(pack_root), "northwind-espresso", pack_root), pack_root)
    assert view.model.rowCount() == 0 and "1 not counted" in view.title.text()
    assert [d.code for d in view.findings.diagnostics] == ["feedback-other-pack"]
    with qtbot.waitSignal(view.open_file_requested) as opened:
        view.findings._activated(view.findings.topLevelItem(0))
    assert opened.args == [pack_root / "runs" / "feedback-2026-05-01T10-00-00Z.json", 3]
    assert CONFIDENCE_COLUMN == 3
