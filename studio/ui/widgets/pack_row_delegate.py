"""Paints a pack row as name (+ a muted scope/path suffix when the name is shared) + coloured status chip + trust +
profile tag + error/warning counts."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, QPoint, QRect, QSize, Qt
from PySide6.QtGui import QFontMetrics, QPainter, QStaticText
from PySide6.QtWidgets import QAbstractItemView, QStyle, QStyledItemDelegate, QStyleOptionViewItem

from studio.core.diagnostics import Diagnostic
from studio.core.model import Pack
from studio.core.terminal import printable
from studio.ui.icons import icon
from studio.ui.let_go import let_go
from studio.ui.models.pack_tree import Role
from studio.ui.theme import Chip, is_dark, status_chip, theme_signals

_WHERE = int(Role.WHERE)


def profile_tag(pack: Pack) -> str:
    """The profile as a short tag; an implied one is marked so it is not mistaken for a declaration."""
    return f"{pack.effective_profile} (implied)" if pack.profile_is_implied else pack.effective_profile


TRUST_GLYPHS = {"official": "★", "user-confirmed": "✓", "external": "↗", "unreviewed": "?"}
"""Trust as a one-character badge in the tree (the full word is in the row's tooltip and the Inspector)."""
TEXT_CACHE_LIMIT = 5000
"""Prepared strings kept per delegate (names, statuses, badges); the cache starts over beyond this."""
NAME_MIN = 150
"""Pixels a pack name keeps before the profile tag and then the trust glyph make room for it: the name is
how a curator finds a pack; both tags are in the tooltip and the Inspector."""
NAME_FLOOR = 24
"""Pixels a name keeps however narrow the row: a few letters and the ellipsis, the counts pushed right if need be."""
DOT = 10
"""Width of the status chip when it shrinks to a dot."""
CHIP_ROW_MIN = 380
"""Rows narrower than this draw the status as a dot, wider ones as a chip with the word: one style for every row
at a width (choosing per row by the name's length mixed chips and dots in one tree)."""
PROFILE_SHORT = {"document-first": "doc-first", "wiki-first": "wiki-first", "hybrid": "hybrid"}


def short_profile_tag(pack: Pack) -> str:
    """Profile for the tree row; ``*`` marks an implied profile (spelled out in the tooltip)."""
    tag = PROFILE_SHORT.get(pack.effective_profile, pack.effective_profile)
    return f"{tag}*" if pack.profile_is_implied else tag


def tags_that_fit(room: int, name_width: int, chip_width: int, tag_widths: list[int]) -> int:
    """How many of the tags (trust, then profile) fit beside the name and the status chip in ``room`` pixels;
    the last tags give way first."""
    kept = len(tag_widths)
    while kept and name_width + 10 + chip_width + 8 + sum(w + 10 for w in tag_widths[:kept]) > room:
        kept -= 1
    return kept


@dataclass(frozen=True, slots=True)
class _Look:
    """What a pack row shows, read from the pack once (its properties look into the frontmatter)."""

    pack: Pack
    diagnostics: tuple[Diagnostic, ...]
    """The findings the counts were read from: settling a scan gives the same Pack new findings."""
    name: str
    status: str
    chip: Chip
    badges: tuple[tuple[str, str], ...]
    """(text, icon name or "") after the status chip: trust, profile, error and warning counts."""

    @classmethod
    def of(cls, pack: Pack, dark: bool) -> _Look:
        counts = pack.counts
        badges = [(TRUST_GLYPHS.get(pack.trust or "", "·"), ""), (short_profile_tag(pack), "")]
        if counts.errors:
            badges.append((str(counts.errors), "error"))
        if counts.warnings:
            badges.append((str(counts.warnings), "warning"))
        return cls(pack, pack.findings, printable(pack.name), pack.status or "no status",
                   status_chip(pack.status, dark), tuple(badges))


class PackRowDelegate(QStyledItemDelegate):
    """Draws badges for pack rows; every other row is drawn the standard way.

    A tree shows dozens of pack rows and repaints them often, so a row costs as little Python as possible:
    what it shows is read from the pack once per Pack object, its strings are drawn from cached
    QStaticText (laying the same strings out again made a row cost about a millisecond), and the item
    background is set up here instead of by ``initStyleOption``, which asks the model ten questions.
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.dark = is_dark()  # asked once: paint() runs for every visible row on every repaint
        theme_signals().changed.connect(self._theme_changed)
        self._font_key = ""
        self._texts: dict[str, tuple[QStaticText, int]] = {}
        self._elided: dict[tuple[str, int, Qt.TextElideMode], str] = {}
        self._looks: dict[int, _Look] = {}

    def forget(self) -> None:
        """Drop what was read of the packs painted so far (a new workspace replaces them). The cache holds each
        Pack it drew: it kept the rows of every earlier workspace alive, about 1 MiB a re-opening at 10,000 packs."""
        let_go(self._looks.values())
        self._looks = {}

    def _theme_changed(self, dark: bool) -> None:
        self.dark = dark
        self._looks.clear()  # the chips' colours
        view = self.parent()
        if isinstance(view, QAbstractItemView):
            view.viewport().update()

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

    def _elide(self, name: str, width: int, fm: QFontMetrics,
               mode: Qt.TextElideMode = Qt.TextElideMode.ElideRight) -> str:
        key = (name, width, mode)
        elided = self._elided.get(key)
        if elided is None:
            if len(self._elided) > TEXT_CACHE_LIMIT:
                self._elided.clear()
            elided = self._elided[key] = fm.elidedText(name, mode, width)
        return elided

    def _look(self, pack: Pack) -> _Look:
        look = self._looks.get(id(pack))
        # A reload brings a new Pack object; settling a scan gives a pack new findings (a tuple: never changed).
        if look is None or look.pack is not pack or look.diagnostics is not pack.findings:
            if len(self._looks) > TEXT_CACHE_LIMIT:
                self._looks.clear()
            look = self._looks[id(pack)] = _Look.of(pack, self.dark)
        return look

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        pack = index.data(Role.ROW_PACK)
        if not isinstance(pack, Pack):
            super().paint(painter, option, index)
            return
        look = self._look(pack)
        opt = QStyleOptionViewItem(option)
        # Qt converts a persistent index to a QModelIndex; PySide6's stubs lack that constructor.
        opt.index = QModelIndex(index)  # type: ignore[arg-type]
        opt.features |= QStyleOptionViewItem.ViewItemFeature.HasDecoration
        opt.icon = icon("pack")
        if opt.font.key() != self._font_key:  # widths were measured in another font
            self._font_key = opt.font.key()
            self._texts.clear()
            self._elided.clear()
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
        # Finding counts sit at the right edge, where a narrow dock never cuts them off; the trust and
        # profile tags give way first (both are in the tooltip and the Inspector), then the name elides.
        counts = [(self._text(text, fm), icon_name) for text, icon_name in look.badges if icon_name]
        right = rect.right() - 4 - sum(14 + width + 10 for (_static, width), _icon in counts)
        tags = [self._text(text, fm) for text, icon_name in look.badges if not icon_name]
        status, status_width = self._text(look.status, fm)
        chip_width = status_width + 12
        name_width = self._text(look.name, fm)[1]
        # A shared name's suffix (``explicit, v0.4.0/``) is what tells the copies apart: it keeps room beside the
        # name, muted, and elides in the middle so that both the scope and the telling folder stay readable.
        where = index.data(_WHERE)
        where_width = self._text(where, fm)[1] + 12 if where else 0  # elidedText measures a little wider
        wanted = min(name_width, NAME_MIN) + min(where_width, NAME_MIN)
        del tags[tags_that_fit(right - x, wanted, chip_width, [w for _s, w in tags]):]
        room = right - x - 10 - chip_width - 8 - sum(w + 10 for _s, w in tags)
        # In a narrow dock the status chip shrinks to a coloured dot (the word is in the tooltip and the
        # Inspector), on every row alike: the row's width decides, not its name's length.
        compact = rect.width() < CHIP_ROW_MIN
        if compact:
            room += chip_width - DOT
            chip_width = DOT
        # Copies share the name: the suffix is what tells them apart, so it may take most of a narrow row.
        where_room = min(where_width, max(room - name_width, room * 3 // 5)) if where else 0
        # Name and suffix share what the row has left, never the counts' place: a name held at a fixed minimum
        # beside a full suffix pushed the warning count past the row's right edge. When the two do not both fit,
        # they split the room (the suffix is what tells the copies apart, the name what the copies share).
        name_room = room - where_room
        if name_room < NAME_MIN // 2:
            name_room = max(NAME_FLOOR, min(NAME_MIN // 2, room // 2)) if where else max(room, NAME_FLOOR)
            where_room = max(0, room - name_room)
        # Elided in the middle: names often share a start (acme-content-ontology, acme-content-ops) and differ
        # at the end, so cutting the end made two packs read the same.
        name, width = self._text(self._elide(look.name, name_room, fm, Qt.TextElideMode.ElideMiddle), fm)
        painter.drawStaticText(QPoint(x, top), name)
        x += width
        if where and where_room > 16:
            suffix, suffix_width = self._text(self._elide(where, where_room - 8, fm, Qt.TextElideMode.ElideMiddle), fm)
            painter.setPen(opt.palette.placeholderText().color() if not selected else text_color)
            painter.drawStaticText(QPoint(x + 8, top), suffix)
            x += 8 + suffix_width
        x += 10
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(look.chip.background)
        if compact:
            painter.drawEllipse(QRect(x, rect.center().y() - DOT // 2 + 1, DOT, DOT))
        else:
            painter.drawRoundedRect(QRect(x, rect.top() + 3, chip_width, rect.height() - 6), 6, 6)
            painter.setPen(look.chip.foreground)
            painter.drawStaticText(QPoint(x + 6, top), status)
        x += chip_width + 8
        painter.setPen(opt.palette.placeholderText().color() if not selected else text_color)
        for badge, width in tags:
            painter.drawStaticText(QPoint(x, top), badge)
            x += width + 10
        x = max(x, right)
        for (badge, width), icon_name in counts:
            icon(icon_name).paint(painter, QRect(x, rect.center().y() - 6, 12, 12))
            painter.drawStaticText(QPoint(x + 14, top), badge)
            x += 14 + width + 10
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        size = super().sizeHint(option, index)
        return QSize(size.width(), max(size.height(), 22))
