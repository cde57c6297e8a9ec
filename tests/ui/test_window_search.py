"""Search in the real window: Find in Workspace builds the index on first use and opens a hit at its line;
Resolve's Layers tab simulates the L0 -> L1 -> L2 path of the task on screen."""

from __future__ import annotations

from pathlib import Path

from studio.core.search.store import INDEX_FILE
from studio.ui.main_window import MainWindow


def test_find_in_workspace_builds_on_first_use_and_opens_the_hit(qtbot, open_and_wait, window: MainWindow,
                                                                 examples_copy: Path) -> None:
    open_and_wait(window, [examples_copy])
    assert not window.search_used and not window.docks["find"].isVisible()
    window.show()
    with qtbot.waitSignal(window.search.index_ready, timeout=60_000):
        window.window_actions.find_in_workspace.trigger()
    assert window.docks["find"].isVisible()
    index_file = window.search.cache_dir / INDEX_FILE
    assert index_file.is_file() and examples_copy not in index_file.parents  # the cache folder, never a pack
    panel = window.find_panel
    panel.query.setText("espresso")
    with qtbot.waitSignal(window.search.results, timeout=10_000):
        panel.search_now()
    qtbot.waitUntil(lambda: panel.result is not None and panel.result.query == "espresso", timeout=5_000)
    hit = panel.result.hits[0]  # type: ignore[union-attr]
    panel.open_location.emit(Path(hit.root) / hit.path, hit.line)
    tab = window.editors.current_tab()
    assert tab is not None and tab.editor.textCursor().blockNumber() == hit.line - 1


def test_the_layers_tab_runs_only_when_shown(qtbot, open_and_wait, window: MainWindow, examples_copy: Path) -> None:
    open_and_wait(window, [examples_copy])
    pack = next(p for p in window.session.packs.values() if p.name == "northwind-espresso")
    window.workspace_panel.select_pack(pack.root)
    resolver = window.modes.panel("Resolve")
    with qtbot.waitSignal(resolver.result_shown, timeout=20_000):  # type: ignore[attr-defined]
        window.switch_mode("Resolve")
    assert resolver.layers.result is None  # type: ignore[attr-defined]
    with qtbot.waitSignal(resolver.layers.result_shown, timeout=60_000) as shown:  # type: ignore[attr-defined]
        resolver.tabs.setCurrentWidget(resolver.layers_page)  # type: ignore[attr-defined]
    assert shown.args[0].decision in ("gap", "direct", "search")
