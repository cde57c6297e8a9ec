"""The four modes of the centre area (Author, Resolve, Runs, Review) and how the job panels follow the workspace.

The Workspace tree and the Problems panel stay where they are in every mode (UX.md); a mode only switches
the centre. Panels are fed lazily: the runs of a pack are read when the Runs mode is on screen.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QStackedWidget, QWidget

from studio.core.model import Pack
from studio.ui.panels import ResolverPanel, ReviewPanel, RunsPanel

MODES = ("Author", "Resolve", "Runs", "Review")


class JobModes(QObject):
    """Owns the Resolve, Runs and Review panels and keeps them in step with the workspace.

    Signals:
        open_file_requested(Path, int): a panel asked to open a file at a 1-based line.
        pack_changed(Path): the review flow edited a pack's KNOWLEDGE.md; reload that pack.
    """

    open_file_requested = Signal(Path, int)
    pack_changed = Signal(Path)

    def __init__(self, stack: QStackedWidget, author_page: QWidget, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.stack = stack
        self.author_page = author_page
        self.resolver = ResolverPanel()
        self.runs = RunsPanel()
        self.review = ReviewPanel()
        self.pages: dict[str, QWidget] = {"Author": author_page, "Resolve": self.resolver, "Runs": self.runs,
                                          "Review": self.review}
        for name in MODES[1:]:
            stack.addWidget(self.pages[name])
        for panel in (self.resolver, self.runs, self.review):
            panel.open_file_requested.connect(self.open_file_requested)
        self.review.pack_changed.connect(self.pack_changed)
        self.review.review_recorded.connect(lambda root, _record: self._runs_changed(Path(root)))
        self.resolver.run_saved.connect(lambda _paths: self.runs.reload() if self.current == "Runs" else None)
        self.current = "Author"
        self._packs: list[Pack] = []
        self._selected: Pack | None = None
        self._runs_stale = True
        self._resolver_stale = True
        self._review_stale = True
        self._resolver_seed: Path | None = None
        """Root of the pack the resolver's activation was last seeded from (the tree selection)."""

    # -- switching -------------------------------------------------------------------------------
    def show(self, mode: str) -> None:
        self.current = mode
        self.stack.setCurrentWidget(self.pages[mode])
        if mode == "Runs" and self._runs_stale:
            self._load_runs()
        self._refresh_visible()

    def _refresh_visible(self) -> None:
        """Bring the panel on screen up to date; hidden panels wait (a 1,000-pack workspace stays quick)."""
        if self.current == "Resolve":
            reseed = self._selected is not None and self._selected.root != self._resolver_seed
            if self._resolver_stale or reseed:
                self._seed_resolver()
        elif self.current == "Review" and self._review_stale:
            self._review_stale = False
            self.review.set_packs(self._packs)

    # -- following the workspace -----------------------------------------------------------------
    def set_packs(self, packs: list[Pack]) -> None:
        """Every pack of the workspace: the resolver offers the ones that load, the review queue all of them."""
        self._packs = list(packs)
        self._resolver_stale = self._review_stale = True
        self._refresh_visible()

    def _seed_resolver(self) -> None:
        """Offer the packs that load, with the selected one activated.

        Activating a whole large workspace is rarely the question: the resolver starts from the pack in
        view, and the user adds others in the panel.
        """
        self._resolver_stale = False
        usable = [p for p in self._packs if p.loads]
        first = self._selected if self._selected is not None else next(iter(usable), None)
        self._resolver_seed = first.root if first is not None else None
        self.resolver.set_packs(usable, {first.name} if first is not None else set())

    def pack_replaced(self, fresh: Pack) -> None:
        self._packs = [fresh if p.root == fresh.root else p for p in self._packs]
        if self._selected is not None and self._selected.root == fresh.root:
            self._selected = fresh
            self._runs_stale = True
            if self.current == "Runs":
                self._load_runs()
        self._review_stale = True
        self._refresh_visible()

    def pack_selected(self, pack: Pack | None) -> None:
        changed = pack is None or self._selected is None or pack.root != self._selected.root
        self._selected = pack
        if changed:
            self._runs_stale = True
            if self.current == "Runs":
                self._load_runs()
            self._refresh_visible()  # in Resolve mode the simulation follows the pack picked in the tree

    def _runs_changed(self, root: Path) -> None:
        if self._selected is not None and self._selected.root == root:
            self._runs_stale = True
            if self.current == "Runs":
                self._load_runs()

    def _load_runs(self) -> None:
        self._runs_stale = False
        self.runs.set_pack(self._selected)

    def shutdown(self) -> None:
        self.resolver.shutdown()
