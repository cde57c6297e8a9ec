"""The window's questions about an open file name it as typed.

"compiled/evil<U+202E>dm.exe has unsaved changes": a bidi override in a file name reverses what the question shows,
and markup in a name renders (a message box guesses rich text). The real boxes are shown, read and cancelled.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QTimer
from shown_as_read import cancel_next_box

from studio.ui.main_window import MainWindow

NAME = "<b>bold</b>evil\u202edm.md"
SHOWN = "compiled/<b>bold</b>evil\\u202edm.md"
KNOWLEDGE = "---\nname: p\ndescription: d\ntype: domain-reference\nstatus: ready\n---\n# P\n"


def test_the_unsaved_changes_and_changed_on_disk_questions_name_a_hostile_file_as_typed(
        qtbot, open_and_wait, window: MainWindow, make_pack, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = make_pack("p", KNOWLEDGE, {f"compiled/{NAME}": "# x\n"}, parent=tmp_path / "ws")
    open_and_wait(window, [tmp_path / "ws"])
    target = root / "compiled" / NAME
    tab = window.open_file(target)
    assert tab is not None
    tab.editor.textCursor().insertText("my edit\n")
    seen: list[str] = []
    QTimer.singleShot(0, cancel_next_box(seen))
    assert window.confirm_discard(tab) is False
    target.write_text("changed by someone else\n", encoding="utf-8")
    QTimer.singleShot(0, cancel_next_box(seen))
    assert window.save_tab(tab) is False
    assert target.read_text(encoding="utf-8") == "changed by someone else\n"
    assert len(seen) == 2
    for text in seen:
        assert "\u202e" not in text and SHOWN in text, text
