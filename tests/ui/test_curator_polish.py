"""Curator polish in the window (issue #34): what a day of real curation tripped over."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QPlainTextEdit

from studio.core.diagnostics import DiagnosticCounts
from studio.core.runs.stats import RunStats, TimePoint
from studio.ui.main_window import MainWindow
from studio.ui.models.diagnostics_table import counts_text
from studio.ui.panels.run_stats_view import over_time_bars

WRAP = QPlainTextEdit.LineWrapMode.WidgetWidth
NO_WRAP = QPlainTextEdit.LineWrapMode.NoWrap


def test_markdown_wraps_by_default_and_alt_z_toggles_it(qtbot, open_and_wait, window: MainWindow,
                                                         examples_copy: Path) -> None:
    open_and_wait(window, [examples_copy])
    pack = examples_copy / "northwind-espresso"
    data = next(pack.rglob("*.json"))
    window.open_file(pack / "KNOWLEDGE.md", 1)
    window.open_file(data, 1)
    markdown, json_tab = window.editors.tab_for(pack / "KNOWLEDGE.md"), window.editors.tab_for(data)
    assert markdown is not None and json_tab is not None
    assert markdown.editor.lineWrapMode() == WRAP, "prose wraps at the editor's width"
    assert json_tab.editor.lineWrapMode() == NO_WRAP, "data files keep their lines"
    toggle = window.window_actions.soft_wrap
    assert toggle.shortcut() == QKeySequence("Alt+Z") and toggle.isChecked()
    assert toggle in window.menuBar().actions()[2].menu().actions(), "listed in the View menu"
    toggle.trigger()
    assert markdown.editor.lineWrapMode() == NO_WRAP
    other = next(p for p in pack.rglob("*.md") if p.name != "KNOWLEDGE.md")
    window.open_file(other, 1)
    assert all(t.editor.lineWrapMode() == NO_WRAP for t in window.editors.tabs()), "a tab opened later follows"
    toggle.trigger()
    assert markdown.editor.lineWrapMode() == WRAP and json_tab.editor.lineWrapMode() == NO_WRAP


def test_the_editor_in_front_follows_the_pack_picked_in_the_tree(qtbot, open_and_wait, window: MainWindow,
                                                                   examples_copy: Path) -> None:
    open_and_wait(window, [examples_copy])
    first, second, third = (examples_copy / n for n in ("northwind-espresso", "atlas-lending-policy",
                                                        "orbit-launch-notes"))
    window.open_file(first / "KNOWLEDGE.md", 1)

    def front() -> Path | None:
        tab = window.editors.current_tab()
        return tab.path if tab is not None else None

    window.workspace_panel.select_pack(second)
    qtbot.waitUntil(lambda: front() == second / "KNOWLEDGE.md", timeout=5000)
    assert window.inspector.pack is not None and window.inspector.pack.root == second
    # Running on through the tree replaces the guide opened by following; the one opened by the user stays.
    window.workspace_panel.select_pack(third)
    qtbot.waitUntil(lambda: front() == third / "KNOWLEDGE.md", timeout=5000)
    assert sorted(t.path.parent.name for t in window.editors.tabs()) == ["northwind-espresso",
                                                                          "orbit-launch-notes"]
    # A pack whose tab is open already comes to the front; no new tab.
    window.workspace_panel.select_pack(first)
    qtbot.waitUntil(lambda: front() == first / "KNOWLEDGE.md", timeout=5000)
    assert window.editors.count() == 2


def test_tallies_in_the_window_take_the_number_of_their_count() -> None:
    assert counts_text(DiagnosticCounts(errors=1, warnings=2, infos=1)) == "1 error, 2 warnings, 1 info"
    bars = over_time_bars(RunStats(over_time=[TimePoint("2026-05-01", "runs/a.json", "context", 1, 1)]))
    assert bars[0].note == "1 warning, 1 gap"


def test_who_sees_it_fits_its_dock_and_counts_the_user_scope(
        qtbot, open_and_wait, window: MainWindow, examples_copy: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    shutil.copytree(examples_copy / "northwind-espresso", home / ".agents" / "knowledge" / "northwind-espresso")
    monkeypatch.setenv("HOME", str(home))
    window.resize(1280, 720)
    open_and_wait(window, [examples_copy])
    assert window.session.request.home == home, "the user scope is in the window's workspace, as in the CLI"
    dock = window.docks["visibility"]
    dock.show()
    dock.raise_()
    window.workspace_panel.select_pack(examples_copy / "northwind-espresso")
    view = window.visibility
    qtbot.waitUntil(lambda: view.report is not None and view.report.name == "northwind-espresso", timeout=5000)
    assert {r.scope.value for r in view.report.roots if r.copies} == {"explicit", "user"}
    qtbot.wait(50)
    for tree in (view.roots, view.contexts):
        shown = [c for c in range(tree.columnCount()) if not tree.isColumnHidden(c)]
        assert sum(tree.columnWidth(c) for c in shown) <= tree.viewport().width(), "no column runs off the dock"
        rows, item = 0, tree.topLevelItem(0)
        while item is not None:
            rows += 1
            item = tree.itemBelow(item)
        assert rows >= 2 and tree.height() >= tree.header().height() + rows * tree.fontMetrics().height(), \
            "every row is in view, not one row and a scroll bar"


def test_find_groups_of_same_name_packs_read_differently() -> None:
    from studio.core.search.query import SearchHit
    from studio.ui.models.search_results import SearchResultsModel

    def hit(root: str, pack: str = "acme") -> SearchHit:
        return SearchHit(pack, root, "KNOWLEDGE.md", 3, None, "guide", 1.0, "warranty")

    model = SearchResultsModel()
    model.set_hits([hit("/ws/v0.4.0/acme"), hit("/ws/v0.7.2/acme"), hit("/ws/other", "other")])
    groups = [model.index(row, 0).data() for row in range(model.rowCount())]
    assert groups == ["acme — v0.4.0/acme  (1)", "acme — v0.7.2/acme  (1)", "other  (1)"]
