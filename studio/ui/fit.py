"""Layout pieces that let the window fit a laptop: nothing in a page may force the window wider or taller.

A fixed minimum width set on a panel, a label that never wraps or a row of four combo boxes adds up, across
the docks and the centre, to a window wider than the screen; and Qt grows a window to the minimum of whatever
is shown, so a mode switch could resize it. The remedies, used across the window:

- ``PageStack``: a stacked widget that asks for the size of the page on screen only (``QStackedWidget`` asks
  for the largest of all its pages, hidden ones included).
- ``scroll_page``: a page whose controls no longer fit scrolls inside its place instead of pushing the window.
- ``FlowLayout``: a row of controls (filters, overrides, radio buttons) that wraps onto more lines when narrow.
- ``wrap_label``: a label that wraps to the width it is given and never asks for more.
- ``first_size``: the window's size at its first start, within the screen it opens on.
- ``OutputBox``: a page's main output, which takes every pixel its page can spare after the controls above it.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QMargins, QObject, QPoint, QRect, QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QLayout,
    QLayoutItem,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QWidget,
)


class PageStack(QStackedWidget):
    """A ``QStackedWidget`` sized by its current page: a large hidden page never sets the window's minimum."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.currentChanged.connect(lambda _index: self.updateGeometry())

    def sizeHint(self) -> QSize:
        page = self.currentWidget()
        return page.sizeHint() if page is not None else super().sizeHint()

    def minimumSizeHint(self) -> QSize:
        page = self.currentWidget()
        if page is None:
            return super().minimumSizeHint()
        return page.minimumSizeHint().expandedTo(page.minimumSize())


