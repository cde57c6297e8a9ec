"""A change shown before it is made: a coloured unified diff with Apply and Cancel (Return applies, Escape
cancels). The quick-fix preview and "Add as eval case" both use it; the owner acts on ``accepted``."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

from studio.ui.diff_highlighter import DiffHighlighter
from studio.ui.pack_text_view import PackTextView
from studio.ui.theme import editor_font


class DiffPreviewDialog(QDialog):
    """Shows ``diff`` under ``heading`` (rich text) with ``note`` below; Apply accepts the dialog."""

    def __init__(self, window_title: str, heading: str, diff: str, note: str,
                 parent: QWidget | None = None, apply_text: str = "Apply") -> None:
        super().__init__(parent)
        self.setWindowTitle(window_title)
        self.title = QLabel(heading)
        self.note = QLabel(note)
        self.note.setWordWrap(True)
        self.view = PackTextView(diff, font=editor_font(), wrap=False)
        self.highlighter = DiffHighlighter(self.view.document())
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.apply_button = buttons.addButton(apply_text, QDialogButtonBox.ButtonRole.AcceptRole)
        self.apply_button.setDefault(True)
        # Return applies, as the default button promises: a focused Cancel would otherwise take it.
        self.cancel_button = buttons.button(QDialogButtonBox.StandardButton.Cancel)
        self.cancel_button.setAutoDefault(False)
        self.view.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.note)
        layout.addWidget(buttons)
        self.resize(720, 360)
        self.apply_button.setFocus()
