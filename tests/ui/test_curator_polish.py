"""Curator polish in the window (issue #34): what a day of real curation tripped over."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QPlainTextEdit

from studio.ui.main_window import MainWindow

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
