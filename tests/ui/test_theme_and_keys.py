"""View ▸ Theme, moving between panes by keyboard, the focus frame, and Help ▸ Keyboard Shortcuts."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction, QColor, QKeySequence, QPalette
from PySide6.QtWidgets import QApplication

from studio.ui.main_window import MainWindow
from studio.ui.theme import apply_choice, is_dark
from studio.ui.widgets.shortcuts_dialog import ShortcutsDialog, shortcut_rows


@pytest.fixture
def light_afterwards() -> Iterator[None]:
    """A test that switches the theme leaves the app light for the next one."""
    yield
    apply_choice("light")


def _window_colour_is_dark() -> bool:
    return QApplication.palette().color(QPalette.ColorRole.Window).lightness() < 128


def test_the_theme_applies_at_once_everywhere_and_is_remembered(
        qtbot, open_and_wait, settings: QSettings, examples_copy: Path, light_afterwards: None) -> None:
    window = MainWindow(settings)
    window.show()
    try:
        open_and_wait(window, [examples_copy])
        tab = window.open_file(examples_copy / "northwind-espresso" / "KNOWLEDGE.md", 1)
        assert tab is not None
        window.window_actions.themes["light"].trigger()
        assert not is_dark() and not _window_colour_is_dark()
        light_style = tab.highlighter.style
        delegate = window.workspace_panel.tree.itemDelegate()
        window.window_actions.themes["dark"].trigger()
        assert is_dark() and _window_colour_is_dark()
        assert window.window_actions.themes["dark"].isChecked()
        assert tab.highlighter.style != light_style  # the editor's colours follow at once
        assert delegate.dark  # type: ignore[attr-defined]  # and the pack rows' chips
        frame = window.panes.frame.strips[0].palette().color(QPalette.ColorRole.Window)
        assert frame == QApplication.palette().color(QPalette.ColorRole.Highlight)
    finally:
        window.session.cancel()
        window.close()
    again = MainWindow(settings)
    try:
        assert again.window_actions.themes["dark"].isChecked() and is_dark()
    finally:
        again.close()


def test_the_current_line_band_takes_the_new_theme_colour(qtbot, light_afterwards: None) -> None:  # type: ignore[no-untyped-def]
    from studio.ui.widgets.code_editor import CodeEditor

    apply_choice("light")
    editor = CodeEditor()
    qtbot.addWidget(editor)
    editor.setPlainText("one\ntwo\n")
    editor.show()

    def band() -> QColor:
        selection = editor.extraSelections()[0]  # kept: its format lives only as long as the selection
        return QColor(selection.format.background().color())

    assert band() == editor.palette().color(QPalette.ColorRole.AlternateBase)
    light = band()
    apply_choice("dark")
    qtbot.waitUntil(lambda: band() != light, timeout=2000)
    assert band() == editor.palette().color(QPalette.ColorRole.AlternateBase)
    assert band().lightness() < 128, "a dark band in the dark theme, without moving the cursor"


def _focus_pane(window: MainWindow) -> str:
    pane = window.panes.current()
    return pane.name if pane is not None else ""


def test_f6_visits_the_panes_on_screen_and_alt_keys_go_straight_to_one(
        qtbot, open_and_wait, window: MainWindow, examples_copy: Path) -> None:
    open_and_wait(window, [examples_copy])
    window.open_file(examples_copy / "northwind-espresso" / "KNOWLEDGE.md", 1)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)
    window.window_actions.panes["Workspace"].trigger()
    assert QApplication.focusWidget() is window.workspace_panel.tree
    visited = []
    for _ in range(5):
        window.window_actions.next_pane.trigger()
        visited.append(_focus_pane(window))
    assert visited == ["Editor or mode panel", "Previews", "Problems", "Inspector", "Workspace"]
    assert QApplication.focusWidget() is window.workspace_panel.tree
    window.window_actions.prev_pane.trigger()
    assert _focus_pane(window) == "Inspector"
    window.window_actions.panes["Editor or mode panel"].trigger()
    tab = window.editors.current_tab()
    assert tab is not None and QApplication.focusWidget() is tab.editor
    # The frame is drawn around the pane with the focus.
    frame = window.panes.frame
    assert frame.target is window.editors and all(s.isVisible() for s in frame.strips)
    top_left = window.editors.mapTo(window, window.editors.rect().topLeft())
    assert frame.strips[0].geometry().topLeft() == top_left
    # In a job mode the centre is the mode's panel and the previews are not on screen.
    window.switch_mode("Runs")
    window.window_actions.panes["Workspace"].trigger()
    window.window_actions.next_pane.trigger()
    assert _focus_pane(window) == "Editor or mode panel"
    assert window.modes.panel("Runs").isAncestorOf(QApplication.focusWidget())
    window.window_actions.next_pane.trigger()
    assert _focus_pane(window) == "Workspace"  # Problems and the Inspector are hidden in Runs by default
    # A pane's own key shows it first.
    window.window_actions.panes["Problems"].trigger()
    assert window.docks["problems"].isVisible() and QApplication.focusWidget() is window.problems.table


def test_keyboard_shortcuts_lists_every_key_of_the_window_and_no_two_commands_share_one(
        qtbot, window: MainWindow) -> None:
    rows = shortcut_rows(window.menuBar())
    listed = {(keys, command) for keys, command, _menu in rows}
    owned: dict[str, str] = {}
    # The window's own commands (a panel's context-menu Copy with Ctrl+C belongs to that panel).
    for action in window.findChildren(QAction, options=Qt.FindChildOption.FindDirectChildrenOnly):
        for key in action.shortcuts():
            text = key.toString(QKeySequence.SequenceFormat.NativeText)
            if not text:
                continue
            command = action.text().replace("&", "").rstrip("…").strip()
            assert any(text in keys.split(" or ") and command == c for keys, c in listed), (text, command)
            if action.shortcutContext() != Qt.ShortcutContext.WidgetShortcut:
                assert owned.setdefault(text, command) == command, f"{text}: {owned[text]} and {command}"
    keys = {keys for keys, _command, _menu in rows}
    for expected in ("F6", "Shift+F6", "Alt+1", "Alt+4", "Ctrl+1", "Ctrl+5", "F5", "F8", "Ctrl+P", "Ctrl+Shift+F",
                     "Ctrl+Shift+N", "Ctrl+.", "Ctrl+Space", "Ctrl+,"):
        assert expected in keys, expected
    dialog = ShortcutsDialog(window.menuBar(), window)
    qtbot.addWidget(dialog)
    assert dialog.table.rowCount() == len(rows)
    dialog.filter.setText("pane")
    shown = [dialog.table.item(r, 1).text() for r in range(dialog.table.rowCount()) if not dialog.table.isRowHidden(r)]
    assert "Next pane" in shown and "Save" not in shown
