"""The four modes of the window: switching keeps the docks, and the job panels follow the workspace."""

from __future__ import annotations

from pathlib import Path

from studio.ui.main_window import MainWindow


def _select(window: MainWindow, name: str) -> None:
    pack = next(p for p in window.session.packs.values() if p.name == name)
    window.workspace_panel.select_pack(pack.root)
    window._show_pack(pack)
    window._show_pack_views()  # what the next event-loop turns would do
    window._show_pack_jobs(pack)


def test_modes_are_disabled_until_a_workspace_is_open(window: MainWindow) -> None:
    assert [a.isEnabled() for a in window.mode_actions.values()] == [False] * 4
    assert window.center.currentWidget() is window.welcome


def test_resolve_mode_simulates_the_selected_pack(qtbot, open_and_wait, window: MainWindow,
                                                 examples_copy: Path) -> None:
    open_and_wait(window, [examples_copy])
    _select(window, "northwind-espresso")
    with qtbot.waitSignal(window.modes.resolver.result_shown, timeout=20_000) as shown:
        window.mode_actions["Resolve"].trigger()
    assert window.center.currentWidget() is window.modes.resolver
    assert window.docks["workspace"].isVisible() and window.docks["problems"].isVisible()
    assert not window.docks["inspector"].isVisible()  # the tables need the width
    result = shown.args[0]
    assert [p.name for p in result.packs] == ["northwind-espresso"]
    assert result.tokens_used <= result.budget
    window.mode_actions["Author"].trigger()
    assert window.center.currentWidget() is window.splitter and window.docks["inspector"].isVisible()


def test_a_panel_row_opens_the_file_in_author_mode(qtbot, open_and_wait, window: MainWindow,
                                                  examples_copy: Path) -> None:
    open_and_wait(window, [examples_copy])
    _select(window, "northwind-espresso")
    window.switch_mode("Runs")
    target = examples_copy / "northwind-espresso" / "runs" / "lint-2026-10-15.md"
    window.modes.runs.open_file_requested.emit(target, 3)
    assert window.center.currentWidget() is window.splitter
    tab = window.editors.current_tab()
    assert tab is not None and tab.path == target
    assert tab.editor.textCursor().blockNumber() == 2


def test_runs_mode_reads_the_selected_pack_only_when_shown(qtbot, open_and_wait, window: MainWindow,
                                                          examples_copy: Path) -> None:
    open_and_wait(window, [examples_copy])
    _select(window, "northwind-espresso")
    assert window.modes.runs.pack is None  # nothing read while the Runs mode is not on screen
    with qtbot.waitSignal(window.modes.runs.loaded, timeout=20_000):
        window.switch_mode("Runs")
    assert window.modes.runs.pack is not None and window.modes.runs.pack.name == "northwind-espresso"
    assert window.modes.runs.model.rowCount() == 4


def test_content_findings_are_there_from_the_scan_and_do_not_change_with_clicks(
        qtbot, open_and_wait, window: MainWindow, examples_copy: Path) -> None:
    """Every validation runs the content checks: the scan already has them, and opening a pack (which reloads it
    with the content checks) leaves the counts the CLI prints unchanged (issue #12)."""
    open_and_wait(window, [examples_copy])

    def counts() -> dict[str, tuple[str, ...]]:
        return {p.name: tuple(sorted(d.code for d in p.diagnostics)) for p in window.session.packs.values()}

    scanned = counts()
    assert "prompt-injection-text" in scanned["northwind-espresso"]
    _select(window, "northwind-espresso")
    qtbot.wait(1500)  # the pack in view is reloaded with its content checks in the background
    assert counts() == scanned
    rows = [window.problems.proxy.index(r, 1).data() for r in range(window.problems.proxy.rowCount())]
    assert "prompt-injection-text" in rows


def test_running_through_packs_renders_only_the_one_the_user_stops_at(
        qtbot, open_and_wait, window: MainWindow, examples_copy: Path, monkeypatch) -> None:  # noqa: ANN001
    open_and_wait(window, [examples_copy])
    shown: list[str] = []
    real = window.inspector.show_pack
    monkeypatch.setattr(window.inspector, "show_pack", lambda pack: (shown.append(pack.name), real(pack)))
    names = sorted(p.name for p in window.session.packs.values())
    for name in names:  # as fast as arrow keys: all within one turn of the event loop
        window.workspace_panel.select_pack(next(p.root for p in window.session.packs.values() if p.name == name))
    assert window.current_pack is not None and window.current_pack.name == names[-1]
    qtbot.waitUntil(lambda: shown == [names[-1]], timeout=5000)
