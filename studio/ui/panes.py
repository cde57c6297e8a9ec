"""Moving between the window's panes from the keyboard, and a frame around the pane that has the focus.

The panes, in F6 order: Workspace, the editor (Author) or the mode's panel (other modes), the previews (Author),
the Inspector, Problems and Find in Workspace; only those on screen take part. F6 / Shift+F6 go to the next /
previous pane, and each pane has a key of its own (``Pane.key``, Alt+1..5) that shows it first if it is hidden.

The frame is four thin strips in the palette's highlight colour laid over the pane's edges: plain widgets that
fill their background in C++, so typing in the editor under them costs no Python paint call.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject, QRect, Qt
from PySide6.QtGui import QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QDockWidget, QMainWindow, QWidget

from studio.ui.theme import theme_signals

FRAME = 2
"""Width of the focus frame in pixels."""


@dataclass(slots=True)
class Pane:
    """One place the focus can move to."""

    name: str
    """As the Keyboard Shortcuts list says it: ``Workspace``, ``Editor or mode panel``..."""
    area: Callable[[], QWidget]
    """The widget the frame goes around (what the pane is now: the centre depends on the mode)."""
    target: Callable[[], QWidget | None]
    """The widget that takes the focus (the tree, the editor, the table...); None: the first focusable one."""
    key: str = ""
    """Its own shortcut (``Alt+1``); empty for none."""
    dock: QDockWidget | None = None
    """The dock it lives in: shown and raised when the pane is asked for by its key."""
    shown: Callable[[], bool] | None = None
    """Whether it takes part in F6 now (default: its area is visible)."""
    reveal: Callable[[], None] | None = None
    """Brings it on screen when asked for by its key (the previews: Author mode, not collapsed)."""

    def on_screen(self) -> bool:
        if self.shown is not None:
            return self.shown()
        area = self.area()
        return area.isVisible() and not area.visibleRegion().isEmpty()


def first_focusable(widget: QWidget) -> QWidget:
    """``widget`` itself if it takes the keyboard focus, else its first visible child that does."""
    if widget.focusPolicy() & Qt.FocusPolicy.TabFocus and widget.isVisible():
        return widget
    for child in widget.findChildren(QWidget):
        if child.isVisible() and child.isEnabled() and child.focusPolicy() & Qt.FocusPolicy.TabFocus:
            return child
    return widget


class FocusFrame(QObject):
    """Four strips drawn over the edges of one widget of ``window``; they follow its moves and resizes."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.window = window
        self.strips = [QWidget(window) for _ in range(4)]
        for strip in self.strips:
            strip.setObjectName("pane-focus-frame")
            strip.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
            strip.setAutoFillBackground(True)
            strip.hide()
        self.target: QWidget | None = None
        self.recolour()
        theme_signals().changed.connect(self.recolour)  # a bound method: dropped with the frame

    def recolour(self, _dark: bool = False) -> None:
        """Take the palette's highlight colour (after a theme change)."""
        for strip in self.strips:
            palette = QPalette(strip.palette())
            palette.setColor(QPalette.ColorRole.Window, QGuiApplication.palette().color(QPalette.ColorRole.Highlight))
            strip.setPalette(palette)

    def follow(self, target: QWidget | None) -> None:
        if target is self.target:
            self.place()
            return
        if self.target is not None:
            self.target.removeEventFilter(self)
        self.target = target
        if target is not None:
            target.installEventFilter(self)
        self.place()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.target and event.type() in (QEvent.Type.Resize, QEvent.Type.Move, QEvent.Type.Show,
                                                       QEvent.Type.Hide):
            self.place()
        return False

    def place(self) -> None:
        target = self.target
        if target is None or not target.isVisible() or target.window() is not self.window:
            for strip in self.strips:
                strip.hide()
            return
        top_left = target.mapTo(self.window, target.rect().topLeft())
        r = QRect(top_left, target.size())
        edges = (QRect(r.left(), r.top(), r.width(), FRAME), QRect(r.left(), r.bottom() - FRAME + 1, r.width(), FRAME),
                 QRect(r.left(), r.top(), FRAME, r.height()), QRect(r.right() - FRAME + 1, r.top(), FRAME, r.height()))
        for strip, edge in zip(self.strips, edges, strict=True):
            strip.setGeometry(edge)
            strip.show()
            strip.raise_()


class PaneFocus(QObject):
    """F6 / Shift+F6 and the per-pane keys; the frame follows the pane holding the focus."""

    def __init__(self, window: QMainWindow, panes: list[Pane]) -> None:
        super().__init__(window)
        self.window = window
        self.panes = panes
        self.frame = FocusFrame(window)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._focus_changed)

    def pane_of(self, widget: QWidget | None) -> Pane | None:
        """The pane holding ``widget`` (None outside every pane: the toolbar, a dialog)."""
        areas = [(pane, pane.area()) for pane in self.panes]
        while widget is not None:
            for pane, area in areas:
                if widget is area:
                    return pane
            widget = widget.parentWidget()
        return None

    def current(self) -> Pane | None:
        return self.pane_of(QApplication.focusWidget())

    def cycle(self, step: int) -> Pane | None:
        """Move the focus to the next (+1) or previous (-1) pane on screen; returns it."""
        shown = [p for p in self.panes if p.on_screen()]
        if not shown:
            return None
        here = self.current()
        index = shown.index(here) if here in shown else (-1 if step > 0 else 0)
        pane = shown[(index + step) % len(shown)]
        self.focus(pane)
        return pane

    def focus(self, pane: Pane) -> None:
        """Give ``pane`` the focus, showing its dock first if it is hidden or behind another tab."""
        if pane.dock is not None:
            pane.dock.show()
            pane.dock.raise_()
        if pane.reveal is not None:
            pane.reveal()
        target = pane.target() or first_focusable(pane.area())
        target.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.frame.follow(pane.area())

    def _focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        if new is None or new.window() is not self.window:
            return  # a dialog or popup: the frame stays where the window's focus will come back to
        pane = self.pane_of(new)
        self.frame.follow(pane.area() if pane is not None else None)
