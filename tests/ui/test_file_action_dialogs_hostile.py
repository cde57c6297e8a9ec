"""The workspace tree's file actions ask about a hostile file name as typed.

"Move compiled/evil<U+202E>dm.exe to the trash?": a bidi override in a file name reverses what the question shows,
so the user confirms trashing a file that reads as another; markup in a name renders in a message box (Qt guesses
rich text). The real confirmation box is shown and read, then cancelled: nothing is trashed.
"""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QWidget
from shown_as_read import cancel_next_box

from studio.core.pack import load_pack
from studio.ui.widgets.pack_file_actions import PackFileActions

NAME = "<b>bold</b>evil\u202edm.exe"


def test_the_trash_question_shows_a_hostile_file_name_escaped_and_as_typed(qtbot, make_pack) -> None:  # type: ignore[no-untyped-def]
    root = make_pack("p", "---\nname: p\ndescription: d\n---\n# P\n", {f"compiled/{NAME}": "# x\n"})
    parent = QWidget()
    qtbot.addWidget(parent)
    actions = PackFileActions(parent)
    seen: list[str] = []
    QTimer.singleShot(0, cancel_next_box(seen))
    assert actions.delete(load_pack(root), root / "compiled" / NAME) is False
    assert (root / "compiled" / NAME).exists()
    assert len(seen) == 1
    assert "\u202e" not in seen[0] and "compiled/<b>bold</b>evil\\u202edm.exe" in seen[0], seen[0]
