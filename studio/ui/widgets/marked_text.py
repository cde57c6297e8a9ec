"""Rows that show what a search matched: the style paints the row, then the text is drawn piece by piece, the
matched pieces bold and in the accent colour.

Shared by Quick Open's rows (the characters a fuzzy query matched) and Find in Workspace's snippets (the words a
full-text query matched), so both mark a match the same way in either theme.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QPoint
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from studio.ui.theme import is_dark


def match_accent() -> QColor:
    """The colour of matched text on a row that is not selected (asked per row: the theme may change)."""
    return QColor("#6ea8ff" if is_dark() else "#0a5bd3")


def paint_row_without_text(delegate: QStyledItemDelegate, painter: QPainter, option: QStyleOptionViewItem,
                           index: QModelIndex | QPersistentModelIndex) -> QStyleOptionViewItem:
    """Have the style paint the row's background, selection and icon, but not its text; returns the row's
    options (rect, font, palette, state) for the text the delegate draws itself."""
    opt = QStyleOptionViewItem(option)
    delegate.initStyleOption(opt, index)
    opt.text = ""
    widget = opt.widget
    if widget is not None:
        widget.style().drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
    return opt


def text_colours(opt: QStyleOptionViewItem) -> tuple[QColor, QColor]:
    """(text, matches) colours of a row: on a selected row the matches keep the selection's text colour and
    stand out by weight alone (the accent would be unreadable on the selection's background)."""
    if opt.state & QStyle.StateFlag.State_Selected:
        selected = opt.palette.highlightedText().color()
        return selected, selected
    return opt.palette.text().color(), match_accent()


def draw_marked(painter: QPainter, x: int, baseline: int, pieces: Iterable[tuple[str, bool]], font: QFont,
                colours: tuple[QColor, QColor], *, right: int | None = None) -> int:
    """Draw ``pieces`` (text, matched?) from ``x`` on ``baseline``, matched pieces bold in the second colour.

    Returns where the text ends. With ``right`` the pieces that would start past it are not drawn (a long
    snippet ends at its cell; the painter's clip cuts the piece that straddles the edge).
    """
    bold = QFont(font)
    bold.setBold(True)
    plain_fm, bold_fm = QFontMetrics(font), QFontMetrics(bold)
    colour, accent = colours
    for text, hot in pieces:
        painter.setFont(bold if hot else font)
        painter.setPen(accent if hot else colour)
        painter.drawText(QPoint(x, baseline), text)
        x += (bold_fm if hot else plain_fm).horizontalAdvance(text)
        if right is not None and x > right:
            break
    return x
