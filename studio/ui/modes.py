"""The modes of the centre area: Author, and one ``ModePanel`` (``studio.ui.mode_panel``) for each job mode.

Author is the editor and the previews; every other mode is one ``ModePanel``, listed once in ``mode_panels``.
The Workspace tree and the Problems panel stay where they are in every mode (UX.md); a mode only switches the
centre. ``JobModes`` tells each panel what changed (the workspace, the selected pack, a pack reloaded, records
written into a pack's runs/), and a panel does its work only when it is on screen: hidden panels are marked
stale and catch up when shown, so a 1,000-pack workspace stays quick.

Adding a mode: write a ``ModePanel`` subclass in ``studio/ui/panels/`` and add it to ``mode_panels``; the
window gives it a toolbar button, a Ctrl+<n> shortcut and a View menu entry from the class attributes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QStackedWidget, QWidget

from studio.core.model import Pack
from studio.ui.fit import scroll_page
from studio.ui.mode_panel import Follows, ModePanel
from studio.ui.pacing import ONE_A_TURN, Paced

_Panel = TypeVar("_Panel", bound=ModePanel)

AUTHOR = "Author"
AUTHOR_TIP = "Author: edit packs with live validation and previews"


def mode_panels() -> list[type[ModePanel]]:
    """The registered modes after Author, in toolbar order (Ctrl+2, Ctrl+3, ...)."""
    from studio.ui.panels import EvalsPanel, ResolverPanel, ReviewPanel, RunsPanel

    return [ResolverPanel, RunsPanel, ReviewPanel, EvalsPanel]


class JobModes(QObject):
    """Owns one panel per registered mode and keeps each in step with the workspace when it is shown.

    Signals:
        open_file_requested(Path, int): a panel asked to open a file at a 1-based line.
        pack_changed(Path): a panel edited a pack's KNOWLEDGE.md; reload that pack.
        switch_requested(str): a panel handed a request to another mode; the window switches to it.
        status_message(str): a panel's message for the status bar.
        pack_chosen(Path): the user picked a pack in a panel; the window makes it the current pack.
    """

    open_file_requested = Signal(Path, int)
    pack_changed = Signal(Path)
    switch_requested = Signal(str)
    status_message = Signal(str)
    pack_chosen = Signal(Path)

    def __init__(self, stack: QStackedWidget, author_page: QWidget, parent: QObject | None = None,
                 panels: Sequence[Callable[[], ModePanel]] | None = None,
                 labeler: Callable[[Pack], str] | None = None) -> None:
        super().__init__(parent)
        self.stack = stack
        self.panels: dict[str, ModePanel] = {}
        self.pages: dict[str, QWidget] = {AUTHOR: author_page}
        for make in (panels if panels is not None else mode_panels()):
            panel = make()
            self.panels[panel.mode_title] = panel
            # Below its minimum size a panel scrolls in its place: no mode can make the window grow.
            page = scroll_page(panel)
            self.pages[panel.mode_title] = page
            stack.addWidget(page)
            panel.open_file_requested.connect(self.open_file_requested)
            panel.pack_changed.connect(self.pack_changed)
            panel.runs_written.connect(self._runs_written)
            panel.handoff.connect(self._handoff)
            panel.status_message.connect(self.status_message)
            panel.pack_chosen.connect(self.pack_chosen)
            panel.labeler = labeler
        self.current = AUTHOR
        self._packs: list[Pack] = []
        self._position: dict[Path, int] = {}
        """Where each pack's root is in ``_packs``."""
        self._selected: Pack | None = None
        self._stale: set[str] = set(self.panels)
        self._empty: set[str] = set(self.panels)
        """Panels holding no workspace (never followed one, or let go of it since)."""

    @property
    def names(self) -> list[str]:
        """Every mode, Author first, in toolbar order."""
        return list(self.pages)

    def panel(self, name: str) -> ModePanel:
        return self.panels[name]

    def panel_of(self, kind: type[_Panel]) -> _Panel:
        """The panel of class ``kind`` (its mode is ``kind.mode_title``), for what only that panel does."""
        panel = self.panels[kind.mode_title]
        if not isinstance(panel, kind):
            raise TypeError(f"the {kind.mode_title} mode shows a {type(panel).__name__}, not a {kind.__name__}")
        return panel

    # -- switching -------------------------------------------------------------------------------
    def show(self, mode: str) -> None:
        self.current = mode
        self.stack.setCurrentWidget(self.pages[mode])
        self._refresh_visible()

    def _refresh_visible(self) -> None:
        panel = self.panels.get(self.current)
        if panel is not None and self.current in self._stale:
            self._stale.discard(self.current)
            self._empty.discard(self.current)
            panel.follow(self._packs, self._selected)

    def _mark(self, what: Follows) -> None:
        self._stale.update(name for name, p in self.panels.items() if p.follows & what)
        self._refresh_visible()

    # -- following the workspace -----------------------------------------------------------------
    def set_packs(self, packs: list[Pack]) -> None:
        """Every pack of the workspace (after a scan settled)."""
        self._packs = list(packs)
        self._position = {p.root: i for i, p in enumerate(self._packs)}
        what = Follows.WORKSPACE
        if self._selected is not None and self._selected.root not in self._position:
            self._selected = None  # a pack of the last workspace: held here, it kept that pack alive
            what |= Follows.SELECTION
        hidden = [name for name, panel in self.panels.items()
                  if name != self.current and panel.follows & Follows.WORKSPACE and name not in self._empty]
        self._empty.update(hidden)
        self._let_go(hidden)
        self._mark(what)

    def _let_go(self, names: list[str]) -> None:
        """Let hidden panels go of the last workspace, one a turn: emptying a 10,000-row table took 10-20 ms
        apiece, on the turn a re-opening also clears the tree, the Problems table and the file watcher. A panel
        shown meanwhile has followed the new workspace already and is skipped."""
        def let_go(chosen: Iterator[str]) -> None:
            for name in chosen:
                if name in self._empty and name != self.current:
                    self.panels[name].let_go()

        Paced.once(self, ONE_A_TURN, let_go, names)

    def pack_replaced(self, fresh: Pack) -> None:
        # In place by position: a reload in a 10,000-pack workspace must not compare every pack's path.
        position = self._position.get(fresh.root)
        if position is not None:
            self._packs = list(self._packs)  # a panel may still hold the list it was given
            self._packs[position] = fresh
        what = Follows.EVERY_PACK
        if self._selected is not None and self._selected.root == fresh.root:
            self._selected = fresh
            what |= Follows.SELECTED_PACK
        self._mark(what)

    def pack_selected(self, pack: Pack | None) -> None:
        changed = pack is None or self._selected is None or pack.root != self._selected.root
        self._selected = pack
        if changed:  # in Resolve mode the simulation follows the pack picked in the tree
            self._mark(Follows.SELECTION)

    def _runs_written(self, root: Path) -> None:
        if self._selected is not None and self._selected.root == Path(root):
            self._mark(Follows.SELECTED_PACK)

    def _handoff(self, mode: str, request: object) -> None:
        target = self.panels.get(mode)
        if target is None:
            return
        self.switch_requested.emit(mode)  # the window switches; showing the panel brings it up to date first
        target.accept(request)

    def shutdown(self) -> None:
        for panel in self.panels.values():
            panel.shutdown()
