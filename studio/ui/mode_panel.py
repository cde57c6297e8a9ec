"""The small protocol a job mode's panel follows: what it hears about (``Follows``) and what it says (``ModePanel``).

Apart from ``studio.ui.modes``, which lists the panels and drives them, so that a panel imports this module and
never the one that imports the panels: no import circle between the modes and their panels.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import Flag, auto
from pathlib import Path
from typing import ClassVar

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QWidget

from studio.core.model import Pack
from studio.ui.shown_text import short_line


class Follows(Flag):
    """What a mode panel wants to hear about (each change marks it stale until it is on screen)."""

    NOTHING = 0
    WORKSPACE = auto()
    """The set of packs, after a scan settled."""
    SELECTION = auto()
    """Another pack was selected in the tree (or through Quick open, a problem, a tab)."""
    SELECTED_PACK = auto()
    """The selected pack changed on disk, or records were written into its runs/."""
    EVERY_PACK = auto()
    """Any pack of the workspace was reloaded."""


class ModePanel(QWidget):
    """The centre page of one job mode.

    Subclasses set the class attributes and implement ``follow``; the window wires the signals.

    Signals:
        open_file_requested(Path, int): open a file at a 1-based line (the window switches to Author).
        pack_changed(Path): the panel changed a pack's KNOWLEDGE.md; the workspace reloads that pack.
        runs_written(Path): the panel wrote records into this pack's runs/ (other panels may show them).
        handoff(str, object): open the named mode and give its panel this request (``accept``).
        status_message(str): what the panel just did, for the window's status bar ("Recorded ... in runs/...").
        pack_chosen(Path): the user picked this pack in the panel (a queue row): it becomes the window's current
            pack, so the tree, the Inspector and the other modes show it too.
    """

    open_file_requested = Signal(Path, int)
    pack_changed = Signal(Path)
    runs_written = Signal(Path)
    handoff = Signal(str, object)
    status_message = Signal(str)
    pack_chosen = Signal(Path)

    mode_title: ClassVar[str] = ""
    """The mode's name on its toolbar button and in the View menu."""
    mode_tip: ClassVar[str] = ""
    """One line: what the mode is for (tooltip and status tip)."""
    follows: ClassVar[Follows] = Follows.NOTHING
    labeler: Callable[[Pack], str] | None = None
    """Set by ``JobModes``: the distinguishing label of a pack (``acme — explicit, v0.4.0/``)."""

    def pack_label(self, pack: Pack) -> str:
        """How a header names ``pack``: its name, plus scope and telling path when another pack shares the name."""
        return short_line(self.labeler(pack) if self.labeler is not None else pack.name)

    def follow(self, packs: Sequence[Pack], selected: Pack | None) -> None:
        """Bring the panel up to date with the workspace's ``packs`` and the ``selected`` pack (on screen only)."""
        raise NotImplementedError

    def let_go(self) -> None:
        """The workspace was replaced while the panel was hidden: drop what it holds of the last one (it follows
        the new one when shown again). A panel holding a 10,000-pack workspace kept 125 MiB alive after a
        re-opening."""
        self.follow([], None)

    def accept(self, request: object) -> bool:
        """Take a request another panel handed over (see ``studio.ui.panels.handoffs``); False to ignore it."""
        return False

    def shutdown(self) -> None:
        """The window is closing: stop background work."""
