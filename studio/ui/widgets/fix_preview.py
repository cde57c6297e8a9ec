"""The quick-fix preview: what a fix will change, as a coloured unified diff, with Apply and Cancel.

Nothing is applied until Apply; the owner applies the fix on ``accepted`` (as an undoable edit).
"""

from __future__ import annotations

import html

from PySide6.QtWidgets import QWidget

from studio.core.authoring.fix_types import Fix, FixKind
from studio.ui.diff_preview import DiffPreviewDialog

NOTES = {
    FixKind.EDIT: "Checked before it is offered: it removes the finding and adds none. Undo with Ctrl+Z; "
                  "nothing is saved until you save.",
    FixKind.PLACEHOLDER: "Adds the field with a placeholder, selected so you can type over it. Undo with Ctrl+Z.",
    FixKind.CREATE_FILE: "Creates the file in the pack now (never over an existing one).",
    FixKind.RENAME_FOLDER: "Renames the pack's folder now; open files follow.",
}


class FixPreviewDialog(DiffPreviewDialog):
    """Shows ``fix`` as a diff; Apply accepts the dialog."""

    def __init__(self, fix: Fix, parent: QWidget | None = None) -> None:
        super().__init__(f"Quick fix: {fix.title}",
                         f"<b>{html.escape(fix.title)}</b> <span style='color:gray'>({html.escape(fix.code)})</span>",
                         fix.diff, NOTES[fix.kind], parent)
        self.fix = fix
