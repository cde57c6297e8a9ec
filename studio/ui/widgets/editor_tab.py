"""One open file: the editor, its find bar, highlighting, live validation of KNOWLEDGE.md, and saving.

Live validation hands the unsaved buffer to ``studio.core.pack.validate_text`` in a worker 300 ms after
the last keystroke; only the answer to the latest request is applied. A KNOWLEDGE.md tab also gets the
authoring assists: quick fixes (Ctrl+., the gutter's light bulb, the context menu), completion and hover
docs in the frontmatter, and Format frontmatter (context menu).

Signals:
    dirty_changed(bool): the buffer became modified or clean.
    live_validated(object): a Pack validated from the unsaved KNOWLEDGE.md buffer.
    saved(object): the Path just written.
    file_created(object): a quick fix created this Path (a file a context map names).
    pack_folder_renamed(object, object): a quick fix renamed the pack folder (old root, new root).
    message(str): a line for the status bar (a fix applied or refused, what formatting changed).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QPlainTextEdit, QVBoxLayout, QWidget

from studio.core.authoring.fixes import has_fix, lines_with_fixes
from studio.core.authoring.formatting import format_knowledge
from studio.core.diagnostics import Diagnostic
from studio.core.model import Pack, Scope
from studio.core.pack import validate_text
from studio.core.text.line_breaks import shown
from studio.ui import workers
from studio.ui.debounce import debounce_timer
from studio.ui.document import Document, SaveOutcome, save_document
from studio.ui.highlighter import PygmentsHighlighter, language_for
from studio.ui.pack_text_view import has_long_blank_run
from studio.ui.text_edits import replace_minimal
from studio.ui.theme import is_dark
from studio.ui.widgets.code_editor import CodeEditor
from studio.ui.widgets.find_bar import FindBar
from studio.ui.widgets.frontmatter_assist import FrontmatterAssist
from studio.ui.widgets.quick_fix import QuickFixController

LIVE_DELAY_MS = 300
PROSE_SUFFIXES = frozenset({".md", ".markdown"})


class EditorTab(QWidget):
    dirty_changed = Signal(bool)
    live_validated = Signal(object)
    saved = Signal(object)
    file_created = Signal(object)
    pack_folder_renamed = Signal(object, object)
    message = Signal(str)

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
        self._latest_fix_lines = 0
        self._live = debounce_timer(self, LIVE_DELAY_MS, self.validate_now)
        self.quick_fix: QuickFixController | None = None
        self.assist: FrontmatterAssist | None = None
        if self.is_knowledge:
            # contentsChange, not textChanged: highlighting also "changes" the document (formats only).
            self.editor.document().contentsChange.connect(self._edited)
            self._install_authoring()

    @property
    def is_prose(self) -> bool:
        """Markdown: prose whose paragraphs are single long lines, read best wrapped to the editor's width."""
        return self.document_state.path.suffix.lower() in PROSE_SUFFIXES

    def set_soft_wrap(self, on: bool) -> None:
        """Wrap Markdown at the editor's width (``on``) or not; other files (JSON, YAML) are never wrapped, nor a
        file holding a run of blanks Qt's wrapped layout never finishes (``pack_text_view``; an editor must keep
        every byte, so it cannot shorten the run as the read-only views do)."""
        wrap = on and self.is_prose and not has_long_blank_run(self.document_state.text)
        self.editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth if wrap
                                    else QPlainTextEdit.LineWrapMode.NoWrap)

    def _install_authoring(self) -> None:
        """Quick fixes, completion, hover and formatting for a KNOWLEDGE.md buffer."""
        def root() -> Path:
            return self.document_state.pack_root

        self.editor.fixable = lambda d: has_fix(d.code)
        self.quick_fix = QuickFixController(self.editor, root, self)
        self.quick_fix.file_created.connect(self.file_created)
        self.quick_fix.pack_folder_renamed.connect(self.pack_folder_renamed)
        self.quick_fix.message.connect(self.message)
        self.editor.bulb_clicked.connect(self.show_quick_fixes)
        # On the editor itself, like undo: a window action with the same keys would make both ambiguous.
        self.act_quick_fix = QAction("Quick fix…", self.editor)
        self.act_quick_fix.setShortcut(QKeySequence("Ctrl+."))
        self.act_quick_fix.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.act_quick_fix.triggered.connect(lambda: self.show_quick_fixes())
        self.editor.addAction(self.act_quick_fix)
        self.act_format = QAction("Format frontmatter", self.editor)
        self.act_format.triggered.connect(self.format_frontmatter)
        self.assist = FrontmatterAssist(self.editor, root, self)
        self.editor.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.editor.customContextMenuRequested.connect(self._context_menu)

    def _context_menu(self, pos: QPoint) -> None:
        menu = self.editor.createStandardContextMenu(pos)
        if menu.actions():
            first = menu.actions()[0]
            menu.insertActions(first, [self.act_quick_fix, self.act_format])
            menu.insertSeparator(first)
        else:
            menu.addActions([self.act_quick_fix, self.act_format])
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(self.editor.viewport().mapToGlobal(pos))

    def show_quick_fixes(self, line: int | None = None) -> QMenu | None:
        """The quick-fix menu for ``line`` (the cursor's by default); None when no fix applies there."""
        if self.quick_fix is None:
            return None
        if line is not None and line != self.editor.textCursor().blockNumber() + 1:
            self.editor.go_to(line)
        return self.quick_fix.show_menu(line)

    def complete(self) -> bool:
        """Edit ▸ Complete frontmatter (Ctrl+Space in the editor): the list of what fits at the cursor."""
        self.editor.setFocus()
        return self.assist.trigger() if self.assist is not None else False

    def format_frontmatter(self) -> tuple[str, ...]:
        """Normalise the frontmatter's indentation (one undoable edit) and save with LF line endings.

        Returns what changed, in words (also sent as ``message``). The body's text is never touched.
        """
        old = self.text()
        result = format_knowledge(old)
        changes = list(result.changes)
        if result.new_text != old:
            replace_minimal(self.editor, old, result.new_text)
        original = self.document_state.original
        if original is not None and shown(original) != original:
            self.document_state.original = None  # the next save writes every line break as LF
            self.editor.document().setModified(True)
            changes.append("line endings will be saved as LF")
        self.message.emit("Formatted: " + "; ".join(changes) if changes else "The frontmatter is already formatted")
        return tuple(changes)

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
        """The buffer as written: ``toPlainText`` would turn a no-break space into a space, so a save would
        change characters nobody touched; the raw text keeps them (its block breaks are U+2029)."""
        return self.editor.document().toRawText().replace("\u2029", "\n")

    # -- diagnostics ------------------------------------------------------------------------------
    def show_pack_diagnostics(self, pack: Pack) -> None:
        """Show the pack's findings that point at this file."""
        self.pack = pack
        self.editor.set_diagnostics(self._mine(pack.findings))
        self._find_fix_lines()

    def _find_fix_lines(self) -> None:
        """Work out, off the GUI thread, on which lines a quick fix really applies (the light bulbs)."""
        if self.quick_fix is None:
            return
        self._latest_fix_lines = workers.submit(lines_with_fixes, self.document_state.pack_root, self.text(),
                                                on_done=self._fix_lines_found)

    def _fix_lines_found(self, request_id: int, lines: frozenset[int]) -> None:
        if request_id == self._latest_fix_lines:
            self.editor.set_fix_lines(lines)

    def _mine(self, diagnostics: Sequence[Diagnostic]) -> list[Diagnostic]:
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
        self._find_fix_lines()
        self.live_validated.emit(pack)

    # -- saving -----------------------------------------------------------------------------------
    def save(self, force: bool = False) -> SaveOutcome:
        """Write the buffer atomically; CONFLICT (nothing written) if the file changed on disk meanwhile."""
        outcome = save_document(self.document_state, self.text(), force=force)
        if outcome is SaveOutcome.SAVED:
            self.editor.document().setModified(False)
            self.saved.emit(self.path)
        return outcome

    def retarget(self, path: Path, pack_root: Path) -> None:
        """The file was renamed or moved (with its folder or pack): keep editing it under its new path."""
        self.document_state.path = path
        self.document_state.pack_root = pack_root

    def reload_from_disk(self, document: Document) -> None:
        """Replace a clean buffer with the file's new content (it changed on disk)."""
        self.document_state = document
        cursor_line = self.editor.textCursor().blockNumber() + 1
        self.editor.setPlainText(document.text)
        self.editor.document().setModified(False)
        self.editor.go_to(cursor_line)
