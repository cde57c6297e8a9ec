"""Read-only views shared by the panels: highlighted record text and a clickable list of diagnostics."""

from __future__ import annotations

from pathlib import Path

# Pygments ships no type hints and the test extra has no stubs for it (as in studio.core.render.markdown).
from pygments import highlight  # type: ignore[import-untyped]
from pygments.formatters import HtmlFormatter  # type: ignore[import-untyped]
from pygments.lexers import JsonLexer, MarkdownLexer  # type: ignore[import-untyped]
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import QTextEdit, QTreeWidget, QTreeWidgetItem, QWidget

from studio.core.diagnostics import Diagnostic
from studio.core.paths import read_bounded
from studio.core.terminal import printable
from studio.ui.icons import severity_icon
from studio.ui.shown_text import as_typed

MAX_SHOWN_BYTES = 4 * 1024 * 1024
MAX_HIGHLIGHT_CHARS = 200_000
"""Above this, Pygments' HTML makes QTextEdit slow: show plain monospace text instead."""


def monospace_font() -> QFont:
    return QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)


def read_text_for_display(root: Path, rel: str) -> str:
    """The file's text (bounded, inside the pack only), or a sentence saying why it cannot be shown."""
    data, size, problem = read_bounded(Path(root) / rel, MAX_SHOWN_BYTES + 1, root=Path(root))
    if problem is not None or data is None:
        return f"({rel} cannot be shown: {problem.message if problem else 'unreadable'})"
    if size > MAX_SHOWN_BYTES:
        return f"({rel} is {size:,} bytes; too large to show)"
    return data.decode("utf-8", errors="replace")


class RecordTextView(QTextEdit):
    """A record's text, highlighted by Pygments when it is small and of a known kind, else plain monospace."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setFont(monospace_font())
        self.setLineWrapMode(QTextEdit.LineWrapMode.NoWrap)
        self.shown_text = ""
        self.highlighted = False

    def show_text(self, text: str, name: str = "") -> None:
        self.shown_text = text
        lexer = JsonLexer() if name.endswith(".json") else MarkdownLexer() if name.endswith(".md") else None
        self.highlighted = lexer is not None and len(text) <= MAX_HIGHLIGHT_CHARS
        if self.highlighted:
            formatter = HtmlFormatter(noclasses=True, nobackground=True, style=_style(self))
            self.setHtml(highlight(text, lexer, formatter))
        else:
            self.setPlainText(text)


def _style(widget: QWidget) -> str:
    return "monokai" if widget.palette().base().color().lightness() < 128 else "default"


class DiagnosticsList(QTreeWidget):
    """Severity, code, line and message per row; activating a row emits ``diagnostic_activated``.

    Signals:
        diagnostic_activated(object): the Diagnostic of the row the user activated.
    """

    diagnostic_activated = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setHeaderLabels(["Severity", "Code", "Line", "Message"])
        self.setRootIsDecorated(False)
        self.setColumnWidth(0, 80)
        self.setColumnWidth(1, 200)
        self.setColumnWidth(2, 50)
        self.itemActivated.connect(self._activated)
        self.itemClicked.connect(self._activated)
        self.diagnostics: list[Diagnostic] = []

    def set_diagnostics(self, diagnostics: list[Diagnostic]) -> None:
        self.clear()
        self.diagnostics = list(diagnostics)
        for diag in self.diagnostics:
            item = QTreeWidgetItem([diag.severity.value, diag.code, str(diag.line), printable(diag.message)])
            item.setIcon(0, severity_icon(diag.severity.value))
            item.setToolTip(3, as_typed(f"{diag.message}\nHint: {diag.hint}" if diag.hint else diag.message))
            item.setData(0, Qt.ItemDataRole.UserRole, diag)
            self.addTopLevelItem(item)

    def _activated(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        diag = item.data(0, Qt.ItemDataRole.UserRole)
        if isinstance(diag, Diagnostic):
            self.diagnostic_activated.emit(diag)
