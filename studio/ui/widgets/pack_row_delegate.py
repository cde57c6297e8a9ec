"""Paints a pack row as name + coloured status chip + trust + profile tag + error/warning counts."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QFontMetrics, QPainter
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
PROFILE_SHORT = {"document-first": "doc-first", "wiki-first": "wiki-first", "hybrid": "hybrid"}


def short_profile_tag(pack: Pack) -> str:
    """Profile for the tree row; ``*`` marks an implied profile (spelled out in the tooltip)."""
    tag = PROFILE_SHORT.get(pack.effective_profile, pack.effective_profile)
    return f"{tag}*" if pack.profile_is_implied else tag


class PackRowDelegate(QStyledItemDelegate):
    """Draws badges for pack rows; every other row is drawn the standard way."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.dark = is_dark()  # asked once: paint() runs for every visible row on every repaint

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        pack = index.data(Role.PACK)
        if index.data(Role.KIND) != "pack" or not isinstance(pack, Pack):
            super().paint(painter, option, index)
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        badges = self._badges(pack)
        opt.text = ""
        widget = opt.widget
        style = widget.style() if widget else None
        if style:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        painter.save()
        fm = QFontMetrics(opt.font)
        rect = QRect(opt.rect)
        x = rect.left() + opt.decorationSize.width() + 8
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        text_color = opt.palette.highlightedText().color() if selected else opt.palette.text().color()
        painter.setPen(text_color)
        name = fm.elidedText(pack.name, Qt.TextElideMode.ElideRight, max(rect.width() // 2, 60))
        painter.drawText(QRect(x, rect.top(), fm.horizontalAdvance(name) + 2, rect.height()),
                         Qt.AlignmentFlag.AlignVCenter, name)
        x += fm.horizontalAdvance(name) + 10
        chip = status_chip(pack.status, self.dark)
        status = pack.status or "no status"
        w = fm.horizontalAdvance(status) + 12
        chip_rect = QRect(x, rect.top() + 3, w, rect.height() - 6)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(chip.background)
        painter.drawRoundedRect(chip_rect, 6, 6)
        painter.setPen(chip.foreground)
        painter.drawText(chip_rect, Qt.AlignmentFlag.AlignCenter, status)
        x += w + 8
        painter.setPen(opt.palette.placeholderText().color() if not selected else text_color)
        for text, icon_name in badges:
            if icon_name:
                icon(icon_name).paint(painter, QRect(x, rect.center().y() - 6, 12, 12))
                x += 14
            painter.drawText(QRect(x, rect.top(), fm.horizontalAdvance(text) + 2, rect.height()),
                             Qt.AlignmentFlag.AlignVCenter, text)
            x += fm.horizontalAdvance(text) + 10
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
