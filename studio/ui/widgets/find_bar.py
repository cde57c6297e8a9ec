"""The Ctrl+F bar under an editor: find next/previous, case sensitivity, Escape closes it."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut, QTextDocument
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QLineEdit, QPlainTextEdit, QPushButton, QWidget


class FindBar(QWidget):
    def __init__(self, editor: QPlainTextEdit, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.editor = editor
        self.field = QLineEdit(placeholderText="Find")
        self.case = QCheckBox("Match case")
        self.status = QLabel()
        prev_button, next_button, close_button = QPushButton("Previous"), QPushButton("Next"), QPushButton("✕")
        close_button.setFlat(True)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        for w in (self.field, prev_button, next_button, self.case, self.status):
            layout.addWidget(w)
        layout.addStretch(1)
        layout.addWidget(close_button)
        self.field.returnPressed.connect(lambda: self.find_match(forward=True))
        self.field.textChanged.connect(lambda _t: self.find_match(forward=True, from_start=True))
        next_button.clicked.connect(lambda: self.find_match(forward=True))
        prev_button.clicked.connect(lambda: self.find_match(forward=False))
        close_button.clicked.connect(self.close_bar)
        QShortcut(QKeySequence(Qt.Key.Key_Escape), self, self.close_bar)
        self.hide()

    def open_bar(self) -> None:
        selected = self.editor.textCursor().selectedText()
        if selected and "\u2029" not in selected:
            self.field.setText(selected)
        self.show()
        self.field.setFocus()
        self.field.selectAll()

    def close_bar(self) -> None:
        self.hide()
        self.editor.setFocus()

    def find_match(self, forward: bool = True, from_start: bool = False) -> bool:
        """Select the next match (wrapping once); returns whether one was found."""
        needle = self.field.text()
        if not needle:
            self.status.clear()
            return False
        flags = QTextDocument.FindFlag(0)
        if not forward:
            flags |= QTextDocument.FindFlag.FindBackward
        if self.case.isChecked():
            flags |= QTextDocument.FindFlag.FindCaseSensitively
        if from_start:
            cursor = self.editor.textCursor()
            cursor.setPosition(cursor.selectionStart())
            self.editor.setTextCursor(cursor)
        found = self.editor.find(needle, flags)
        if not found:  # wrap around once
            cursor = self.editor.textCursor()
            cursor.movePosition(cursor.MoveOperation.Start if forward else cursor.MoveOperation.End)
            self.editor.setTextCursor(cursor)
            found = self.editor.find(needle, flags)
        self.status.setText("" if found else "No match")
        return found
