"""Completion and hover docs for KNOWLEDGE.md's frontmatter in a CodeEditor.

Ctrl+Space lists what fits at the cursor (keys at that level, a key's allowed values, the pack's files for
``metadata.primary*``); the list also opens by itself while a key is typed at the start of a frontmatter
line and after ``key: `` when the key has values to offer. Each entry shows its meaning from the standard.
Hovering a key (or an enumeration value) shows what it means. The answers come from
``studio.core.authoring.completion``, which only reads the buffer (and a bounded listing of the pack).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import cast

from PySide6.QtCore import QModelIndex, QObject, Qt
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QAbstractItemView, QCompleter

from studio.core.authoring.completion import Completion, complete, hover, new_line_indent
from studio.ui.text_edits import qt_position
from studio.ui.widgets.code_editor import CodeEditor

LABEL_ROLE = Qt.ItemDataRole.UserRole + 1
INSERT_ROLE = Qt.ItemDataRole.UserRole + 2
AUTO_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-:/ .")


class FrontmatterAssist(QObject):
    """Attach to ``editor``; ``pack_root()`` names the pack whose files ``metadata.primary*`` offers."""

    def __init__(self, editor: CodeEditor, pack_root: Callable[[], Path], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.editor = editor
        self.pack_root = pack_root
        self.model = QStandardItemModel(self)
        self.completer = QCompleter(self.model, self)
        self.completer.setWidget(editor)
        self.completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self.completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.completer.setCompletionRole(LABEL_ROLE)
        self.completer.setMaxVisibleItems(12)
        # PySide6's stubs type a signal without its overloads: the index picks activated(QModelIndex), not (str).
        self.completer.activated[QModelIndex].connect(self._insert)  # type: ignore[index]
        self.current: Completion | None = None
        editor.completer = self.completer
        editor.after_key = self._after_key
        editor.hover_provider = self.hover
        self.shortcut = QShortcut(QKeySequence("Ctrl+Space"), editor, self.trigger,
                                  context=Qt.ShortcutContext.WidgetShortcut)

    # -- completion ---------------------------------------------------------------------------------
    def trigger(self, explicit: bool = True) -> bool:
        """Open the list for the cursor's place; False (and the list closed) when nothing fits there."""
        cursor = self.editor.textCursor()
        text = self.editor.toPlainText()
        block = cursor.block()
        column = len(_py(block.text(), cursor.positionInBlock()))
        found = complete(text, block.blockNumber() + 1, column, self.pack_root())
        popup = self._popup()
        if found is None or not found.items or (not explicit and not self._worth_showing(found)):
            popup.hide()
            self.current = None
            return False
        if found != self.current:
            self._fill(found)
        self.current = found
        self.completer.setCompletionPrefix(found.prefix)
        if self.completer.completionCount() == 0 or (not explicit and self._only_exact(found)):
            popup.hide()
            return False
        popup.setCurrentIndex(self.completer.completionModel().index(0, 0))
        rect = self.editor.cursorRect().translated(self.editor.viewport().pos())  # the gutter is a margin
        rect.setWidth(max(popup.sizeHintForColumn(0) + popup.verticalScrollBar().sizeHint().width(), 320))
        self.completer.complete(rect)
        return True

    def _popup(self) -> QAbstractItemView:
        # QCompleter.popup() makes its list on first use; only an inline completer has none (the stubs allow None).
        return cast(QAbstractItemView, self.completer.popup())

    def _fill(self, found: Completion) -> None:
        self.model.clear()
        for item in found.items:
            row = QStandardItem(f"{item.label}    {item.detail}" if item.detail else item.label)
            row.setData(item.label, LABEL_ROLE)
            row.setData(item.insert, INSERT_ROLE)
            row.setToolTip(item.detail)
            self.model.appendRow(row)

    def _worth_showing(self, found: Completion) -> bool:
        return bool(found.prefix) if not found.is_value else True

    def _only_exact(self, found: Completion) -> bool:
        labels = [item.label for item in found.items if found.prefix.lower() in item.label.lower()]
        return labels == [found.prefix]

    def _after_key(self, event: QKeyEvent) -> None:
        text = event.text()
        popup = self._popup()
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not popup.isVisible():
            self._indent_new_line()
            return
        if event.key() == Qt.Key.Key_Backspace and popup.isVisible():
            self.trigger(explicit=False)
            return
        if not text or event.modifiers() & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier):
            return
        if text in AUTO_CHARS or text.isalnum():
            self.trigger(explicit=False)
        elif popup.isVisible():
            popup.hide()

    def _indent_new_line(self) -> None:
        """After Return in the frontmatter: start the new line at the indentation YAML expects there."""
        cursor = self.editor.textCursor()
        if cursor.hasSelection() or cursor.positionInBlock() != 0:
            return
        indent = new_line_indent(self.editor.toPlainText(), cursor.block().blockNumber())
        if indent:
            cursor.joinPreviousEditBlock()  # one undo step with the Return itself
            cursor.insertText(indent)
            cursor.endEditBlock()
            self.editor.setTextCursor(cursor)

    def _insert(self, index: QModelIndex) -> None:
        found = self.current
        insert = index.data(INSERT_ROLE)
        if found is None or not isinstance(insert, str):
            return
        cursor = self.editor.textCursor()
        block = cursor.block()
        if block.blockNumber() + 1 != found.line:
            return
        line = block.text()
        start = block.position() + qt_position(line, found.start)
        cursor.setPosition(start)
        cursor.setPosition(self.editor.textCursor().position(), cursor.MoveMode.KeepAnchor)
        cursor.insertText(insert)
        self.editor.setTextCursor(cursor)
        self.current = None

    # -- hover ----------------------------------------------------------------------------------------
    def hover(self, line: int, column: int) -> tuple[str, str] | None:
        """(title, text) for the key or value at 1-based ``line``, Qt ``column`` (None: nothing to say)."""
        block = self.editor.document().findBlockByNumber(line - 1)
        found = hover(self.editor.toPlainText(), line, len(_py(block.text(), column)))
        return (found.title, found.text) if found is not None else None


def _py(line: str, qt_column: int) -> str:
    """The part of ``line`` before Qt column ``qt_column`` (UTF-16 units), as a Python string."""
    units = 0
    for index, char in enumerate(line):
        if units >= qt_column:
            return line[:index]
        units += 2 if ord(char) > 0xFFFF else 1
    return line
