"""Paints a pack row as name + coloured status chip + trust + profile tag + error/warning counts."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, QPoint, QRect, QSize, Qt
from PySide6.QtGui import QFontMetrics, QPainter, QStaticText
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from studio.core.model import Pack
from studio.ui.icons import icon
from studio.ui.models.pack_tree import Role
from studio.ui.theme import is_dark, status_chip


def profile_tag(pack: Pack) -> str:
    """The profile as a short tag; an implied one is marked so it is not mistaken for a declaration."""
    return f"{pack.effective_profile} (implied)" if pack.profile_is_implied else pack.effective_profile


TRUST_GLYPHS = {"official": "★", "user-confirmed": "✓", "external": "↗", "unreviewed": "?"}
"""Trust as a one-character badge in the tree (the full word is in the row's tooltip and the Inspector)."""
TEXT_CACHE_LIMIT = 5000
"""Prepared strings kept per delegate (names, statuses, badges); the cache starts over beyond this."""
PROFILE_SHORT = {"document-first": "doc-first", "wiki-first": "wiki-first", "hybrid": "hybrid"}


def short_profile_tag(pack: Pack) -> str:
    """Profile for the tree row; ``*`` marks an implied profile (spelled out in the tooltip)."""
    tag = PROFILE_SHORT.get(pack.effective_profile, pack.effective_profile)
    return f"{tag}*" if pack.profile_is_implied else tag


class PackRowDelegate(QStyledItemDelegate):
    """Draws badges for pack rows; every other row is drawn the standard way.

    Text is drawn from cached QStaticText: laying out the same name, status and badge strings again on
    every repaint made a pack row cost about a millisecond, and a tree shows dozens of them.
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.dark = is_dark()  # asked once: paint() runs for every visible row on every repaint
        self._font_key = ""
        self._texts: dict[str, tuple[QStaticText, int]] = {}
        self._elided: dict[tuple[str, int], str] = {}

    def _text(self, text: str, fm: QFontMetrics) -> tuple[QStaticText, int]:
        """The prepared text and its width in the current font."""
        cached = self._texts.get(text)
        if cached is None:
            if len(self._texts) > TEXT_CACHE_LIMIT:
                self._texts.clear()
            static = QStaticText(text)
            static.setTextFormat(Qt.TextFormat.PlainText)
            cached = self._texts[text] = (static, fm.horizontalAdvance(text))
        return cached

    def _elide(self, name: str, width: int, fm: QFontMetrics) -> str:
        key = (name, width)
        elided = self._elided.get(key)
        if elided is None:
            if len(self._elided) > TEXT_CACHE_LIMIT:
                self._elided.clear()
            elided = self._elided[key] = fm.elidedText(name, Qt.TextElideMode.ElideRight, width)
        return elided

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        pack = index.data(Role.ROW_PACK)
        if not isinstance(pack, Pack):
            super().paint(painter, option, index)
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        if opt.font.key() != self._font_key:  # widths were measured in another font
            self._font_key = opt.font.key()
            self._texts.clear()
            self._elided.clear()
        opt.text = ""
        widget = opt.widget
        style = widget.style() if widget else None
        if style:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        painter.save()
        fm = QFontMetrics(opt.font)
        rect = QRect(opt.rect)
        top = rect.top() + (rect.height() - fm.height()) // 2
        x = rect.left() + opt.decorationSize.width() + 8
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        text_color = opt.palette.highlightedText().color() if selected else opt.palette.text().color()
        painter.setPen(text_color)
        name, width = self._text(self._elide(pack.name, max(rect.width() // 2, 60), fm), fm)
        painter.drawStaticText(QPoint(x, top), name)
        x += width + 10
        chip = status_chip(pack.status, self.dark)
        status, width = self._text(pack.status or "no status", fm)
        w = width + 12
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(chip.background)
        painter.drawRoundedRect(QRect(x, rect.top() + 3, w, rect.height() - 6), 6, 6)
        painter.setPen(chip.foreground)
        painter.drawStaticText(QPoint(x + 6, top), status)
        x += w + 8
        painter.setPen(opt.palette.placeholderText().color() if not selected else text_color)
        for text, icon_name in self._badges(pack):
            if icon_name:
                icon(icon_name).paint(painter, QRect(x, rect.center().y() - 6, 12, 12))
                x += 14
            badge, width = self._text(text, fm)
            painter.drawStaticText(QPoint(x, top), badge)
            x += width + 10
        painter.restore()

    @staticmethod
    def _badges(pack: Pack) -> list[tuple[str, str]]:
        counts = pack.counts
        trust = TRUST_GLYPHS.get(pack.trust or "", "·")
        out: list[tuple[str, str]] = [(trust, ""), (short_profile_tag(pack), "")]
        if counts.errors:
            out.append((str(counts.errors), "error"))
        if counts.warnings:
            out.append((str(counts.warnings), "warning"))
        return out

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        size = super().sizeHint(option, index)
        return QSize(size.width(), max(size.height(), 22))
