"""EvalsPanel driven like a curator would: run a suite, compare two budgets, filter, open a case, add one."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from studio.core.pack import load_pack
from studio.core.resolver import ResolveRequest, resolve
from studio.core.runs import read_runs
from studio.core.runs.stats import compute_stats
from studio.ui.models.evals import FAIL_COLOR
from studio.ui.panels.evals_panel import EvalsPanel
from studio.ui.panels.run_stats_view import RunStatsView


def _panel(qtbot, root: Path, compare: str = "none") -> EvalsPanel:  # type: ignore[no-untyped-def]
    panel = EvalsPanel()
    qtbot.addWidget(panel)
    panel.set_compare(compare)
    with qtbot.waitSignal(panel.finished, timeout=20000):
        panel.set_pack(load_pack(root))
    return panel


def _rerun(qtbot, panel: EvalsPanel) -> None:  # type: ignore[no-untyped-def]
    with qtbot.waitSignal(panel.finished, timeout=20000):
        panel.run()


def test_model_passes_the_model_tester_and_lists_the_suites(qtbot, qtmodeltester, examples_copy: Path) -> None:
    panel = _panel(qtbot, examples_copy / "northwind-espresso")
    suites = [panel.suite_combo.itemData(i) for i in range(panel.suite_combo.count())]
    assert suites == ["evals/discovery.train.json", "evals/discovery.validation.json", "evals/answer-quality.json"]
    assert panel.model.rowCount() == 6 and "discovery suite" in panel.title.text()
    qtmodeltester.check(panel.model)
    qtmodeltester.check(panel.proxy)


def test_compare_two_budgets_shows_what_got_worse(qtbot, examples_copy: Path) -> None:
    panel = _panel(qtbot, examples_copy / "atlas-lending-policy", compare="config")
    panel.config_b.set_config(budget=600)
    assert panel.select_suite("evals/answer-quality.json")
    _rerun(qtbot, panel)
    assert panel.result is not None and panel.result.comparison is not None
    panel.set_filter("regressed")
    worse = panel.visible_cases()
    assert worse and all(c.change == "regressed" for c in worse)
    row = panel.proxy.index(0, 6)
    assert "✗" in row.data() and row.data(Qt.ItemDataRole.ForegroundRole) == FAIL_COLOR
    assert "→" in panel.proxy.index(0, 4).data()  # recall A -> B
    assert "cases" in panel.summary.text() and "regressed" in panel.summary.text()
    panel.set_filter("all")
    assert len(panel.visible_cases()) == 6


def test_double_click_opens_the_case_in_resolve(qtbot, examples_copy: Path) -> None:
    panel = _panel(qtbot, examples_copy / "harbor-support-playbook")
    panel.select_suite("evals/answer-quality.json")
    _rerun(qtbot, panel)
    assert panel.select_case("refund-steps")
    with qtbot.waitSignal(panel.open_in_resolve) as opened:
        panel.table.doubleClicked.emit(panel.table.currentIndex())
    assert opened.args == ["What are the steps to handle a refund request?", 4000, None]
    assert "refund-workflow.md" in panel.detail.toPlainText()


def test_edit_a_split_and_compare_with_the_last_recorded_run(qtbot, examples_copy: Path) -> None:
    root = examples_copy / "northwind-espresso"
    panel = _panel(qtbot, root, compare="last")
    panel.select_suite("evals/answer-quality.json")
    _rerun(qtbot, panel)
    assert "No recorded run" in panel.summary.text()
    recorded = panel.record_run()
    assert recorded is not None and recorded.is_file()
    (root / "compiled/splits/product-brief/warranty.md").unlink()  # a split removed by a re-split
    _rerun(qtbot, panel)
    assert panel.model.labels == ("recorded", "now")
    changed = {c.id: c.change for c in panel.visible_cases()}
    assert changed["warranty-cover"] == "regressed"
    history = compute_stats(read_runs(root), root, "northwind-espresso").eval_history
    view = RunStatsView()
    qtbot.addWidget(view)
    view.set_stats(compute_stats(read_runs(root), root, "northwind-espresso"))
    assert len(history) == 1 and view.recall_chart.bars and view.eval_chart.bars


def test_add_a_case_from_the_current_resolve_task(qtbot, examples_copy: Path) -> None:
    root = examples_copy / "orbit-launch-notes"
    panel = _panel(qtbot, root)
    result = resolve(ResolveRequest("paid channels budget", [load_pack(root)], budget=3000))
    case_id = panel.add_case_from_result(result)
    assert case_id is not None and panel.case_preview is not None
    with qtbot.waitSignal(panel.finished, timeout=20000):
        qtbot.keyClick(panel.case_preview, Qt.Key.Key_Return)  # Return applies the preview
    assert panel.suite_combo.currentData() == "evals/answer-quality.json"
    assert panel.select_case(case_id)
    case = panel.selected_case()
    assert case is not None and case.a is not None and case.a.passed


def test_adding_a_case_shows_the_suite_diff_first_and_escape_writes_nothing(qtbot, examples_copy: Path) -> None:
    root = examples_copy / "orbit-launch-notes"
    suite = root / "evals" / "answer-quality.json"
    before = suite.read_bytes() if suite.exists() else None
    panel = _panel(qtbot, root)
    result = resolve(ResolveRequest("paid channels budget", [load_pack(root)], budget=3000))
    case_id = panel.add_case_from_result(result)
    dialog = panel.case_preview
    assert case_id is not None and dialog is not None and dialog.isVisible()
    diff = dialog.view.toPlainText()
    added = [line for line in diff.splitlines() if line.startswith("+") and not line.startswith("+++")]
    assert "evals/answer-quality.json" in diff and any(f'"id": "{case_id}"' in line for line in added)
    # Only added lines: the author's cases are not reformatted.
    assert not [line for line in diff.splitlines() if line.startswith("-") and not line.startswith("---")]
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert (suite.read_bytes() if suite.exists() else None) == before


def test_a_broken_suite_shows_its_findings(qtbot, examples_copy: Path) -> None:
    root = examples_copy / "lin-yue-persona"
    (root / "evals" / "discovery.train.json").write_text('{"pack_name": "lin-yue-persona", "cases": [\n  {"id": 1}',
                                                         encoding="utf-8")
    panel = _panel(qtbot, root)
    assert panel.model.rowCount() == 0 and "1 finding" in panel.title.text()
    assert "eval-suite-malformed-json" in panel.detail.toPlainText()


def test_one_run_shows_no_b_column_and_a_comparison_labels_every_column(qtbot, examples_copy: Path) -> None:  # type: ignore[no-untyped-def]
    panel = _panel(qtbot, examples_copy / "atlas-lending-policy")
    panel.select_suite("evals/answer-quality.json")
    _rerun(qtbot, panel)
    assert panel.table.isColumnHidden(2) and panel.table.isColumnHidden(3)  # no B, no change
    assert panel.model.index(0, 2).data() == "" and not panel.config_b.isVisibleTo(panel)
    assert "A passed" in panel.detail.toPlainText() and "B passed" not in panel.detail.toPlainText()
    assert panel.model.headerData(4, Qt.Orientation.Horizontal) == "Recall"
    panel.set_compare("config")
    panel.config_b.set_config(budget=600)
    _rerun(qtbot, panel)
    assert not panel.table.isColumnHidden(2) and panel.config_b.isVisibleTo(panel)
    header = [panel.model.headerData(c, Qt.Orientation.Horizontal) for c in range(panel.model.columnCount())]
    assert header[1:3] == ["A", "B"] and header[4] == "Recall (A→B)" and header[5] == "RR (A→B)"
    assert "600" in panel.model.headerData(2, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)


def test_a_shadowed_copy_shows_its_own_figures_and_says_it_is_shadowed(qtbot, examples_copy: Path,  # type: ignore[no-untyped-def]
                                                                       tmp_path: Path) -> None:
    import shutil

    from studio.core.shadowing import apply, settle

    first = examples_copy / "atlas-lending-policy"
    second = tmp_path / "copy" / "atlas-lending-policy"
    shutil.copytree(first, second)
    packs = [load_pack(first), load_pack(second)]
    shadowed = apply(packs, settle(packs))[1]
    assert shadowed.shadowed_by is not None
    panel = EvalsPanel()
    qtbot.addWidget(panel)
    with qtbot.waitSignal(panel.finished, timeout=20000):
        panel.set_pack(shadowed)
    panel.select_suite("evals/answer-quality.json")
    _rerun(qtbot, panel)
    assert "shadowed by" in panel.summary.text()
    assert panel.result is not None and any(o.selected for o in panel.result.a.context)
