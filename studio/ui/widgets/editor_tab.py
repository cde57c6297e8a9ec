"""One open file: the editor, its find bar, highlighting, live validation of KNOWLEDGE.md, and saving.

Live validation hands the unsaved buffer to ``studio.core.pack.validate_text`` in a worker 300 ms after
the last keystroke; only the answer to the latest request is applied.

Signals:
    dirty_changed(bool): the buffer became modified or clean.
    live_validated(object): a Pack validated from the unsaved KNOWLEDGE.md buffer.
    saved(object): the Path just written.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QVBoxLayout, QWidget

from studio.core.diagnostics import Diagnostic
from studio.core.model import Pack, Scope
from studio.core.pack import validate_text
from studio.ui import workers
from studio.ui.document import Document, SaveOutcome, save_document
from studio.ui.highlighter import PygmentsHighlighter, language_for
from studio.ui.theme import is_dark
from studio.ui.widgets.code_editor import CodeEditor
from studio.ui.widgets.find_bar import FindBar

LIVE_DELAY_MS = 300


class EditorTab(QWidget):
    dirty_changed = Signal(bool)
    live_validated = Signal(object)
    saved = Signal(object)

    def __init__(self, document: Document, pack: Pack | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document_state = document
        self.pack = pack
        self.editor = CodeEditor()
        self.editor.setPlainText(document.text)
        self.editor.document().setModified(False)
        self._find_bar: FindBar | None = None
        self.highlighter = PygmentsHighlighter(self.editor.document(), language_for(document.path.name), is_dark())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.editor)
        self._layout = layout
        self.editor.document().modificationChanged.connect(self.dirty_changed)
        self._latest_validation = 0
        self._live = QTimer(self)
        self._live.setSingleShot(True)
        self._live.setInterval(LIVE_DELAY_MS)
        self._live.timeout.connect(self.validate_now)
        if self.is_knowledge:
            # contentsChange, not textChanged: highlighting also "changes" the document (formats only).
            self.editor.document().contentsChange.connect(self._edited)

    @property
    def find_bar(self) -> FindBar:
        """The Ctrl+F bar, made the first time it is asked for: opening a file is a click a user waits on,
        and most tabs are never searched."""
        if self._find_bar is None:
            self._find_bar = FindBar(self.editor)
            self._layout.addWidget(self._find_bar)
        return self._find_bar

    def _edited(self, _position: int, removed: int, added: int) -> None:
        if removed or added:
            self._live.start()

    @property
    def path(self) -> Path:
        return self.document_state.path

    @property
    def relpath(self) -> str:
        return self.document_state.relpath

    @property
    def is_knowledge(self) -> bool:
        return self.relpath == "KNOWLEDGE.md"

    @property
    def dirty(self) -> bool:
        return self.editor.document().isModified()

    def text(self) -> str:
        return self.editor.toPlainText()

    # -- diagnostics ------------------------------------------------------------------------------
    def show_pack_diagnostics(self, pack: Pack) -> None:
        """Show the pack's findings that point at this file."""
        self.pack = pack
        self.editor.set_diagnostics(self._mine(pack.findings))

    def _mine(self, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
        return [d for d in diagnostics if d.file == self.relpath]

    def validate_now(self) -> None:
        if not self.is_knowledge:
            return
        root = self.document_state.pack_root
        scope = self.pack.scope if self.pack else Scope.EXPLICIT
        scope_root = self.pack.scope_root if self.pack else None
        self._latest_validation = workers.submit(
            validate_text, root, self.text(), scope, scope_root, on_done=self._validated,
        )

    def _validated(self, request_id: int, pack: Pack) -> None:
        if request_id != self._latest_validation:
            return  # typing went on; a newer validation is on its way
        if self.pack is not None:  # the workspace settles it again; until then the last verdict holds
            pack = pack.with_verdict(self.pack.verdict)
        self.editor.set_diagnostics(self._mine(pack.findings))
        self.live_validated.emit(pack)

    # -- saving -----------------------------------------------------------------------------------
    def save(self, force: bool = False) -> SaveOutcome:
        """Write the buffer atomically; CONFLICT (nothing written) if the file changed on disk meanwhile."""
        outcome = save_document(self.document_state, self.text(), force=force)
        if outcome is SaveOutcome.SAVED:
            self.editor.document().setModified(False)
            self.saved.emit(self.path)
        return outcome

    def reload_from_disk(self, document: Document) -> None:
        """Replace a clean buffer with the file's new content (it changed on disk)."""
        self.document_state = document
        cursor_line = self.editor.textCursor().blockNumber() + 1
        self.editor.setPlainText(document.text)
        self.editor.document().setModified(False)
        self.editor.go_to(cursor_line)
