"""A read-only, highlighted text preview with its token count and a Copy button (the preview tabs' base)."""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from studio.ui.fit import wrap_label
from studio.ui.highlighter import PygmentsHighlighter
from studio.ui.icons import icon
from studio.ui.pack_text_view import PackTextView
from studio.ui.previews import Preview
from studio.ui.theme import editor_font, is_dark


class TextPreview(QWidget):
    """A read-only highlighted text with its token count and a Copy button."""

    def __init__(self, language: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view = PackTextView()
        self.view.setFont(editor_font())
        self.view.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.highlighter = PygmentsHighlighter(self.view.document(), language, is_dark())
        self._shown: str | None = None
        self.tokens = wrap_label(QLabel())
        self.note = wrap_label(QLabel())
        self.note.hide()
        self.copy_button = QPushButton(icon("copy"), "Copy")
        self.copy_button.clicked.connect(self.copy)
        self.top = top = QHBoxLayout()
        top.addWidget(self.tokens, 1)
        top.addWidget(self.copy_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addWidget(self.note)
        layout.addWidget(self.view)

    def show_preview(self, preview: Preview) -> None:
        # A pack's previews are built twice when it is selected (before and after its content checks),
        # usually with the same text: setting and re-highlighting a long fence again costs tens of ms.
        if preview.text != self._shown:
            self._shown = preview.text
            self.highlighter.forget()
            self.view.setPlainText(preview.text)  # the highlighter re-lexes it shortly after
        self.tokens.setText(preview.tokens)
        self.note.setText(preview.note)
        self.note.setVisible(bool(preview.note))
        self.copy_button.setEnabled(bool(preview.text))

    def copy(self) -> None:
        QGuiApplication.clipboard().setText(self.view.exact_text())
