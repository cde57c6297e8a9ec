"""Drive the main window like a user: open a workspace, follow a problem, edit, save."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtTest import QTest

from studio.core.diagnostics import Diagnostic
from studio.ui.document import SaveOutcome
from studio.ui.main_window import MainWindow
from studio.ui.models.diagnostics_table import DIAGNOSTIC_ROLE

BROKEN = "---\nname: faq\ndescription: Answers.\ntype: domain-reference\nstatus: bogus\n---\n# FAQ\n"


def _retype(tab, old: str, new: str) -> None:  # type: ignore[no-untyped-def]
    """Replace ``old`` by ``new`` through the text cursor, as typing would (undoable, marks the tab dirty)."""
    text = tab.text()
    start = text.index(old)
    cursor = tab.editor.textCursor()
    cursor.setPosition(start)
    cursor.setPosition(start + len(old), cursor.MoveMode.KeepAnchor)
    cursor.insertText(new)


def _problem_rows(win: MainWindow) -> list[Diagnostic]:
    proxy = win.problems.proxy
    return [proxy.index(r, 0).data(DIAGNOSTIC_ROLE) for r in range(proxy.rowCount())]


def test_opening_a_workspace_shows_packs_problems_and_counts(
    qtbot, open_and_wait, window: MainWindow, examples_copy: Path
) -> None:
    open_and_wait(window, [examples_copy])
    names = sorted(p.name for p in window.session.packs.values())
    assert "northwind-espresso" in names and len(names) >= 5
    assert window.windowTitle() == f"Knowledge Pack Studio — {examples_copy.name}"
    group = window.tree_model.index(0, 0, QModelIndex())
    assert group.data() == f"Explicit ({len(names)})"
    counts = window.diag_model.counts()
    assert window.status.counts_label.text().startswith(f"{counts.errors} error")
    assert len(_problem_rows(window)) == window.diag_model.rowCount()
    assert window.settings.last_workspace() == [str(examples_copy.resolve())]


def test_double_clicking_a_problem_opens_the_file_at_its_line(qtbot, open_and_wait, window: MainWindow, make_pack,
                                                             tmp_path: Path) -> None:
    make_pack("faq", BROKEN, parent=tmp_path / "ws")
    open_and_wait(window, [tmp_path / "ws"])
    rows = _problem_rows(window)
    row = next(i for i, d in enumerate(rows) if d.code == "invalid-status")
    index = window.problems.proxy.index(row, 1)
    rect = window.problems.table.visualRect(index)
    viewport = window.problems.table.viewport()
    # A real double-click is a click followed by a double-click event (Qt checks the pressed index).
    QTest.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=rect.center())
    QTest.mouseDClick(viewport, Qt.MouseButton.LeftButton, pos=rect.center())
    tab = window.editors.current_tab()
    assert tab is not None and tab.relpath == "KNOWLEDGE.md"
    cursor = tab.editor.textCursor()
    assert (cursor.blockNumber() + 1, cursor.positionInBlock() + 1) == (rows[row].line, rows[row].column)
    assert any(d.code == "invalid-status" for d in tab.editor.diagnostics)


def test_breaking_and_fixing_status_live_then_saving(
    qtbot, open_and_wait, window: MainWindow, examples_copy: Path
) -> None:
    open_and_wait(window, [examples_copy])
    knowledge = examples_copy / "northwind-espresso" / "KNOWLEDGE.md"
    tab = window.open_file(knowledge)
    assert tab is not None
    assert not any(d.code == "invalid-status" for d in tab.editor.diagnostics)

    with qtbot.waitSignal(tab.live_validated, timeout=5000):
        _retype(tab, "status: ready", "status: bogus")
    qtbot.waitUntil(lambda: any(d.code == "invalid-status" for d in _problem_rows(window)), timeout=5000)
    assert any(d.code == "invalid-status" for d in tab.editor.diagnostics)
    assert window.editors.tabText(window.editors.indexOf(tab)).startswith("● ")
    assert b"status: ready" in knowledge.read_bytes()  # nothing written while typing

    with qtbot.waitSignal(tab.live_validated, timeout=5000):
        _retype(tab, "status: bogus", "status: draft")
    assert window.save_current()
    assert b"status: draft" in knowledge.read_bytes()
    qtbot.waitUntil(lambda: not any(d.code == "invalid-status" for d in _problem_rows(window)), timeout=5000)
    assert not tab.dirty
    assert not window.editors.tabText(window.editors.indexOf(tab)).startswith("● ")
    qtbot.waitUntil(lambda: window.session.packs[knowledge.parent.resolve()].status == "draft", timeout=5000)


def test_save_refuses_to_overwrite_a_file_changed_on_disk(
    qtbot, open_and_wait, window: MainWindow, examples_copy: Path
) -> None:
    open_and_wait(window, [examples_copy])
    target = examples_copy / "northwind-espresso" / "compiled" / "facts.md"
    tab = window.open_file(target)
    assert tab is not None
    tab.editor.textCursor().insertText("my edit\n")
    target.write_text("changed by someone else\n", encoding="utf-8")
    assert tab.save() is SaveOutcome.CONFLICT
    assert target.read_text(encoding="utf-8") == "changed by someone else\n"
    assert tab.dirty
    assert tab.save(force=True) is SaveOutcome.SAVED
    assert target.read_text(encoding="utf-8").startswith("my edit\n")


def test_browsing_never_writes_into_a_pack(
    qtbot, open_and_wait, tree_digest, window: MainWindow, examples_copy: Path
) -> None:
    before = tree_digest(examples_copy)
    open_and_wait(window, [examples_copy])
    for pack in list(window.session.packs.values()):
        window.workspace_panel.select_pack(pack.root)
        with qtbot.waitSignal(window.previews.built, timeout=10_000):
            pass
        tab = window.open_file(pack.knowledge_path)
        assert tab is not None
        tab.editor.textCursor().insertText("typed but never saved ")
    window.problems.step(1)
    window.problems.step(-1)
    assert tree_digest(examples_copy) == before


def test_binary_files_are_refused_with_a_message(qtbot, open_and_wait, window: MainWindow, make_pack, tmp_path: Path,
                                                 monkeypatch) -> None:
    root = make_pack("pics", BROKEN.replace("bogus", "ready"), {"assets/logo.png": b"\x89PNG\x00\x00\x01"},
                     parent=tmp_path / "ws")
    open_and_wait(window, [tmp_path / "ws"])
    shown: list[str] = []
    monkeypatch.setattr("studio.ui.main_window.QMessageBox.information", lambda _p, _t, text: shown.append(text))
    assert window.open_file(root / "assets" / "logo.png") is None
    assert shown and "binary" in shown[0]


def test_ctrl_p_finds_a_file_by_a_few_letters_and_opens_it(qtbot, open_and_wait, window: MainWindow,
                                                          examples_copy: Path) -> None:
    open_and_wait(window, [examples_copy])
    window.activateWindow()
    QTest.keyClick(window, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(window.quick_open.isVisible, timeout=5000)
    qtbot.waitUntil(lambda: not window.quick_open.indexing, timeout=10_000)
    qtbot.keyClicks(window.quick_open.field, "nw facts")
    qtbot.keyClick(window.quick_open.field, Qt.Key.Key_Return)
    tab = window.editors.current_tab()
    assert tab is not None and tab.path == examples_copy / "northwind-espresso" / "compiled" / "facts.md"
    assert not window.quick_open.isVisible()
    # The Workspace tree shows where the file lives.
    qtbot.waitUntil(lambda: window.workspace_panel.tree.currentIndex().data() == "northwind-espresso", timeout=5000)


def test_an_empty_editor_area_says_how_to_open_a_file(qtbot, open_and_wait, window: MainWindow,
                                                      examples_copy: Path) -> None:
    open_and_wait(window, [examples_copy])
    assert window.editors.hint.isVisible() and "Ctrl+P" in window.editors.hint.text()
    tab = window.open_file(examples_copy / "northwind-espresso" / "KNOWLEDGE.md")
    assert tab is not None and not window.editors.hint.isVisible()
    window.close_tab(tab)
    assert window.editors.hint.isVisible()


def test_ctrl_f_opens_the_find_bar_under_the_editor_and_finds(qtbot, open_and_wait, window: MainWindow,
                                                              examples_copy: Path) -> None:
    open_and_wait(window, [examples_copy])
    tab = window.open_file(examples_copy / "northwind-espresso" / "KNOWLEDGE.md")
    assert tab is not None
    window.window_actions.find.trigger()
    assert tab.find_bar.isVisible() and tab.find_bar.field.hasFocus()
    qtbot.keyClicks(tab.find_bar.field, "espresso")
    assert tab.editor.textCursor().selectedText().lower() == "espresso"
    qtbot.keyClick(tab.find_bar.field, Qt.Key.Key_Escape)
    assert not tab.find_bar.isVisible()
