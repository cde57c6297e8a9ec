"""A read-only plain-text view for text that comes from packs: what Qt's line layout sees is bounded.

Qt's line breaking never finishes on a run of 65,536 or more blanks (spaces, tabs, ideographic spaces) in a
word-wrapped ``QPlainTextEdit``: one such line in a pack file froze the window for good once a preview showed it
(measured: 32,768 spaces lay out in 7 ms, 65,536 do not finish). Every view of pack text is a ``PackTextView``,
which shows long runs shortened with a visible count (``layout_safe``) and keeps the exact text for Copy
(``exact_text``). Editors, which must keep every byte, check ``has_long_blank_run`` and do not wrap such a text.
"""

from __future__ import annotations

import re

from PySide6.QtGui import QFont
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from studio.core.terminal import printable_block

MAX_BLANK_RUN = 4096
"""Longest run of blanks shown as it is: far above any real text, far below where Qt's layout stops."""
KEPT = 16
"""Blanks kept of a longer run, before the marker that counts them."""
_LONG_RUN = re.compile(rf"[^\S\n]{{{MAX_BLANK_RUN + 1},}}")


def has_long_blank_run(text: str) -> bool:
    """True when ``text`` holds a run of blanks (any white space but a line feed) longer than ``MAX_BLANK_RUN``."""
    return _LONG_RUN.search(text) is not None


def layout_safe(text: str) -> str:
    """``text`` with each over-long run of blanks cut to ``KEPT`` and a marker saying how many there were."""
    if not has_long_blank_run(text):
        return text
    return _LONG_RUN.sub(lambda m: f"{m.group()[:KEPT]}⟪{len(m.group()):,} blanks⟫", text)


class PackTextView(QPlainTextEdit):
    """Read-only; ``setPlainText`` shows ``layout_safe(text)`` with every control, bidi control and lone CR as a
    visible escape (``terminal.printable_block``, the layer the CLI writes through: an ESC shows as ``\x1b``, not
    as a box, and a U+202E cannot reorder the lines around it); ``exact_text`` returns what was given.

    ``font`` is the view's font (the editor's or a monospace one, where columns line up); ``wrap`` False keeps
    each line whole and scrolls sideways instead (diffs, file trees: a folded line would read as two)."""

    def __init__(self, text: str = "", parent: QWidget | None = None, *, font: QFont | None = None,
                 wrap: bool = True) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        if font is not None:
            self.setFont(font)
        if not wrap:
            self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self._exact = ""
        self.setPlainText(text)

    def setPlainText(self, text: str) -> None:  # noqa: N802 (Qt's name)
        self._exact = text
        super().setPlainText(printable_block(layout_safe(text)))

    def exact_text(self) -> str:
        return self._exact
