"""A label for a folder path that wraps at its separators and copies clean.

A word-wrapped label breaks only between words, and a path is one word: in the Inspector at 1280 px a root such
as ``/work/shared/corpus/real/AGenNext__Agent-Memory/Agent-Memory`` lost the end of its longest folder name past
the dock's edge. Shown with a zero-width space after each separator (``/``, ``_``, ``-``, ``.``), it wraps there.
Those spaces are in what is shown only: the label is not selectable, and its context menu's Copy path puts the
path itself on the clipboard.
"""

from __future__ import annotations

import re

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

from studio.ui.shown_text import as_typed

_BREAK_AFTER = re.compile(r"[/_.\-]+")
_ZWSP = "\u200b"


class PathLabel(QLabel):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._path = ""
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        copy = QAction("Copy path", self)
        copy.triggered.connect(self.copy_path)
        self.addAction(copy)

    def setText(self, text: str) -> None:  # noqa: N802 (Qt's name)
        """Show ``text`` (a path already made printable) with break opportunities after its separators."""
        self._path = text
        self.setToolTip(as_typed(text))
        super().setText(_BREAK_AFTER.sub(lambda m: m.group() + _ZWSP, text))

    def text(self) -> str:
        """The path as given, without the break opportunities."""
        return self._path

    def copy_path(self) -> None:
        clipboard = QGuiApplication.clipboard()
        if clipboard is not None:
            clipboard.setText(self._path)
