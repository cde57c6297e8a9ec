"""The Coverage tab of Evals mode, driven like a curator would: see the gaps first, in clusters, draft one, write it."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt

from studio.core.pack import load_pack
from studio.ui.models.coverage import FIXED_COLUMNS, GAP_COLOR
from studio.ui.panels.coverage_view import CoverageView
from studio.ui.panels.evals_panel import EvalsPanel

ASKED = ("Is the steam wand dishwasher safe?", "is the steam wand dishwasher safe",
         "Can I put the steam wand in the dishwasher, is it safe?",
         "How long does the Pro 2 take to heat up?")


def _plant_queries(root: Path, queries: tuple[str, ...] = ASKED) -> None:
    runs = root / "runs"
    runs.mkdir(exist_ok=True)
    for i, query in enumerate(queries):
        (runs / f"context-2026-11-0{i + 1}T10-00-00Z.json").write_text(
            json.dumps({"run_id": f"context-q{i}", "query": query, "status": "passed", "activated_packs": []}),
            encoding="utf-8")


def _shown_view(qtbot, root: Path) -> CoverageView:  # type: ignore[no-untyped-def]
    view = CoverageView()
    qtbot.addWidget(view)
    view.resize(1000, 600)
    view.set_pack(load_pack(root))
    with qtbot.waitSignal(view.measured, timeout=30000):
        view.show()
    return view


def test_gaps_come_first_and_similar_questions_are_one_cluster(qtbot, qtmodeltester, examples_copy: Path) -> None:
    root = examples_copy / "northwind-espresso"
    _plant_queries(root)
    view = _shown_view(qtbot, root)
    model = view.model
    qtmodeltester.check(model)
    assert view.answer is not None
    gaps = len(view.answer.report.gaps)
    assert gaps and model.rowCount() == len(view.answer.report.tasks)
    shown = [model.index(row, 0).data() for row in range(model.rowCount())]
    assert shown == ["gap"] * gaps + ["ok"] * (len(shown) - gaps)  # every gap above every answered task
    assert model.index(0, 0).data(Qt.ItemDataRole.ForegroundRole) == GAP_COLOR
    # The two wordings of the dishwasher question are one cluster of the left list, asked twice.
    top = [view.clusters.topLevelItem(i) for i in range(view.clusters.topLevelItemCount())]
    wand = [item for item in top if item is not None and "steam wand" in item.text(0).lower()]
    assert len(wand) == 1 and wand[0].childCount() >= 1 and int(wand[0].text(1)) >= 2
    # Choosing a cluster selects its leading task in the matrix; the matrix names files as columns.
    view.clusters.setCurrentItem(wand[0])
    chosen = view.selected_task()
    assert chosen is not None and "steam wand" in chosen.text.lower() and not chosen.answered
    assert model.columnCount() > len(FIXED_COLUMNS)
    assert "gaps" in view.summary.text() and "clusters" in view.summary.text()


def test_make_draft_previews_then_write_draft_writes_and_measures_again(qtbot, examples_copy: Path) -> None:
    root = examples_copy / "northwind-espresso"
    _plant_queries(root, ("Is the steam wand dishwasher safe?",))
    suite = root / "evals" / "answer-quality.json"
    suite_before = suite.read_bytes()
    errors_before = load_pack(root).counts.errors
    view = _shown_view(qtbot, root)
    assert view.select_task(next(t.id for t in view.answer.report.tasks if "dishwasher" in t.text))  # type: ignore[union-attr]
    assert view.draft_button.isEnabled() and not view.write_button.isEnabled()

    draft = view.make_draft()
    assert draft is not None and view.write_button.isEnabled()
    preview = view.detail.toPlainText()
    added = [line for line in preview.splitlines() if line.startswith("+") and not line.startswith("+++")]
    assert "nothing written" in preview and f"b/{draft.suite.path}" in preview and draft.page.path in preview
    assert any(draft.case_id in line for line in added) and any("dishwasher" in line for line in added)
    assert suite.read_bytes() == suite_before and not (root / draft.page.path).exists()  # a dry run

    with qtbot.waitSignal(view.measured, timeout=30000):
        assert view.write_draft()
    page = (root / draft.page.path).read_text(encoding="utf-8")
    assert "draft: true" in page and "dishwasher" in page
    after = suite.read_text(encoding="utf-8")
    assert after.startswith(suite_before.decode("utf-8").rstrip()[:200]) and draft.case_id in after
    assert load_pack(root).counts.errors == errors_before  # the draft leaves validate with no new error
    # A draft page does not close its own gap: the task is still listed as one after measuring again.
    task = next(t for t in view.answer.report.tasks if "dishwasher" in t.text)  # type: ignore[union-attr]
    assert not task.answered and not view.write_button.isEnabled()


def test_a_draft_over_a_suite_changed_since_the_preview_is_not_written(qtbot, examples_copy: Path) -> None:
    root = examples_copy / "northwind-espresso"
    _plant_queries(root, ("Is the steam wand dishwasher safe?",))
    view = _shown_view(qtbot, root)
    view.select_task(next(t.id for t in view.answer.report.tasks if "dishwasher" in t.text))  # type: ignore[union-attr]
    draft = view.make_draft()
    assert draft is not None
    suite = root / draft.suite.path
    suite.write_text(suite.read_text(encoding="utf-8") + "\n", encoding="utf-8")  # someone else saved it
    changed = suite.read_bytes()
    assert not view.write_draft()
    assert suite.read_bytes() == changed and "Not written" in view.detail.toPlainText()


def test_the_coverage_tab_measures_only_once_it_is_shown(qtbot, examples_copy: Path) -> None:
    panel = EvalsPanel()
    qtbot.addWidget(panel)
    panel.show()
    with qtbot.waitSignal(panel.finished, timeout=20000):
        panel.set_pack(load_pack(examples_copy / "northwind-espresso"))
    assert panel.coverage.pack is not None and panel.coverage.answer is None  # hidden tab: nothing resolved
    with qtbot.waitSignal(panel.coverage.measured, timeout=30000):
        panel.tabs.setCurrentWidget(panel.coverage)
    assert panel.coverage.answer is not None and panel.coverage.answer.report.tasks
