"""Colours for a unified diff shown in a plain-text view (the quick-fix preview, the coverage draft preview)."""

from __future__ import annotations

from PySide6.QtGui import QColor, QSyntaxHighlighter, QTextCharFormat, QTextDocument


class DiffHighlighter(QSyntaxHighlighter):
    """Added lines green, removed lines red, hunk headers blue."""

    def __init__(self, document: QTextDocument) -> None:
        super().__init__(document)
        self._formats: dict[str, QTextCharFormat] = {}
        for prefix, colour in (("+", "#1a7f37"), ("-", "#cf222e"), ("@", "#0550ae")):
            fmt = QTextCharFormat()
            fmt.setForeground(QColor(colour))
            self._formats[prefix] = fmt

    def highlightBlock(self, text: str) -> None:
        if text.startswith(("+++", "---")):
            return
        fmt = self._formats.get(text[:1])
        if fmt is not None:
            self.setFormat(0, len(text), fmt)
