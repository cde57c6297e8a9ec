"""CodeEditor: a plain-text editor with a line-number gutter and diagnostics shown in place.

Each diagnostic gets a wavy underline from its column to the end of the word there, a severity marker
in the gutter, and a tooltip when the mouse rests on its line. When the owner says which findings have a
quick fix (``fixable``), the cursor's line shows a light bulb in the gutter instead of the marker; a click
on it emits ``bulb_clicked``. An owner may also give a ``hover_provider`` whose text leads the tooltip, and
a ``completer`` (while its popup shows, Enter, Tab and Escape are left to it) with ``after_key`` called
after each key the editor handled.

Signals:
    bulb_clicked(int): the light bulb of this 1-based line was clicked.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import cast

from PySide6.QtCore import QEvent, QPoint, QRect, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QHelpEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QResizeEvent,
    QStaticText,
    QTextCharFormat,
    QTextCursor,
    QTextFormat,
)
from PySide6.QtWidgets import QCompleter, QPlainTextEdit, QTextEdit, QToolTip, QWidget

from studio.core.diagnostics import Diagnostic, Severity
from studio.ui.icons import icon, severity_icon
from studio.ui.shown_text import as_typed
from studio.ui.theme import editor_font

SEVERITY_COLOURS = {Severity.ERROR: "#e53935", Severity.WARNING: "#f29d0c", Severity.INFO: "#2f7fd8"}


class _Gutter(QWidget):
    def __init__(self, editor: CodeEditor) -> None:
        super().__init__(editor)

    @property
    def editor(self) -> CodeEditor:
        # Through Qt's parent link rather than an attribute: editor -> gutter -> editor would be a reference
        # cycle, and Python's cycle collector may free a cycle of Qt objects in whichever thread it runs
        # in, a worker thread included, where deleting a widget crashes.
        editor = self.parent()
        assert isinstance(editor, CodeEditor)
        return editor

    def sizeHint(self) -> QSize:
        return QSize(self.editor.gutter_width(), 0)

    def paintEvent(self, event: QPaintEvent) -> None:
        self.editor.paint_gutter(self, event.rect())

    def mousePressEvent(self, event: QMouseEvent) -> None:
        editor = self.editor
        if event.position().x() < BULB_WIDTH:
            number = editor.cursorForPosition(QPoint(0, int(event.position().y()))).blockNumber() + 1
            if number in editor.fix_lines:
                editor.bulb_clicked.emit(number)
                return
        super().mousePressEvent(event)


BULB_WIDTH = 18
"""The gutter's left strip, where the severity marker or the light bulb sits."""
_COMPLETER_KEYS = (Qt.Key.Key_Enter, Qt.Key.Key_Return, Qt.Key.Key_Escape, Qt.Key.Key_Tab, Qt.Key.Key_Backtab)


