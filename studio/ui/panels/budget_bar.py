"""BudgetBar: tokens used against the budget, one coloured segment per pack, painted with QPainter."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPalette, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

PACK_COLORS = ("#3b82f6", "#10b981", "#f59e0b", "#8b5cf6", "#ef4444", "#14b8a6", "#ec4899", "#84cc16")
OVERHEAD_COLOR = QColor("#9ca3af")
"""Wrappers, headers and separators: tokens the fence costs beyond the selected items themselves."""


def pack_color(index: int) -> QColor:
    return QColor(PACK_COLORS[index % len(PACK_COLORS)])


@dataclass(frozen=True, slots=True)
class Segment:
    label: str
    tokens: int
    color: QColor


class BudgetBar(QWidget):
    """A bar as wide as the budget; segments fill it left to right; a legend line below names them."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.budget = 0
        self.used = 0
        self.segments: list[Segment] = []
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setMinimumHeight(46)

    def set_usage(self, budget: int, used: int, segments: list[Segment]) -> None:
        """``segments`` are the packs' item tokens; what ``used`` has beyond them is drawn as overhead."""
        self.budget = max(0, budget)
        self.used = max(0, used)
        items = [s for s in segments if s.tokens > 0]
        overhead = self.used - sum(s.tokens for s in items)
        if overhead > 0:
            items.append(Segment("fence overhead", overhead, OVERHEAD_COLOR))
        self.segments = items
        self.setToolTip("\n".join(f"{s.label}: {s.tokens:,} tokens" for s in items) or "Nothing selected")
        self.update()

    @property
    def fraction(self) -> float:
        return self.used / self.budget if self.budget else 0.0

    def sizeHint(self) -> QSize:
        return QSize(400, 46)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = self.palette()
        text = palette.color(QPalette.ColorRole.WindowText)
        bar = QRectF(1, 1, self.width() - 2, 22)
        painter.fillRect(bar, palette.color(QPalette.ColorRole.Base))
        scale = bar.width() / max(self.budget, self.used, 1)
        x = bar.left()
        for segment in self.segments:
            width = segment.tokens * scale
            painter.fillRect(QRectF(x, bar.top(), width, bar.height()), segment.color)
            x += width
        painter.setPen(QPen(palette.color(QPalette.ColorRole.Mid), 1))
        painter.drawRect(bar)
        painter.setPen(text)
        label = f"{self.used:,} / {self.budget:,} tokens ({self.fraction:.0%})"
        painter.drawText(bar.adjusted(6, 0, -6, 0), Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, label)
        x = 2.0
        metrics = painter.fontMetrics()
        for segment in self.segments:
            swatch = QRectF(x, 29, 10, 10)
            painter.fillRect(swatch, segment.color)
            caption = f"{segment.label} {segment.tokens:,}"
            painter.drawText(QRectF(x + 14, 25, metrics.horizontalAdvance(caption) + 4, 18),
                             Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, caption)
            x += 14 + metrics.horizontalAdvance(caption) + 14
