"""The modes of the window: switching keeps the docks, and the job panels follow the workspace."""

from __future__ import annotations

import shutil
from pathlib import Path

from studio.ui.main_window import MainWindow
from studio.ui.models.evals import CASE_ROLE


def _select(window: MainWindow, name: str) -> None:
    pack = next(p for p in window.session.packs.values() if p.name == name)
    window.workspace_panel.select_pack(pack.root)
    window._show_pack(pack)
    window._show_pack_views()  # what the next event-loop turns would do
    window._show_pack_jobs(pack)


def test_modes_are_disabled_until_a_workspace_is_open(window: MainWindow) -> None:
    assert list(window.window_actions.modes) == ["Author", "Resolve", "Runs", "Review", "Evals"]
    assert [a.isEnabled() for a in window.window_actions.modes.values()] == [False] * 5
    assert window.window_actions.modes["Evals"].shortcut().toString() == "Ctrl+5"
    assert window.center.currentWidget() is window.welcome


def test_resolve_mode_simulates_the_selected_pack(qtbot, open_and_wait, window: MainWindow,
                                                 examples_copy: Path) -> None:
    open_and_wait(window, [examples_copy])
    _select(window, "northwind-espresso")
    with qtbot.waitSignal(window.modes.panel("Resolve").result_shown, timeout=20_000) as shown:
        window.window_actions.modes["Resolve"].trigger()
    assert window.center.currentWidget() is window.modes.pages["Resolve"]
    assert window.docks["workspace"].isVisible()
    # By default a job mode shows the Workspace only: its tables need the width and the height.
    assert not window.docks["inspector"].isVisible() and not window.docks["problems"].isVisible()
    result = shown.args[0]
    assert [p.name for p in result.packs] == ["northwind-espresso"]
    assert result.tokens_used <= result.budget
    window.window_actions.modes["Author"].trigger()
    assert window.center.currentWidget() is window.splitter and window.docks["inspector"].isVisible()
    assert window.docks["problems"].isVisible()


def test_a_panel_row_opens_the_file_in_author_mode(qtbot, open_and_wait, window: MainWindow,
                                                  examples_copy: Path) -> None:
    open_and_wait(window, [examples_copy])
    _select(window, "northwind-espresso")
    window.switch_mode("Runs")
    target = examples_copy / "northwind-espresso" / "runs" / "lint-2026-10-15.md"
    window.modes.panel("Runs").open_file_requested.emit(target, 3)
    assert window.center.currentWidget() is window.splitter
    tab = window.editors.current_tab()
    assert tab is not None and tab.path == target
    assert tab.editor.textCursor().blockNumber() == 2


def test_runs_mode_reads_the_selected_pack_only_when_shown(qtbot, open_and_wait, window: MainWindow,
                                                          examples_copy: Path) -> None:
    open_and_wait(window, [examples_copy])
    _select(window, "northwind-espresso")
    assert window.modes.panel("Runs").pack is None  # nothing read while the Runs mode is not on screen
    with qtbot.waitSignal(window.modes.panel("Runs").loaded, timeout=20_000):
        window.switch_mode("Runs")
    assert window.modes.panel("Runs").pack is not None and window.modes.panel("Runs").pack.name == "northwind-espresso"
    assert window.modes.panel("Runs").model.rowCount() == 4


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
    monkeypatch.setattr(window.inspector, "show_pack", lambda pack, *rest: (shown.append(pack.name), real(pack, *rest)))
    names = sorted(p.name for p in window.session.packs.values())
    for name in names:  # as fast as arrow keys: all within one turn of the event loop
        window.workspace_panel.select_pack(next(p.root for p in window.session.packs.values() if p.name == name))
    assert window.current_pack is not None and window.current_pack.name == names[-1]
    qtbot.waitUntil(lambda: shown == [names[-1]], timeout=5000)


def test_evals_mode_runs_the_selected_packs_suite_and_opens_a_case_in_resolve(
        qtbot, open_and_wait, window: MainWindow, examples_copy: Path) -> None:
    open_and_wait(window, [examples_copy])
    _select(window, "northwind-espresso")
    evals = window.modes.panel("Evals")
    with qtbot.waitSignal(evals.finished, timeout=30_000):
        window.window_actions.modes["Evals"].trigger()
    assert window.center.currentWidget() is window.modes.pages["Evals"]
    assert evals.pack is not None and evals.pack.name == "northwind-espresso"
    assert evals.model.rowCount() > 0
    # A case opens in Resolve mode with its task and budget (a handoff between mode panels).
    case = evals.model.index(0, 0).data(CASE_ROLE)
    evals.table.selectRow(0)
    evals.open_selected_in_resolve()
    assert window.center.currentWidget() is window.modes.pages["Resolve"]
    assert window.window_actions.modes["Resolve"].isChecked()
    inputs = window.modes.panel("Resolve").inputs
    assert inputs.task.toPlainText() == case.prompt


def test_who_sees_it_explains_the_selected_pack(qtbot, open_and_wait, window: MainWindow,
                                               examples_copy: Path) -> None:
    open_and_wait(window, [examples_copy])
    window.show()
    _select(window, "northwind-espresso")
    window.docks["visibility"].raise_()
    qtbot.waitUntil(lambda: window.visibility.report is not None, timeout=5000)
    assert window.visibility.report.name == "northwind-espresso"


def test_hidden_modes_let_go_of_a_replaced_workspace_and_follow_the_new_one_when_shown(
        qtbot, open_and_wait, window: MainWindow, examples_copy: Path, tmp_path: Path) -> None:
    open_and_wait(window, [examples_copy])
    review = window.modes.panel("Review")
    resolve = window.modes.panel("Resolve")
    evals = window.modes.panel("Evals")
    window.window_actions.modes["Review"].trigger()
    window.window_actions.modes["Resolve"].trigger()
    window.window_actions.modes["Evals"].trigger()
    assert review.packs and resolve.inputs.packs and evals.workspace  # each followed the first workspace
    window.window_actions.modes["Author"].trigger()

    other = tmp_path / "other"
    other.mkdir()
    shutil.copytree(examples_copy / "orbit-launch-notes", other / "orbit-launch-notes")
    open_and_wait(window, [other])
    # Hidden since, neither keeps the first workspace's packs alive (a large one is hundreds of megabytes).
    assert review.packs == [] and resolve.inputs.packs == [] and evals.workspace == []
    window.window_actions.modes["Review"].trigger()
    assert [p.name for p in review.packs] == ["orbit-launch-notes"]
    assert review.queued_names() == ["orbit-launch-notes"]


def test_a_mode_shown_right_after_a_re_opening_keeps_the_new_workspace(
        qtbot, open_and_wait, window: MainWindow, examples_copy: Path) -> None:
    """Hidden modes let go of the last workspace a turn at a time; one shown before its turn came has followed
    the new workspace already and must not be emptied afterwards."""
    open_and_wait(window, [examples_copy])
    review = window.modes.panel("Review")
    resolve = window.modes.panel("Resolve")
    window.window_actions.modes["Review"].trigger()
    window.window_actions.modes["Resolve"].trigger()
    window.window_actions.modes["Author"].trigger()
    fresh = [p for p in window.session.packs.values() if p.name == "orbit-launch-notes"]
    window.modes.set_packs(fresh)  # as a re-opening's settle does; no event loop turn between the two
    window.window_actions.modes["Review"].trigger()
    qtbot.wait(50)  # the turns of letting go have come and gone
    assert [p.name for p in review.packs] == ["orbit-launch-notes"]
    assert resolve.inputs.packs == []  # still hidden: let go
