"""The window keeps recovery copies: a crash leaves the text outside the pack, the next start restores it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, QThreadPool
from PySide6.QtWidgets import QMessageBox

from studio.ui.main_window import MainWindow
from studio.ui.widgets.recovery_dialog import RecoveryChoice


def recovery_files(settings: QSettings) -> list[Path]:
    folder = Path(settings.fileName()).parent / "recovery"
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def test_a_crash_keeps_the_text_and_the_next_start_restores_it(
        qtbot, window, settings, open_and_wait, examples_copy, tree_digest) -> None:  # type: ignore[no-untyped-def]
    open_and_wait(window, [examples_copy])
    before = tree_digest(examples_copy)
    knowledge = examples_copy / "northwind-espresso" / "KNOWLEDGE.md"
    tab = window.open_file(knowledge)
    assert tab is not None
    tab.editor.moveCursor(tab.editor.textCursor().MoveOperation.End)
    qtbot.keyClicks(tab.editor, "typed, never saved")
    qtbot.waitUntil(lambda: len(recovery_files(settings)) == 1, timeout=5000)
    assert tree_digest(examples_copy) == before
    window.recovery.wait()

    # "Crash": the first window never quits; a second one starts with the same settings.
    asked: list[int] = []
    second = MainWindow(settings)
    second.recovery.ask = lambda _parent, copies, _problems, single=False, elsewhere=0: (
        asked.append(len(copies)) or RecoveryChoice(restore=list(copies)))
    second.show()
    try:
        open_and_wait(second, [examples_copy])
        qtbot.waitUntil(lambda: second.editors.tab_for(knowledge) is not None, timeout=5000)
        restored = second.editors.tab_for(knowledge)
        assert asked == [1] and restored.dirty and restored.text().endswith("typed, never saved")
        assert tree_digest(examples_copy) == before
    finally:
        second.session.cancel()
        QThreadPool.globalInstance().waitForDone(10_000)
        qtbot.wait(1)
        for t in second.editors.tabs():
            t.editor.document().setModified(False)
        second.close()
        second.deleteLater()
    assert recovery_files(settings) == []  # a normal quit with nothing dirty leaves no copy


def test_closing_a_tab_with_discard_drops_its_copy(
        qtbot, window, settings, open_and_wait, examples_copy, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    open_and_wait(window, [examples_copy])
    tab = window.open_file(examples_copy / "northwind-espresso" / "KNOWLEDGE.md")
    qtbot.keyClicks(tab.editor, "x")
    qtbot.waitUntil(lambda: len(recovery_files(settings)) == 1, timeout=5000)
    monkeypatch.setattr("studio.ui.main_window.QMessageBox.question",
                        lambda *_a, **_k: QMessageBox.StandardButton.Discard)
    window.close_tab(tab)
    qtbot.waitUntil(lambda: recovery_files(settings) == [], timeout=5000)
