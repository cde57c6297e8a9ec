"""Quick fixes in a KNOWLEDGE.md editor: Ctrl+. or the gutter's light bulb lists the fixes for the cursor's
line; the chosen one is previewed as a diff and applied as one undoable edit of the buffer.

The fixes come from ``studio.core.authoring.fixes`` (each already verified: it removes its finding and adds
none). An edit is refused when the buffer no longer holds the text the fix was computed from. File and
folder fixes (create a file a context map names, rename the pack folder) act on disk at once, through the
core's checked operations, and are reported by signal so the window can refresh and retarget tabs.

Signals:
    file_created(Path): a fix created this file or folder.
    pack_folder_renamed(Path, Path): a fix renamed the pack folder (old root, new root).
    message(str): something to show in the status bar (a refusal, what was applied).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, QPoint, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

from studio.core.authoring.files import FileOpError, plan_rename, rename
from studio.core.authoring.fix_types import Fix, FixKind
from studio.core.authoring.fixes import create_for_fix, fixes_at_line
from studio.ui.text_edits import replace_minimal, select_range
from studio.ui.widgets.code_editor import CodeEditor
from studio.ui.widgets.fix_preview import FixPreviewDialog

NO_FIX = "No quick fix for this line"


class QuickFixController(QObject):
    file_created = Signal(Path)
    pack_folder_renamed = Signal(Path, Path)
    message = Signal(str)

    def __init__(self, editor: CodeEditor, pack_root: Callable[[], Path], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.editor = editor
        self.pack_root = pack_root
        self.menu: QMenu | None = None
        self.dialog: FixPreviewDialog | None = None

    def fixes_at(self, line: int | None = None) -> list[Fix]:
        """The verified fixes for the findings on ``line`` (the cursor's line by default)."""
        line = line if line is not None else self.editor.textCursor().blockNumber() + 1
        return fixes_at_line(self.pack_root(), self.editor.toPlainText(), line)

    def show_menu(self, line: int | None = None) -> QMenu | None:
        """Pop up the fixes for ``line`` under the cursor (non-blocking); None and a message when none apply."""
        fixes = self.fixes_at(line)
        if not fixes:
            self.message.emit(NO_FIX)
            return None
        menu = QMenu(self.editor)
        for fix in fixes:
            action = QAction(fix.title, menu)
            action.setToolTip(fix.code)
            action.triggered.connect(lambda _checked=False, f=fix: self.preview(f))
            menu.addAction(action)
        rect = self.editor.cursorRect()
        menu.popup(self.editor.viewport().mapToGlobal(QPoint(rect.left(), rect.bottom())))
        menu.setActiveAction(menu.actions()[0])  # preselected: Return takes the first fix at once
        self.menu = menu
        return menu

    def preview(self, fix: Fix) -> FixPreviewDialog:
        """Show ``fix`` as a diff; it is applied when the user presses Apply."""
        dialog = FixPreviewDialog(fix, self.editor.window())
        dialog.accepted.connect(lambda: self.apply(fix))
        dialog.open()
        self.dialog = dialog
        return dialog

    def apply(self, fix: Fix) -> bool:
        """Apply ``fix`` now (undoable for edits); False, with a message, when it cannot apply cleanly."""
        if fix.kind in (FixKind.EDIT, FixKind.PLACEHOLDER):
            current = self.editor.toPlainText()
            if current != fix.old_text:
                self.message.emit("The text changed since the fix was prepared; press Ctrl+. again")
                return False
            replace_minimal(self.editor, fix.old_text, fix.new_text)
            if fix.select is not None:
                select_range(self.editor, fix.new_text, *fix.select)
            self.editor.setFocus()
            self.message.emit(f"Applied: {fix.title}")
            return True
        root = self.pack_root()
        try:
            if fix.kind is FixKind.CREATE_FILE and fix.path is not None:
                self.file_created.emit(create_for_fix(root, fix))
            elif fix.kind is FixKind.RENAME_FOLDER and fix.path is not None:
                new_root = rename(plan_rename(root, root, fix.path))
                self.pack_folder_renamed.emit(root, new_root)
        except FileOpError as exc:
            self.message.emit(f"Not applied: {exc}")
            return False
        self.message.emit(f"Applied: {fix.title}")
        return True
