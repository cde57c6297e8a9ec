"""Resolve mode's Clients and Budget sweep tabs, driven like a user: open the tab, read the table and the plot."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.core.clients import CLIENT_NAMES
from studio.core.pack import load_pack
from studio.ui.panels.clients_view import DIVERGENT
from studio.ui.panels.resolve_extras import sweep_range
from studio.ui.panels.resolver_panel import ResolverPanel

TASK = "How long is the Northwind Pro 2 warranty and what does it cover?"


@pytest.fixture
def panel(qtbot, examples_copy: Path) -> Iterator[ResolverPanel]:
    widget = ResolverPanel([load_pack(examples_copy / "northwind-espresso")])
    qtbot.addWidget(widget)
    widget.inputs.task.setPlainText(TASK)
    with qtbot.waitSignal(widget.result_shown, timeout=10000):
        widget.inputs.set_budget(1500)
    yield widget
    widget.shutdown()


def test_the_clients_tab_compares_every_client_and_highlights_differences(qtbot, panel: ResolverPanel) -> None:
    view = panel.extras.clients
    assert view.comparison is None  # nothing runs while the tab is hidden
    panel.left_tabs.setCurrentWidget(view)
    qtbot.waitUntil(lambda: view.comparison is not None, timeout=20000)
    table = view.table
    assert [table.horizontalHeaderItem(c).text().split("\n")[0] for c in range(1, table.columnCount())] == list(
        CLIENT_NAMES)
    rows = {table.item(r, 0).text(): r for r in range(table.rowCount())}
    warranty = rows["compiled/splits/product-brief/warranty.md"]
    assert table.item(warranty, 1).text() == "\u2713"  # the studio loads the answer at 1,500 tokens
    assert table.item(warranty, 0).background().color() == DIVERGENT  # the reference CLI does not
    assert "ref-cli-0.7.2" in view.warnings.toPlainText()
    view.only_divergent.setChecked(True)
    assert table.rowCount() == len(view.comparison.divergences)


def test_the_sweep_tab_plots_and_lists_first_budgets(qtbot, panel: ResolverPanel) -> None:
    view = panel.extras.sweep
    panel.left_tabs.setCurrentWidget(view)
    qtbot.waitUntil(lambda: view.sweep is not None and view.ready, timeout=30000)
    sweep = view.sweep
    assert sweep is not None and [p.budget for p in sweep.points] == list(sweep_range(1500))
    assert sweep.required == ["compiled/splits/product-brief/warranty.md"]
    firsts = {view.firsts.item(r, 1).text(): view.firsts.item(r, 0).text() for r in range(view.firsts.rowCount())}
    assert "compiled/splits/product-brief/warranty.md  (required)" in firsts
    plot = view.plots.getItem(0, 0)
    assert plot is not None and len(plot.listDataItems()) == 2  # tokens used and the budget, on the left axis
    assert "Required context: 1 of 1" in view.caption.text()


def test_sweep_range_spans_twice_the_budget_in_round_steps() -> None:
    budgets = sweep_range(4000)
    assert budgets.start == 100 and budgets.stop > 8000 and budgets.step % 50 == 0
    assert len(budgets) <= 30