class CodeEditor(QPlainTextEdit):
    """Line numbers, diagnostics, no wrapping surprises; the text is only ever saved by the owner."""

    bulb_clicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFont(editor_font())
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.setTabStopDistance(self.fontMetrics().horizontalAdvance(" ") * 4)
        self.diagnostics: list[Diagnostic] = []
        self._by_line: dict[int, list[Diagnostic]] = {}
        self._labels: dict[int, tuple[QStaticText, int]] = {}
        self._labels_font = ""
        self.fixable: Callable[[Diagnostic], bool] | None = None
        """Whether a finding has a quick fix (set by the owner; None: no light bulbs)."""
        self.fix_lines: set[int] = set()
        self._confirmed_fix_lines: set[int] | None = None
        self.hover_provider: Callable[[int, int], tuple[str, str] | None] | None = None
        """(1-based line, 0-based column) -> (title, text) to lead the tooltip with, or None."""
        self._bulb_line = 0
        self.completer: QCompleter | None = None
        self.after_key: Callable[[QKeyEvent], None] | None = None
        self.gutter = _Gutter(self)
        self.blockCountChanged.connect(self._update_margin)
        self.updateRequest.connect(self._scroll_gutter)
        self.cursorPositionChanged.connect(self._refresh_selections)
        self.cursorPositionChanged.connect(self._move_bulb)
        self._update_margin()

    # -- gutter ---------------------------------------------------------------------------------
    def gutter_width(self) -> int:
        digits = max(3, len(str(self.blockCount())))
        return 22 + self.fontMetrics().horizontalAdvance("9") * digits

    def _update_margin(self, _count: int = 0) -> None:
        self.setViewportMargins(self.gutter_width(), 0, 0, 0)

    def _scroll_gutter(self, rect: QRect, dy: int) -> None:
        if dy:
            self.gutter.scroll(0, dy)
        else:
            self.gutter.update(0, rect.y(), self.gutter.width(), rect.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        cr = self.contentsRect()
        self.gutter.setGeometry(QRect(cr.left(), cr.top(), self.gutter_width(), cr.height()))

    def paint_gutter(self, gutter: QWidget, rect: QRect) -> None:
        painter = QPainter(gutter)
        palette = self.palette()
        painter.fillRect(rect, palette.alternateBase())
        block = self.firstVisibleBlock()
        top = round(self.blockBoundingGeometry(block).translated(self.contentOffset()).top())
        height = self.fontMetrics().height()
        current = self.textCursor().blockNumber()
        while block.isValid() and top <= rect.bottom():
            bottom = top + round(self.blockBoundingRect(block).height())
            number = block.blockNumber()
            if block.isVisible() and bottom >= rect.top():
                diags = self._by_line.get(number + 1)
                if number == current and number + 1 in self.fix_lines:
                    icon("lightbulb").paint(painter, QRect(2, top + (height - 14) // 2, 14, 14))
                elif diags:
                    worst = min(diags, key=lambda d: d.severity.rank)
                    severity_icon(worst.severity.value).paint(painter, QRect(3, top + (height - 12) // 2, 12, 12))
                colour = palette.text().color() if number == current else palette.placeholderText().color()
                painter.setPen(colour)
                label, width = self._line_label(number + 1)
                painter.drawStaticText(gutter.width() - 6 - width, top, label)
            block = block.next()
            top = bottom
        painter.end()

    def _line_label(self, number: int) -> tuple[QStaticText, int]:
        """A line number laid out once (drawText laid each one out again on every repaint)."""
        font_key = self.font().key()
        if font_key != self._labels_font:
            self._labels_font = font_key
            self._labels.clear()
        label = self._labels.get(number)
        if label is None:
            text = str(number)
            static = QStaticText(text)
            static.setTextFormat(Qt.TextFormat.PlainText)
            label = self._labels[number] = (static, self.fontMetrics().horizontalAdvance(text))
        return label

    # -- diagnostics ------------------------------------------------------------------------------
    def set_diagnostics(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = list(diagnostics)
        self._by_line = {}
        for d in self.diagnostics:
            self._by_line.setdefault(d.line, []).append(d)
        fixable = self.fixable
        lines = {d.line for d in self.diagnostics if fixable(d)} if fixable is not None else set()
        # Once the owner has said where fixes really apply (set_fix_lines), a bulb never comes back on a line
        # merely because its code has a fixer: until the next answer, only lines already known keep theirs.
        self.fix_lines = lines & self._confirmed_fix_lines if self._confirmed_fix_lines is not None else lines
        self._refresh_selections()
        self.gutter.update()

    def set_fix_lines(self, lines: frozenset[int]) -> None:
        """The lines where a fix is known to apply (worked out off the GUI thread): the only ones with a bulb."""
        self._confirmed_fix_lines = set(lines)
        self.fix_lines = set(lines)
        self.gutter.update()

    def _move_bulb(self) -> None:
        # The bulb follows the cursor: repaint the gutter when the cursor changes line and a bulb is involved.
        line = self.textCursor().blockNumber() + 1
        if line != self._bulb_line and (line in self.fix_lines or self._bulb_line in self.fix_lines):
            self.gutter.update()
        self._bulb_line = line

    def diagnostics_at_line(self, line: int) -> list[Diagnostic]:
        return list(self._by_line.get(line, []))

    def _refresh_selections(self) -> None:
        selections: list[QTextEdit.ExtraSelection] = []
        current = QTextEdit.ExtraSelection()
        current.format.setBackground(self.palette().alternateBase())
        current.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
        current.cursor = self.textCursor()
        current.cursor.clearSelection()
        selections.append(current)
        for d in self.diagnostics:
            cursor = self._span(d)
            if cursor is None:
                continue
            sel = QTextEdit.ExtraSelection()
            sel.cursor = cursor
            sel.format.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
            sel.format.setUnderlineColor(QColor(SEVERITY_COLOURS[d.severity]))
            sel.format.setToolTip(as_typed(d.message))
            selections.append(sel)
        self.setExtraSelections(selections)

    def _span(self, d: Diagnostic) -> QTextCursor | None:
        """From the diagnostic's column to the end of the word there (the whole line for column 1)."""
        block = self.document().findBlockByNumber(max(d.line, 1) - 1)
        if not block.isValid():
            return None
        text = block.text()
        if not text.strip():
            return None
        start = min(max(d.column, 1) - 1, max(len(text) - 1, 0))
        end = start
        if d.column <= 1:
            end = len(text.rstrip())
            start = len(text) - len(text.lstrip())
        else:
            while end < len(text) and not text[end].isspace():
                end += 1
            end = max(end, start + 1)
        cursor = QTextCursor(block)
        cursor.setPosition(block.position() + start)
        cursor.setPosition(block.position() + min(end, len(text)), QTextCursor.MoveMode.KeepAnchor)
        return cursor

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            # The current line's band is a colour of the palette, copied into an extra selection: paint it again
            # in the new theme's colour (it kept the old theme's until the cursor moved).
            self._refresh_selections()
            self.gutter.update()

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            help_event = cast(QHelpEvent, event)  # Qt sends a QHelpEvent for ToolTip
            pos = help_event.pos()
            in_gutter = pos.x() < self.gutter_width()
            local = pos - self.viewport().pos() if not in_gutter else pos
            cursor = self.cursorForPosition(local.__class__(max(local.x(), 0), local.y()))
            line = cursor.blockNumber() + 1
            parts = []
            if not in_gutter and self.hover_provider is not None:
                found = self.hover_provider(line, cursor.positionInBlock())
                if found is not None:
                    parts.append(f"<b>{html.escape(found[0])}</b><br>{html.escape(found[1]).replace(chr(10), '<br>')}")
            parts += [html.escape(f"{d.severity.value}: {d.message} ({d.code})") for d in self._by_line.get(line, [])]
            if in_gutter and line in self.fix_lines:
                parts.append("<i>Quick fixes: click the light bulb or press Ctrl+.</i>")
            if parts:
                QToolTip.showText(help_event.globalPos(), "<p>" + "<br>".join(parts) + "</p>", self)
            else:
                QToolTip.hideText()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        completer = self.completer
        popup = completer.popup() if completer is not None else None
        if popup is not None and popup.isVisible() and event.key() in _COMPLETER_KEYS:
            event.ignore()  # the completer's popup acts on these (Qt's custom-completer pattern)
            return
        super().keyPressEvent(event)
        if self.after_key is not None:
            self.after_key(event)

    # -- navigation -------------------------------------------------------------------------------
    def go_to(self, line: int, column: int = 1) -> None:
        """Put the cursor at a 1-based line and column and make it visible."""
        block = self.document().findBlockByNumber(max(line, 1) - 1)
        if not block.isValid():
            block = self.document().lastBlock()
        position = block.position() + min(max(column, 1) - 1, max(block.length() - 1, 0))
        current = self.textCursor()
        if current.position() != position or current.hasSelection():
            # Moving the cursor makes the editor lay out the text up to it: worth skipping for the most
            # common jump, to line 1 of a file just opened (where the cursor already is).
            cursor = QTextCursor(block)
            cursor.setPosition(position)
            self.setTextCursor(cursor)
            self.centerCursor()
        self.setFocus()
