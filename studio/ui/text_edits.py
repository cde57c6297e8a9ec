"""Applying a computed text change to an editor as one undoable step that touches only what differs."""

from __future__ import annotations

from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QPlainTextEdit


def qt_position(text: str, index: int) -> int:
    """The Qt document position (UTF-16 code units) of the Python string index ``index`` in ``text``."""
    head = text[:index]
    return len(head) + sum(1 for c in head if ord(c) > 0xFFFF)


def replace_minimal(editor: QPlainTextEdit, old: str, new: str) -> tuple[int, int]:
    """Turn the editor's text ``old`` into ``new`` by replacing only the differing middle, in one undo step.

    Returns the (start, end) Python indexes of the replaced part in ``new``. The caller checks that the
    editor still holds ``old``.
    """
    limit = min(len(old), len(new))
    start = 0
    while start < limit and old[start] == new[start]:
        start += 1
    end = 0
    while end < limit - start and old[len(old) - 1 - end] == new[len(new) - 1 - end]:
        end += 1
    cursor = QTextCursor(editor.document())
    cursor.setPosition(qt_position(old, start))
    cursor.setPosition(qt_position(old, len(old) - end), QTextCursor.MoveMode.KeepAnchor)
    cursor.beginEditBlock()
    cursor.insertText(new[start:len(new) - end])
    cursor.endEditBlock()
    return start, len(new) - end


def select_range(editor: QPlainTextEdit, text: str, start: int, end: int) -> None:
    """Select ``text[start:end]`` in the editor (whose text is ``text``) and show it."""
    cursor = QTextCursor(editor.document())
    cursor.setPosition(qt_position(text, start))
    cursor.setPosition(qt_position(text, end), QTextCursor.MoveMode.KeepAnchor)
    editor.setTextCursor(cursor)
    editor.ensureCursorVisible()
