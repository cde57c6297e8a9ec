"""Pack text as a table cell or a tooltip shows it: inert and bounded.

A claim's text, a run record's field or a path is pack text. In a cell it is one line, controls shown as escapes
(``terminal.printable``, the layer the CLI writes through) and cut to ``MAX_CELL_CHARS``: the view elides it
anyway, and eliding a megabyte at every paint is a stall. In a tooltip Qt reads any string that looks like HTML
(``<b>``, ``<img src=...>``) as rich text, so one that does is escaped into HTML that shows it as typed; it keeps
its line breaks and is cut to ``MAX_TIP_CHARS`` (a 1 MB tooltip took 0.9 s to show, 100 kB 77 ms).
"""

from __future__ import annotations

from PySide6.QtGui import Qt as QtGui

from studio.core.terminal import printable, printable_block, shortened

MAX_CELL_CHARS = 200
"""A cell shows at most this many characters (the panels' detail views show the text whole)."""
MAX_TIP_CHARS = 2000
"""A tooltip shows at most this many characters."""


def cell_text(text: str) -> str:
    """``text`` as one inert line of at most ``MAX_CELL_CHARS`` characters."""
    return printable(shortened(text, MAX_CELL_CHARS))


def tip_text(text: str) -> str:
    """``text`` as a tooltip shows it as typed: bounded, controls escaped, markup never read as rich text."""
    shown = printable_block(shortened(text, MAX_TIP_CHARS))
    return QtGui.convertFromPlainText(shown) if QtGui.mightBeRichText(shown) else shown
