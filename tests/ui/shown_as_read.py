"""What a label, tooltip or message box shows of its text, as Qt reads it: for the tests that check pack text is
shown as typed (Qt renders a text it guesses is rich, ``<b>`` or ``<img src=...>``, as HTML)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import Qt as QtGui
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QApplication, QMessageBox


def shown(text: str, text_format: Qt.TextFormat = Qt.TextFormat.AutoText) -> str:
    """``text`` as a widget with ``text_format`` shows it (a tooltip's format is always AutoText)."""
    rich = text_format == Qt.TextFormat.RichText or (
        text_format == Qt.TextFormat.AutoText and QtGui.mightBeRichText(text))
    if not rich:
        return text
    doc = QTextDocument()
    doc.setHtml(text)
    return doc.toPlainText()


def cancel_next_box(seen: list[str]) -> Callable[[], None]:
    """A callback for ``QTimer.singleShot`` that waits for the next message box, adds what it shows to ``seen``
    and cancels it."""
    def answer() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, answer)
            return
        seen.append(shown(box.text(), box.textFormat()))
        box.button(QMessageBox.StandardButton.Cancel).click()
    return answer
