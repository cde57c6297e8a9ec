"""The scan-to-views wiring: how every workspace-wide view follows what the session reports.

A finding's trip: the core loads a pack (its own findings) and settles the workspace (verdicts); the session
announces packs as loaded, their findings a few times a second, then the packs that got a verdict, then single
replacements; this object hands each announcement to the views that show the whole workspace (the tree, the
Problems table, the status counts, the file watcher, Quick open, the job modes). The window only handles the
pack in view (Inspector, previews, editor tabs), through ``pack_replaced``.

Same-name packs are told apart by their labels (``studio.core.labels``): ``labels`` is kept up to date one name
group at a time, and the tree and the mode headers read it; the Problems table labels its rows itself.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from studio.core.labels import LabelIndex
from studio.core.model import Pack
from studio.ui.let_go import let_go
from studio.ui.live_watch import LiveWatch
from studio.ui.models.diagnostics_table import DiagnosticsTableModel
from studio.ui.models.pack_tree import PackTreeModel
from studio.ui.modes import JobModes
from studio.ui.status_line import PackTally, StatusLine
from studio.ui.turns import next_size, next_turn
from studio.ui.widgets.quick_open_popup import QuickOpen
from studio.ui.widgets.workspace_panel import WorkspacePanel
from studio.ui.workspace_session import WorkspaceSession

SETTLE_SLICE = 200
"""Settled packs shown per event-loop turn at most: a verdict that moves a pack re-lays out its tree group."""
SETTLE_BUDGET_S = 0.008
"""GUI-thread time a turn of settling may take (the goal is no stall over 50 ms)."""
PROBLEMS_FIRST = 100
"""Settled packs the Problems table takes in its first turn; later turns take as many as fit ``PROBLEMS_BUDGET_S``."""
PROBLEMS_BUDGET_S = 0.010
"""GUI-thread time a turn of the Problems table's settling may take. A pack's cost varies tenfold (how many
findings, how many namesakes to relabel), so each turn is sized from the time the last one took per pack."""
PROBLEMS_MIN, PROBLEMS_MAX = 25, 2000


class WorkspaceViews(QObject):
    """Owns the workspace-wide models and feeds them from the session.

    Signals:
        pack_replaced(object): a pack's settled copy changed (after a reload or a new verdict); the window
            refreshes the pack in view and its editor tabs.
        pack_removed(object): the Pack that left the workspace.
    """

    pack_replaced = Signal(object)
    pack_removed = Signal(object)

    def __init__(self, session: WorkspaceSession, workspace_panel: WorkspacePanel, tree_model: PackTreeModel,
                 diag_model: DiagnosticsTableModel, status: StatusLine, watch: LiveWatch, quick_open: QuickOpen,
                 modes: JobModes, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.workspace_panel = workspace_panel
        self.tree_model = tree_model
        self.diag_model = diag_model
        self.status = status
        self.watch = watch
        self.quick_open = quick_open
        self.modes = modes
        self.tally = PackTally()
        self.labels = LabelIndex()
        """Every pack's distinguishing label (scope and telling path for a shared name)."""
        session.started.connect(self._started)
        session.packs_added.connect(self._packs_added)
        session.findings_added.connect(self._findings_added)
        session.settled.connect(self._settled)
        session.pack_replaced.connect(self._pack_replaced)
        session.pack_removed.connect(self._pack_removed)
        session.progress.connect(status.show_progress)
        session.progress.connect(lambda _done, total: workspace_panel.expect(total))
        session.finished.connect(self._finished)

    def _started(self) -> None:
        self.workspace_panel.forget_rows()  # first: it folds the large groups the clear empties
        self.tree_model.clear()
        let_go([self.labels])  # every pack's label: freed on a later turn
        self.labels = LabelIndex()
        self.diag_model.clear()
        self.watch.clear()
        self.modes.set_packs([])  # the last workspace's packs are dropped now (see MainWindow._scan_started)
        self.quick_open.set_packs([])
        self.status.set_workspace(self.session.request.label())
        self.tally.clear()
        self.refresh_counts()

    def _relabel(self, packs: list[Pack]) -> None:
        """Work out the labels of ``packs``' name groups; the tree redraws the rows whose label changed."""
        changed = self.labels.update(packs)
        if changed:
            self.tree_model.set_labels({Path(r): label for r in changed if (label := self.labels.label(r))})

    def label_text(self, pack: Pack) -> str:
        """``acme — explicit, v0.4.0/`` when another pack is named ``acme``, else ``acme``."""
        label = self.labels.label(pack.root)
        return label.text if label is not None else pack.name

    def _packs_added(self, packs: list[Pack]) -> None:
        self._relabel(packs)
        self.tree_model.add_packs(packs)
        self.watch.watch_packs([p.root for p in packs])
        self.tally.update(packs)
        if not self.session.scanning:  # a pack made in the app: the views a scan fills when it settles
            self.modes.set_packs(list(self.session.packs.values()))
            self.quick_open.set_packs(self.session.packs.values())
        self.refresh_counts()

    def _findings_added(self, packs: list[Pack]) -> None:
        self.diag_model.show_packs(packs)
        self.refresh_counts()

    def _settled(self, changed: list[Pack]) -> None:
        """The scan ended: ``changed`` got a verdict (shadowed, colliding, untrusted); every other pack stands."""
        self.tally.retain(set(self.session.packs))
        generation = self.session.scan_generation
        if len(self.session.packs) <= SETTLE_SLICE:
            self._follow_workspace(generation)
        else:  # each view that takes every pack gets a turn of its own (a few ms each at 10,000 packs)
            self._next(lambda: self._follow_workspace(generation))
        if len(changed) <= SETTLE_SLICE:  # small: settled before ``finished``, as views and tests expect
            self._settle_slice(changed, generation, [], 0)
            return
        # Packs that change group (shadowed, quarantined) move first, while the big groups are still
        # collapsed: once the user has expanded one, every move re-lays out all of its rows. The rest waits
        # for the next turn, as this one just added the scan's last batch.
        movers: list[Pack] = []
        staying: list[Pack] = []
        for pack in changed:
            (movers if self.tree_model.changes_group(pack) else staying).append(pack)
        ordered = movers + staying
        self._next(lambda: self._settle_slice(ordered, generation, [], 0))

    def _follow_workspace(self, generation: int) -> None:
        if generation == self.session.scan_generation:
            self.modes.set_packs(list(self.session.packs.values()))
            self._next(lambda: generation == self.session.scan_generation
                       and self.quick_open.set_packs(self.session.packs.values()))

    def _settle_slice(self, packs: list[Pack], generation: int, shown: list[Pack], start: int) -> None:
        """Show settled packs from ``start`` on, as many as fit in one turn's time, so a large workspace never
        blocks the window.

        The tree is updated slice by slice, then the Problems table (``_problems_slice``) with the packs
        gathered on the way in ``shown``. A slice ends after
        ``SETTLE_SLICE`` packs or ``SETTLE_BUDGET_S``, whichever comes first: moving a row between groups
        costs a few microseconds in a collapsed group, but about a millisecond in an expanded one of 10,000.
        """
        if generation != self.session.scan_generation:
            return  # a new scan started meanwhile
        began = time.perf_counter()
        deadline = began + SETTLE_BUDGET_S
        head: list[Pack] = []
        end = start
        while end < len(packs) and end - start < SETTLE_SLICE and (end == start or time.perf_counter() < deadline):
            pack = packs[end]
            end += 1
            # A pack reloaded meanwhile has already been shown as it is now: leave it be.
            if self.session.packs.get(pack.root) is pack:
                self.tree_model.replace_pack(pack)
                head.append(pack)
        self.tally.update(head)
        shown.extend(head)
        self._relabel(head)
        if end < len(packs):
            self._next(lambda: self._settle_slice(packs, generation, shown, end),
                       rest_after=time.perf_counter() - began)
            return
        if len(packs) <= SETTLE_SLICE:  # small: in this turn, as one update with the workspace's own findings
            self._show_problems(shown, workspace=True)
            return
        # Its own turns: on the turn of the last tree slice, the first update of the table made one 40-60 ms
        # stall at 10,000 packs. The workspace's own findings go first, alone (hundreds of rows when many
        # packs share names).
        self._next(lambda: self._problems_of_workspace(shown, generation))

    def _problems_of_workspace(self, packs: list[Pack], generation: int) -> None:
        if generation == self.session.scan_generation:
            began = time.perf_counter()
            self._show_problems([], workspace=True)
            self._next(lambda: self._problems_slice(packs, generation, 0, PROBLEMS_FIRST),
                       rest_after=time.perf_counter() - began)

    def _show_problems(self, packs: list[Pack], workspace: bool = False) -> None:
        current = [p for p in packs if self.session.packs.get(p.root) is p]  # not reloaded meanwhile
        self.diag_model.show_packs(current, workspace=self.session.diagnostics if workspace else None)
        self.refresh_counts()

    def _problems_slice(self, packs: list[Pack], generation: int, start: int, size: int) -> None:
        """The Problems table takes ``size`` settled packs from ``start`` on, and the next turn as many as the
        time this one took says fit in ``PROBLEMS_BUDGET_S``: all 10,000 in one update held the window for
        60-80 ms, and a fixed 400 a turn still 30-45 ms when those packs had many findings."""
        if generation != self.session.scan_generation:
            return
        began = time.perf_counter()
        end = min(start + size, len(packs))
        self._show_problems(packs[start:end])
        if end < len(packs):
            spent = time.perf_counter() - began
            following = next_size(end - start, spent, PROBLEMS_BUDGET_S, PROBLEMS_MIN, PROBLEMS_MAX)
            self._next(lambda: self._problems_slice(packs, generation, end, following), rest_after=spent)

    def _pack_replaced(self, _old: Pack, fresh: Pack) -> None:
        self._relabel([fresh])
        self.tree_model.replace_pack(fresh)
        self.diag_model.show_packs([fresh])
        self.modes.pack_replaced(fresh)
        self.quick_open.update_pack(fresh)
        self.tally.update([fresh])
        self.refresh_counts()
        self.pack_replaced.emit(fresh)

    def _pack_removed(self, gone: Pack) -> None:
        self.tree_model.remove_pack(gone.root)
        changed = self.labels.remove([gone.root])
        self.tree_model.set_labels({Path(r): label for r in changed if (label := self.labels.label(r))})
        self.diag_model.set_pack(str(gone.root), gone.name, ())
        self.modes.set_packs(list(self.session.packs.values()))
        self.quick_open.set_packs(self.session.packs.values())
        self.tally.retain(set(self.session.packs))
        self.refresh_counts()
        self.pack_removed.emit(gone)

    def _finished(self, cancelled: bool) -> None:
        self.workspace_panel.scan_finished()
        self.status.finish(cancelled)
        self.refresh_counts()

    def refresh_counts(self) -> None:
        self.status.set_counts(self.diag_model.counts(), len(self.session.packs),
                               self.tally.quarantined, self.tally.shadowed)

    def _next(self, step: Callable[[], None], rest_after: float = 0.0) -> None:
        """``step`` on a later turn; ``rest_after``: seconds the last slice took, left idle before the next one, so
        that settling uses at most half of the window's time and a click is rarely queued right behind a slice
        (the two together made the 50-60 ms stalls right after a 10,000-pack scan)."""
        next_turn(self, step, int(rest_after * 1000))
