"""How Quick Open paints a result row: icon, name, a dimmed location, the matched characters in bold."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRect, QSize
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from studio.core.quick_open import EntryKind, Match
from studio.ui.models.quick_open import MATCH_ROLE, ModelIndex
from studio.ui.widgets.marked_text import draw_marked, match_accent, paint_row_without_text, text_colours


def _short_folder(path: Path) -> str:
    """A folder as a person reads it: ``~`` for the home directory."""
    try:
        return "~/" + path.relative_to(Path.home()).as_posix()
    except ValueError:
        return str(path)


def split_runs(text: str, start: int, matched: set[int]) -> list[tuple[str, bool]]:
    """``text`` cut into (run, matched?) pieces; ``start`` is the index of its first character in the entry."""
    runs: list[tuple[str, bool]] = []
    i = 0
    while i < len(text):
        hit = start + i in matched
        j = i + 1
        while j < len(text) and (start + j in matched) == hit:
            j += 1
        runs.append((text[i:j], hit))
        i = j
    return runs


class QuickOpenDelegate(QStyledItemDelegate):
    """Paints a row as icon, name (a file's last segment) and a dimmed location, matched characters in bold."""

    @property
    def accent(self) -> QColor:
        return match_accent()

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: ModelIndex) -> None:
        found = index.data(MATCH_ROLE)
        if not isinstance(found, Match):
            super().paint(painter, option, index)
            return
        opt = paint_row_without_text(self, painter, option, index)
        entry = found.entry
        matched = set(found.positions)
        if entry.kind is EntryKind.PACK:
            name, name_at = entry.text, 0
            where, where_at = f"pack in {_short_folder(entry.root.parent)}", None
        else:
            name, name_at = entry.text[entry.base:], entry.base
            where, where_at = entry.text[:max(entry.base - 1, 0)], 0
        text, accent = colours = text_colours(opt)
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        dim = QColor(text) if selected else opt.palette.placeholderText().color()
        rect = QRect(opt.rect).adjusted(opt.decorationSize.width() + 12, 0, -8, 0)
        painter.save()
        painter.setClipRect(opt.rect)
        x = self._runs(painter, rect, rect.left(), name, name_at, matched, opt.font, colours, elide_left=False)
        small = QFont(opt.font)
        small.setPointSizeF(max(opt.font.pointSizeF() * 0.92, 7.0))
        if where:
            where_rect = QRect(rect)
            where_rect.setLeft(x + 10)
            offsets = matched if where_at is not None else set()
            self._runs(painter, where_rect, where_rect.left(), where, 0, offsets, small, (dim, accent), elide_left=True)
        painter.restore()

    @staticmethod
    def _runs(painter: QPainter, rect: QRect, x: int, text: str, start: int, matched: set[int], font: QFont,
              colours: tuple[QColor, QColor], *, elide_left: bool) -> int:
        """Draw ``text`` (whose first character is ``start`` in the entry) with matched characters bold.

        Returns where the text ends. ``elide_left`` drops leading characters behind an ellipsis when the
        text does not fit (a location's end, the folder nearest the file, is the informative part).
        """
        plain_fm = QFontMetrics(font)
        prefix: list[tuple[str, bool]] = []
        if elide_left and plain_fm.horizontalAdvance(text) > rect.width() > 0:
            cut = 0
            while cut < len(text) and plain_fm.horizontalAdvance("…" + text[cut:]) > rect.width():
                cut += 1
            text, start, prefix = text[cut:], start + cut, [("…", False)]
        baseline = rect.top() + (rect.height() - plain_fm.height()) // 2 + plain_fm.ascent()
        return draw_marked(painter, x, baseline, prefix + split_runs(text, start, matched), font, colours)

    def sizeHint(self, option: QStyleOptionViewItem, index: ModelIndex) -> QSize:
        size = super().sizeHint(option, index)
        return QSize(size.width(), max(size.height(), QFontMetrics(option.font).height() + 12))
