"""The window's layout per mode: which docks each mode shows, their sizes and the page's splitters, remembered.

Each mode keeps its own arrangement: the curator who hides Problems in Review or widens the Workspace in Resolve
finds it so the next time, in this session and the next (QSettings, through ``StudioSettings``). A mode seen for
the first time gets the defaults: Author shows the Workspace, the Inspector (with "Who sees it" behind it) and
Problems; the job modes show the Workspace only, as their own tables need the width and the height.

Switching modes never resizes the window: the docks are re-arranged inside it, and every page and dock can
shrink below what fits a 1024×700 screen (``studio.ui.fit``). When the window gets narrower, the side docks give
up room before the centre does (``keep_centre_room``): Qt alone would take all of it from the editor.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow, QSplitter, QWidget

from studio.ui.modes import AUTHOR
from studio.ui.settings import StudioSettings

AUTHOR_DOCKS = frozenset({"workspace", "inspector", "visibility", "problems"})
"""Docks Author shows the first time ("visibility" is a tab behind the Inspector)."""
JOB_DOCKS = frozenset({"workspace"})
"""Docks a job mode (Resolve, Runs, Review, Evals) shows the first time."""
CENTRE_ROOM = 600
"""Pixels the centre keeps before the side docks shrink to make room (the editor then has about 48 characters
beside the previews at their narrowest)."""
SIDE_FLOOR = 170
"""A side dock never shrinks below this to make room for the centre (the user may still drag it narrower)."""
CENTRE_HEIGHT = 400
"""Pixels of height the centre keeps before the bottom docks (Problems, Find in Workspace) get lower."""
BOTTOM_FLOOR = 110
"""A bottom dock never gets lower than this to make room for the centre."""


class ModeLayouts:
    """Saves the window's docks when a mode is left and restores (or lays out by default) the mode entered."""

    def __init__(self, window: QMainWindow, docks: dict[str, QDockWidget], pages: dict[str, QWidget],
                 settings: StudioSettings) -> None:
        self.window = window
        self.docks = docks
        self.pages = pages
        self.settings = settings
        self.current: str | None = None
        self.states: dict[str, QByteArray] = {}
        """Dock states of the modes seen in this session (saved to the settings on ``save``)."""
        self._sizes_pending = False
        for mode in pages:
            for splitter, state in zip(self.splitters(mode), settings.splitter_states(mode), strict=False):
                if not state.isEmpty():
                    splitter.restoreState(state)

    def splitters(self, mode: str) -> list[QSplitter]:
        """The splitters of ``mode``'s page, in creation order (a stable order between runs)."""
        page = self.pages[mode]
        if isinstance(page, QSplitter):
            return [page]  # Author: the editor beside the previews (the editor tabs' own splitters come and go)
        return page.findChildren(QSplitter)

    def enter(self, mode: str) -> None:
        """Show ``mode``'s docks as last left (this session, else the settings), or the defaults the first time."""
        if mode == self.current:
            return
        if self.current is not None:
            self.states[self.current] = self.window.saveState()
        state = self.states.get(mode) or self.settings.mode_state(mode)
        if mode == AUTHOR and state is None:
            state = self.settings.window_state()  # what earlier versions saved for the one layout they had
        self.current = mode
        if state is None or not self.window.restoreState(state):
            self.apply_defaults(mode)
        self.keep_centre_room()

    def apply_defaults(self, mode: str) -> None:
        shown = AUTHOR_DOCKS if mode == AUTHOR else JOB_DOCKS
        for name, dock in self.docks.items():
            dock.setVisible(name in shown)
        if "inspector" in shown:
            self.docks["inspector"].raise_()
        if self.window.isVisible():
            self.default_sizes()
        else:
            self._sizes_pending = True  # dock sizes only stick once the window has its real size

    def shown(self) -> None:
        """The window is on screen: size the docks of a first-time layout now."""
        if self._sizes_pending:
            self._sizes_pending = False
            self.default_sizes()

    def default_sizes(self) -> None:
        """The Workspace about a fifth of the window (220-360 px), the Inspector a little less (200-320 px),
        Problems about a quarter of its height."""
        width, height = self.window.width(), self.window.height()
        horizontal, vertical = Qt.Orientation.Horizontal, Qt.Orientation.Vertical
        sizes = {"workspace": max(220, min(360, width * 11 // 50)), "inspector": max(200, min(320, width * 9 // 50))}
        docks = [d for key in sizes if (d := self.docks[key]).isVisible()]
        if docks:
            self.window.resizeDocks(docks, [sizes[key] for key in sizes if self.docks[key].isVisible()], horizontal)
        if self.docks["problems"].isVisible():
            self.window.resizeDocks([self.docks["problems"]], [max(140, min(240, height // 4))], vertical)

    def keep_centre_room(self) -> None:
        """Narrow the side docks (down to ``SIDE_FLOOR``) until the centre is ``CENTRE_ROOM`` pixels wide, and lower
        the bottom docks (down to ``BOTTOM_FLOOR``) until it is ``CENTRE_HEIGHT`` high, as far as they can."""
        centre = self.window.centralWidget()
        if centre is None:
            return
        self._lay_out_now()  # the sizes read below are those of the docks just shown, hidden or sized
        left, right = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
        self._give_way(CENTRE_ROOM - centre.width(), (left, right), SIDE_FLOOR, Qt.Orientation.Horizontal)
        self._give_way(CENTRE_HEIGHT - centre.height(), (Qt.DockWidgetArea.BottomDockWidgetArea,), BOTTOM_FLOOR,
                       Qt.Orientation.Vertical)
        self._lay_out_now()  # the page has its room when this returns, not a turn or more later

    def _lay_out_now(self) -> None:
        """Apply the window's pending layout at once. Showing, hiding or sizing a dock (``resizeDocks``) only asks
        for a relayout, which Qt does two turns of the event loop later: until then every size read is the old
        one. The centre then kept the docks' widths sized for a wider window (452 px of 1024, not 600) for as long
        as other work held the event loop, and a first-time job mode narrowed its Workspace for a deficit that
        its own default layout did not have."""
        layout = self.window.layout()
        if layout is not None:
            layout.activate()

    def _give_way(self, deficit: int, areas: tuple[Qt.DockWidgetArea, ...], floor: int,
                  orientation: Qt.Orientation) -> None:
        if deficit <= 0:
            return

        def extent(dock: QDockWidget) -> int:
            return dock.width() if orientation == Qt.Orientation.Horizontal else dock.height()

        docks: list[QDockWidget] = []
        for area in areas:
            # One dock per area is enough: the docks of an area (tabbed or side by side) share its extent.
            dock = next((d for d in self.docks.values() if d.isVisible() and not d.isFloating()
                         and self.window.dockWidgetArea(d) == area), None)
            if dock is not None and extent(dock) > floor:
                docks.append(dock)
        spare = sum(extent(d) - floor for d in docks)
        if not docks or spare <= 0:
            return
        take = min(deficit, spare)
        self.window.resizeDocks(docks, [extent(d) - take * (extent(d) - floor) // spare for d in docks], orientation)

    def save(self) -> None:
        """Write every mode's docks and splitters to the settings (the window is closing)."""
        if self.current is not None:
            self.states[self.current] = self.window.saveState()
        for mode in self.pages:
            self.settings.save_mode_layout(mode, self.states.get(mode),
                                           [s.saveState() for s in self.splitters(mode)])