class ScrollPage(QScrollArea):
    """A page that fills its place exactly, and scrolls only once its place is smaller than its minimum size.

    ``QScrollArea.setWidgetResizable`` would do the same, except for a page whose layout has a height-for-width
    (wrapping labels, a ``FlowLayout``): it then takes the layout's *preferred* height for that width as the
    least it accepts, and scrolls long before the page's tables have shrunk to their minimum.
    """

    def __init__(self, page: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(f"scroll-{page.objectName() or type(page).__name__}")
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setWidgetResizable(False)
        self.setWidget(page)
        self.setFocusProxy(page)
        page.installEventFilter(self)

    def fit(self) -> None:
        page = self.widget()
        if page is None:
            return
        least = page.minimumSizeHint().expandedTo(page.minimumSize())
        room = self.viewport().size()
        size = QSize(max(room.width(), least.width()), max(room.height(), least.height()))
        if page.size() != size:
            page.resize(size)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.fit()

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:  # a scroll bar came or went
            self.fit()
        return super().viewportEvent(event)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            self.fit()  # the page's minimum may have changed (a wrapped label, a row shown)
            self.updateGeometry()  # and so may its size hint, which the layout around this page has cached
        return super().eventFilter(watched, event)

    def sizeHint(self) -> QSize:
        page = self.widget()
        return page.sizeHint() if page is not None else super().sizeHint()


class OutputBox(QWidget):
    """A page's main output (Resolve's results, say) under controls that scroll in their place when low.

    It asks for no more height than its least, and is added to its page's layout with a stretch: a box layout
    that is short of room takes an equal share from every item above its least, so an output asking for its
    natural height left the controls above it squeezed to their minimum even with room to show them whole.
    Asking for its least, it keeps that least (``setMinimumHeight`` on what it holds) while the controls take
    their natural height, then gets every pixel left.
    """

    def sizeHint(self) -> QSize:
        return QSize(super().sizeHint().width(), self.minimumSizeHint().height())

    def hasHeightForWidth(self) -> bool:
        # A wrapping label inside would make the page's layout ask the height for the width instead, which it
        # takes as this box's least: the natural height of everything inside, and the controls squeezed again.
        return False


def scroll_page(page: QWidget) -> ScrollPage:
    """``page`` in a ``ScrollPage``: below its minimum size it scrolls instead of growing the window."""
    return ScrollPage(page)


def wrap_label(label: QLabel) -> QLabel:
    """Let ``label`` wrap to any width it is given (a long message then takes more lines, not more width).

    The label shows plain text: these messages carry pack names, paths and reasons, and Qt reads a text that looks
    like HTML (a pack named ``<b>x</b>``) as rich text. A label that shows HTML on purpose says so after this call.
    """
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    policy = label.sizePolicy()
    policy.setHorizontalPolicy(QSizePolicy.Policy.Ignored)
    label.setSizePolicy(policy)
    label.setMinimumWidth(40)
    return label


class FlowLayout(QLayout):
    """Lays widgets out left to right and wraps onto the next line when the width runs out.

    Its minimum width is that of its widest item, so a row of controls never forces a panel wider than that.
    The last item added with ``stretch=True`` takes the rest of its line (a label after its controls).
    """

    def __init__(self, parent: QWidget | None = None, spacing: int = 6) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._stretch: set[int] = set()
        self.setSpacing(spacing)
        self.setContentsMargins(QMargins(0, 0, 0, 0))

    def add(self, widget: QWidget, stretch: bool = False) -> None:
        if stretch:
            self._stretch.add(id(widget))
        self.addWidget(widget)

    def add_labelled(self, label: str, control: QWidget) -> None:
        """``control`` after its ``label``, as one item: when the row wraps, a label never ends a line without
        the control it names."""
        pair = QWidget()
        pair_layout = QHBoxLayout(pair)
        pair_layout.setContentsMargins(0, 0, 0, 0)
        pair_layout.addWidget(QLabel(label))
        pair_layout.addWidget(control)
        self.add(pair)

    # -- QLayout --------------------------------------------------------------------------------------
    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._arrange(QRect(0, 0, width, 0), apply=False)

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._arrange(rect, apply=True)

    def sizeHint(self) -> QSize:
        width = sum(i.sizeHint().width() + self.spacing() for i in self._shown())
        height = max((i.sizeHint().height() for i in self._shown()), default=0)
        m = self.contentsMargins()
        return QSize(width + m.left() + m.right(), height + m.top() + m.bottom())

    def minimumSize(self) -> QSize:
        size = QSize()
        for item in self._shown():
            size = size.expandedTo(item.minimumSize())
        m = self.contentsMargins()
        return size + QSize(m.left() + m.right(), m.top() + m.bottom())

    def _shown(self) -> list[QLayoutItem]:
        return [i for i in self._items if (widget := i.widget()) is None or not widget.isHidden()]

    def _arrange(self, rect: QRect, apply: bool) -> int:
        """Place the items in ``rect`` line by line; returns the height used."""
        m = self.contentsMargins()
        area = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom())
        x, y, line_height = area.x(), area.y(), 0
        line: list[tuple[QLayoutItem, QSize]] = []
        for item in self._shown():
            size = item.sizeHint().boundedTo(QSize(area.width(), 1 << 20)).expandedTo(item.minimumSize())
            if line and x + size.width() > area.right() + 1:
                if apply:
                    self._place(line, area, y, line_height)
                x, y, line_height, line = area.x(), y + line_height + self.spacing(), 0, []
            line.append((item, size))
            x += size.width() + self.spacing()
            line_height = max(line_height, size.height())
        if line and apply:
            self._place(line, area, y, line_height)
        return y + line_height - rect.y() + m.bottom()

    def _place(self, line: list[tuple[QLayoutItem, QSize]], area: QRect, y: int, height: int) -> None:
        spare = area.width() - sum(size.width() for _item, size in line) - self.spacing() * (len(line) - 1)
        x = area.x()
        for item, size in line:
            width = size.width()
            widget = item.widget()
            if widget is not None and id(widget) in self._stretch and spare > 0:
                width += spare
                spare = 0
            top = y + (height - size.height()) // 2
            item.setGeometry(QRect(QPoint(x, top), QSize(width, size.height())))
            x += width + self.spacing()


def splitter(orientation: Qt.Orientation, *parts: tuple[QWidget, int]) -> QSplitter:
    """A splitter of ``parts`` (widget, stretch): how the room a panel gets is shared out as it grows."""
    split = QSplitter(orientation)
    for index, (widget, stretch) in enumerate(parts):
        split.addWidget(widget)
        split.setStretchFactor(index, stretch)
    return split
PREFERRED_FIRST_SIZE = QSize(1400, 900)


def first_size(available: QSize, preferred: QSize = PREFERRED_FIRST_SIZE) -> QSize:
    """The first window size: ``preferred``, shrunk to the screen's available area (without panels) when smaller.

    A window larger than the screen opens with its title bar or its status bar off-screen on a 1280x720 laptop.
    """
    if available.isEmpty():
        return preferred
    return preferred.boundedTo(available)
