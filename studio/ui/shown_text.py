"""Pack text as a table cell, a heading, a tooltip or a message box shows it: inert and bounded.

A claim's text, a run record's field, a pack's name or a path is pack text. In a cell or a heading it is one line,
controls shown as escapes (``terminal.printable``, the layer the CLI writes through) and cut to
``MAX_LINE_CHARS``: a view elides it anyway, and laying out a megabyte at every paint or resize is a stall (a
1 MB pack name in the Runs heading: 0.55 s to show, 0.37 s per resize). A tooltip or a message box reads any
string that looks like HTML (``<b>``, ``<img src=...>``) as rich text: such a string is escaped into HTML that
shows it as typed; it keeps its line breaks and is cut to ``MAX_TEXT_CHARS`` (a 1 MB tooltip took 0.9 s to show,
100 kB 77 ms).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as QtGui
from PySide6.QtWidgets import QTreeWidgetItem

from studio.core.terminal import printable, printable_block, shortened

MAX_LINE_CHARS = 200
"""A cell or a heading's pack name shows at most this many characters (detail views show the text whole)."""
MAX_TEXT_CHARS = 2000
"""A tooltip, a message box or a description in a label shows at most this many characters."""


def short_line(text: str, limit: int = MAX_LINE_CHARS) -> str:
    """``text`` as one inert line of at most ``limit`` characters."""
    return printable(shortened(text, limit))


def as_typed(text: str) -> str:
    """``text`` for a tooltip or a message box (which guess rich text too), shown as typed: bounded, line breaks
    kept, other controls escaped, markup never read as rich text."""
    shown = printable_block(shortened(text, MAX_TEXT_CHARS))
    return QtGui.convertFromPlainText(shown) if QtGui.mightBeRichText(shown) else shown


def shown_as(value: Any, role: int) -> Any:
    """What a model gives Qt for ``value`` under ``role``: a string to display through ``short_line``, a string
    tooltip through ``as_typed``, anything else as it is. For models whose strings are pack text."""
    if isinstance(value, str):
        if role == Qt.ItemDataRole.DisplayRole:
            return short_line(value)
        if role == Qt.ItemDataRole.ToolTipRole:
            return as_typed(value)
    return value


def text_row(values: Sequence[str]) -> QTreeWidgetItem:
    """A tree row of pack text: each cell ``short_line``, its tooltip the whole value ``as_typed``."""
    item = QTreeWidgetItem([short_line(v) for v in values])
    for column, value in enumerate(values):
        item.setToolTip(column, as_typed(value))
    return item
