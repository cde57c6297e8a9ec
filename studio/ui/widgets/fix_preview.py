"""The quick-fix preview: what a fix will change, as a coloured unified diff, with Apply and Cancel.

Nothing is applied until Apply; the owner applies the fix on ``accepted`` (as an undoable edit).
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from studio.core.authoring.fix_types import Fix, FixKind
from studio.ui.diff_highlighter import DiffHighlighter
from studio.ui.pack_text_view import PackTextView
from studio.ui.theme import editor_font

NOTES = {
    FixKind.EDIT: "Checked before it is offered: it removes the finding and adds none. Undo with Ctrl+Z; "
                  "nothing is saved until you save.",
    FixKind.PLACEHOLDER: "Adds the field with a placeholder, selected so you can type over it. Undo with Ctrl+Z.",
    FixKind.CREATE_FILE: "Creates the file in the pack now (never over an existing one).",
    FixKind.RENAME_FOLDER: "Renames the pack's folder now; open files follow.",
}


class FixPreviewDialog(QDialog):
    """Shows ``fix`` as a diff; Apply accepts the dialog."""

    def __init__(self, fix: Fix, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.fix = fix
        self.setWindowTitle(f"Quick fix: {fix.title}")
        self.title = QLabel(f"<b>{html.escape(fix.title)}</b> "
                            f"<span style='color:gray'>({html.escape(fix.code)})</span>")
        self.note = QLabel(NOTES[fix.kind])
        self.note.setWordWrap(True)
        self.view = PackTextView(fix.diff)
        self.view.setFont(editor_font())
        self.view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.highlighter = DiffHighlighter(self.view.document())
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.apply_button = buttons.addButton("Apply", QDialogButtonBox.ButtonRole.AcceptRole)
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

