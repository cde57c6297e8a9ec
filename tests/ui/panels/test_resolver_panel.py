"""ResolverPanel driven like a user: move the budget, pin and compare, confirm disputed packs, save a run."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from panels_support import set_status
from PySide6.QtCore import Qt

from studio.core.pack import load_pack
from studio.ui.panels.budget_bar import pack_color
from studio.ui.panels.resolver_inputs import budget_to_slider, slider_to_budget
from studio.ui.panels.resolver_panel import ResolverPanel

TASK = "What are the boiler specifications and the warranty terms?"


@pytest.fixture
def panel(qtbot, examples_copy: Path) -> Iterator[ResolverPanel]:
    packs = [load_pack(examples_copy / name) for name in ("northwind-espresso", "orbit-launch-notes")]
    widget = ResolverPanel(packs)
    qtbot.addWidget(widget)
    widget.inputs.task.setPlainText(TASK)
    with qtbot.waitSignal(widget.result_shown, timeout=10000):
        widget.inputs.set_budget(4000)
    yield widget
    widget.shutdown()


def _shown_after(qtbot, panel: ResolverPanel, action) -> object:  # noqa: ANN001 - a callable
    # Let background counting finish first: its refreshed result would otherwise answer the wait.
    qtbot.waitUntil(lambda: not panel.background_pending, timeout=10000)
    with qtbot.waitSignal(panel.result_shown, timeout=10000) as shown:
        action()
    return shown.args[0]


def test_candidate_model_passes_the_model_tester(qtmodeltester, panel: ResolverPanel) -> None:
    qtmodeltester.check(panel.model)
    qtmodeltester.check(panel.proxy)


def test_slider_and_spin_box_stay_in_sync(panel: ResolverPanel) -> None:
    panel.inputs.slider.setValue(budget_to_slider(1500))
    assert panel.inputs.spin.value() == slider_to_budget(budget_to_slider(1500))
    panel.inputs.spin.setValue(25_000)
    assert panel.inputs.slider.value() == budget_to_slider(25_000)
    panel.inputs.slider.setValue(0)
    assert panel.inputs.spin.value() == 100
    panel.inputs.slider.setValue(panel.inputs.slider.maximum())
    assert panel.inputs.spin.value() == 200_000


def test_moving_the_budget_slider_changes_the_selection_and_the_bar(qtbot, panel: ResolverPanel) -> None:
    wide = panel.result
    assert wide is not None and wide.budget == 4000
    wide_paths = panel.selected_paths()
    wide_fraction = panel.bar.fraction
    narrow = _shown_after(qtbot, panel, lambda: panel.inputs.slider.setValue(budget_to_slider(1000)))
    assert narrow.budget == panel.inputs.budget < 1100
    assert len(panel.selected_paths()) < len(wide_paths)
    assert panel.bar.budget == narrow.budget and panel.bar.used == narrow.tokens_used <= narrow.budget
    assert panel.bar.fraction != wide_fraction
    assert panel.bar.segments[0].label == "northwind-espresso"
    over_budget = [panel.model.item(r).decision for r in range(panel.model.rowCount())
                   if panel.model.item(r).decision.reason == "over-budget"]
    assert over_budget, "what no longer fits is listed as skipped with its reason"
    assert f"{narrow.tokens_used:,} tokens" in panel.fence.count.text()
    image = panel.bar.grab().toImage()
    width = image.width() - 2  # the bar spans the widget less a 1 px frame each side
    first_pack = image.pixelColor(3, 10)
    assert first_pack == pack_color(0), "the first segment is painted in the first pack's colour"
    filled = round(width * narrow.tokens_used / narrow.budget)
    assert image.pixelColor(min(filled + 3, width - 2), 10) != first_pack, "the bar stops where the used tokens end"
    assert panel.fence.text.toPlainText() == narrow.fenced_text


def test_pin_and_compare_shows_what_entered_and_left(qtbot, panel: ResolverPanel) -> None:
    panel.pin()
    pinned = panel.result
    assert panel.comparison is not None and panel.comparison.unchanged
    _shown_after(qtbot, panel, lambda: panel.inputs.set_budget(1000))
    comparison = panel.comparison
    assert comparison is not None and comparison.left and not comparison.entered
    assert comparison.tokens_delta == panel.result.tokens_used - pinned.tokens_used < 0
    assert "left" in panel.compare.summary.text() and f"{comparison.tokens_delta:+,}" in panel.compare.summary.text()
    left_group = panel.compare.tree.topLevelItem(1)
    assert left_group.childCount() == len(comparison.left)
    assert left_group.child(0).text(3) == "over-budget"
    _shown_after(qtbot, panel, lambda: panel.inputs.set_budget(4000))
    assert panel.comparison.unchanged
    panel.unpin()
    assert panel.comparison is None


def test_latest_request_wins(qtbot, panel: ResolverPanel) -> None:
    for budget in (500, 900, 1300, 2100, 2900):
        panel.inputs.set_budget(budget)
        panel.run_now()
    qtbot.waitUntil(lambda: panel.result is not None and panel.result.budget == 2900, timeout=10000)
    panel.pool.waitForDone(5000)
    qtbot.wait(20)  # let any queued answer arrive; it must not replace the newest result
    assert panel.result.budget == 2900 and panel.inputs.budget == 2900


def test_an_answer_to_an_older_request_is_dropped(qtbot, panel: ResolverPanel) -> None:
    old_result = panel.result
    newer = _shown_after(qtbot, panel, lambda: panel.inputs.set_budget(1500))
    dropped = panel.dropped
    panel._done(panel._latest - 1, old_result)  # a slow worker finally answers an out-of-date request
    assert panel.result is newer and panel.dropped == dropped + 1
    assert panel.bar.budget == 1500


def test_clicking_a_row_opens_the_file_at_its_section(qtbot, panel: ResolverPanel) -> None:
    row = next(r for r in range(panel.proxy.rowCount()) if panel.proxy.index(r, 2).data() == "KNOWLEDGE.md")
    with qtbot.waitSignal(panel.open_file_requested) as opened:
        panel.table.clicked.emit(panel.proxy.index(row, 2))
    path, line = opened.args
    assert path == panel.inputs.packs[0].root / "KNOWLEDGE.md" and line >= 1


def test_sorting_by_tokens_survives_a_re_run(qtbot, panel: ResolverPanel) -> None:
    panel.table.sortByColumn(5, Qt.SortOrder.DescendingOrder)

    def tokens() -> list[int]:
        return [panel.model.item(r).decision.tokens or -1 for r in range(panel.model.rowCount())]

    assert tokens() == sorted(tokens(), reverse=True)
    _shown_after(qtbot, panel, lambda: panel.inputs.set_budget(1200))
    assert tokens() == sorted(tokens(), reverse=True)
    panel.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
    flags = [panel.model.item(r).selected for r in range(panel.model.rowCount())]
    assert flags == sorted(flags, reverse=True), "selected rows first"


def test_filter_narrows_the_candidate_table(panel: ResolverPanel) -> None:
    total = panel.proxy.rowCount()
    panel.filter.setText("splits")
    assert 0 < panel.proxy.rowCount() < total
    panel.filter.clear()
    panel.show_skipped.setChecked(False)
    assert panel.proxy.rowCount() == len(panel.selected_paths())


def test_disputed_pack_needs_explicit_confirmation(qtbot, panel: ResolverPanel, examples_copy: Path) -> None:
    disputed = set_status(examples_copy / "orbit-launch-notes", "disputed")
    panel.set_packs([load_pack(examples_copy / "northwind-espresso"), disputed], checked={"orbit-launch-notes"})
    qtbot.waitUntil(lambda: panel.result is not None and [p.name for p in panel.result.packs] == [disputed.name],
                    timeout=10000)
    assert panel.selected_paths() == []
    assert "status-gated" in {d.reason for d in panel.result.packs[0].skipped}
    result = _shown_after(qtbot, panel, lambda: panel.inputs.set_confirmed("orbit-launch-notes", True))
    assert result.packs[0].selected, "confirmed: the disputed pack now contributes context"
    assert any("disputed" in w.message for w in result.packs[0].warnings)


def test_reference_mode_shows_the_reference_pick(qtbot, panel: ResolverPanel) -> None:
    result = _shown_after(qtbot, panel, lambda: panel.inputs.reference.setChecked(True))
    assert result.reference is not None
    assert "reference picks" in panel.reference.summary.text()
    assert "resolve-context" in panel.reference.text.toPlainText()


def test_save_as_run_writes_a_context_record(panel: ResolverPanel) -> None:
    root = panel.inputs.packs[0].root
    before = set((root / "runs").iterdir())
    written = panel.write_run_records()
    assert len(written) == 1 and written[0].parent == root / "runs" and written[0] not in before
    record = json.loads(written[0].read_text(encoding="utf-8"))
    assert record["query"] == TASK
    assert record["activated_packs"][0]["selected_files"] == list(dict.fromkeys(panel.selected_paths()))


def test_skipped_rows_are_greyed(panel: ResolverPanel) -> None:
    row = next(r for r in range(panel.model.rowCount()) if not panel.model.item(r).selected)
    assert panel.model.index(row, 0).data(Qt.ItemDataRole.ForegroundRole) is not None


def test_counts_the_budget_ruled_out_are_shown_as_bounds_then_made_exact(qtbot, examples_copy: Path) -> None:
    """The first answer tokenizes only what fits; the table says so, and exact counts follow unasked."""
    widget = ResolverPanel([load_pack(examples_copy / "northwind-espresso")])
    qtbot.addWidget(widget)
    widget.inputs.task.setPlainText(TASK)
    with qtbot.waitSignal(widget.result_shown, timeout=10000) as shown:
        widget.inputs.set_budget(700)
    first = shown.args[0]
    assert first.uncounted > 0 and "counting" in widget.status.text()
    tokens_column = 5
    bounds = [r for r in range(widget.model.rowCount())
              if widget.model.index(r, tokens_column).data().startswith("\u2265")]
    assert bounds, "rows ruled out by their word count show a lower bound"
    tip = widget.model.index(bounds[0], tokens_column).data(Qt.ItemDataRole.ToolTipRole)
    assert "Not tokenized yet" in tip
    qtbot.waitUntil(lambda: not widget.background_pending, timeout=10000)
    final = widget.result
    assert final is not None and final is not first and final.uncounted == 0
    assert "counting" not in widget.status.text()
    cells = [widget.model.index(r, tokens_column).data() for r in range(widget.model.rowCount())]
    assert not any(c.startswith("\u2265") for c in cells)
    assert [d.path for p in final.packs for d in p.selected] == [d.path for p in first.packs for d in p.selected]
    assert final.tokens_used == first.tokens_used
    widget.shutdown()
