"""BarChart: a small horizontal bar chart painted with QPainter (QtCharts is not part of PySide6-Essentials)."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QSizePolicy, QWidget

DEFAULT_COLOR = QColor("#3b82f6")
ROW_HEIGHT = 18
MAX_BAR_WIDTH = 640
"""Wider bars only stretch the eye from label to value; the scale stays relative anyway."""
MAX_ROWS = 40
"""Beyond this the chart says how many rows it left out instead of growing without end."""


@dataclass(frozen=True, slots=True)
class Bar:
    """One labelled bar; ``segments`` stacks values of different colours in one bar."""

    label: str
    segments: tuple[tuple[float, QColor], ...]
    note: str = ""
    """Text drawn after the bar (defaults to the total)."""

    @property
    def total(self) -> float:
        return sum(value for value, _ in self.segments)


def simple_bar(label: str, value: float, color: QColor = DEFAULT_COLOR, note: str = "") -> Bar:
    return Bar(label, ((value, color),), note)


class BarChart(QWidget):
    """Labels on the left, bars scaled to the largest total, the value (or a note) after each bar."""

    def __init__(self, title: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = title
        self.bars: list[Bar] = []
        self.empty_text = "Nothing to chart."
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Minimum)

    def set_bars(self, bars: list[Bar]) -> None:
        self.bars = list(bars)
        self.updateGeometry()
        self.update()

    def _shown(self) -> list[Bar]:
        return self.bars[:MAX_ROWS]

    def sizeHint(self) -> QSize:
        rows = max(1, len(self._shown())) + (1 if len(self.bars) > MAX_ROWS else 0)
        return QSize(360, 24 + rows * ROW_HEIGHT + 8)

    def minimumSizeHint(self) -> QSize:
        return QSize(200, self.sizeHint().height())

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        text_color = self.palette().color(QPalette.ColorRole.WindowText)
        metrics = QFontMetrics(self.font())
        painter.setPen(text_color)
        title_font = self.font()
        title_font.setBold(True)
        painter.setFont(title_font)
        painter.drawText(QRectF(4, 2, self.width() - 8, 20), Qt.AlignmentFlag.AlignLeft, self.title)
        painter.setFont(self.font())
        shown = self._shown()
        if not shown:
            painter.drawText(QRectF(4, 24, self.width() - 8, ROW_HEIGHT), Qt.AlignmentFlag.AlignLeft,
                             self.empty_text)
            return
        label_width = min(max(metrics.horizontalAdvance(b.label) for b in shown) + 12, self.width() // 2)
        note_width = max(metrics.horizontalAdvance(b.note or _number(b.total)) for b in shown) + 8
        bar_space = min(MAX_BAR_WIDTH, max(10, self.width() - label_width - note_width - 12))
        top_value = max((b.total for b in shown), default=0) or 1
        for row, bar in enumerate(shown):
            y = 24 + row * ROW_HEIGHT
            label = metrics.elidedText(bar.label, Qt.TextElideMode.ElideMiddle, label_width - 8)
            painter.setPen(text_color)
            painter.drawText(QRectF(4, y, label_width - 8, ROW_HEIGHT - 2),
                             Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, label)
            x = float(label_width + 4)
            for value, color in bar.segments:
                width = bar_space * value / top_value
                painter.fillRect(QRectF(x, y + 3, width, ROW_HEIGHT - 6), color)
                x += width
            painter.setPen(text_color)
            painter.drawText(QRectF(x + 4, y, note_width, ROW_HEIGHT - 2),
                             Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, bar.note or _number(bar.total))
        if len(self.bars) > MAX_ROWS:
            y = 24 + len(shown) * ROW_HEIGHT
            painter.drawText(QRectF(4, y, self.width() - 8, ROW_HEIGHT), Qt.AlignmentFlag.AlignLeft,
                             f"... {len(self.bars) - MAX_ROWS} more not shown")


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"
