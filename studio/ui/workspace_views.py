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

from collections.abc import Callable, Iterator
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from studio.core.labels import LabelIndex
from studio.core.model import Pack
from studio.ui.let_go import let_go
from studio.ui.live_watch import LiveWatch
from studio.ui.models.diagnostics_table import DiagnosticsTableModel
from studio.ui.models.pack_tree import PackTreeModel
from studio.ui.modes import JobModes
from studio.ui.pacing import ONE_A_TURN, PROBLEMS, SETTLE, Paced
from studio.ui.status_line import PackTally, StatusLine
from studio.ui.widgets.quick_open_popup import QuickOpen
from studio.ui.widgets.workspace_panel import WorkspacePanel
from studio.ui.workspace_session import WorkspaceSession


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
        # A large settled workspace reaches the views over many turns (see ``_settled``); a new scan cancels
        # what is left of the last one's.
        self._steps: Paced[Callable[[], object]] = Paced(self, ONE_A_TURN, _run)
        """Whole-view updates, one a turn (each view that takes every pack costs a few ms at 10,000 packs)."""
        self._settling: Paced[Pack] = Paced(self, SETTLE, self._settle_slice)
        """Packs with a new verdict, into the tree."""
        self._settling.finished.connect(self._tree_settled)
        self._problems: Paced[Pack] = Paced(self, PROBLEMS, self._problems_some)
        """The same packs, then, into the Problems table."""
        self._settled_packs: list[Pack] = []
        """The packs ``_settling`` has shown in the tree, for the Problems table."""
        session.started.connect(self._started)
        session.packs_added.connect(self._packs_added)
        session.packs_confirmed.connect(self._packs_confirmed)
        session.findings_added.connect(self._findings_added)
        session.settled.connect(self._settled)
        session.pack_replaced.connect(self._pack_replaced)
        session.packs_removed.connect(self._packs_removed)
        session.progress.connect(status.show_progress)
        session.shown_from_cache.connect(status.show_cached)
        session.progress.connect(lambda _done, total: workspace_panel.expect(total))
        session.finished.connect(self._finished)

    def _started(self) -> None:
        for queue in (self._steps, self._settling, self._problems):
            queue.cancel()  # what is left of the last workspace's settling
        self._settled_packs = []
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
            # The roots are the packs' own Paths: made again, 10,000 of them took 50 ms when a workspace opens.
            self.tree_model.set_labels({r if isinstance(r, Path) else Path(r): label for r in changed
                                        if (label := self.labels.label(r))})

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

    def _packs_confirmed(self, packs: list[Pack]) -> None:
        """Packs shown from the result cache that the scan found otherwise: their rows show the later copies (their
        findings follow through ``findings_added``), and the window refreshes any of them in view."""
        self._relabel(packs)
        for pack in packs:
            self.tree_model.replace_pack(pack)
        self.tally.update(packs)
        self.refresh_counts()
        for pack in packs:
            self.pack_replaced.emit(pack)

    def _findings_added(self, packs: list[Pack]) -> None:
        self.diag_model.show_packs(packs)
        self.refresh_counts()

    def _settled(self, changed: list[Pack]) -> None:
        """The scan ended: ``changed`` got a verdict (shadowed, colliding, untrusted); every other pack stands.

        A small workspace is settled in this turn, before ``finished``, as views and tests expect. A large one
        over many: the tree takes the changed packs a slice per turn (``pacing.SETTLE``), then the Problems table
        its turn for the workspace's own findings, then the packs' (``pacing.PROBLEMS``): at 10,000 packs each
        of these in one go held the window for 40-80 ms.
        """
        self.tally.retain(set(self.session.packs))
        follow = [lambda: self.modes.set_packs(list(self.session.packs.values())),
                  lambda: self.quick_open.set_packs(self.session.packs.values())]
        if len(self.session.packs) <= self._settling.pace.high:
            follow.pop(0)()
        self._steps.feed(follow)
        if len(changed) <= self._settling.pace.high:
            self._show_problems(self._settle_some(iter(changed)), workspace=True)
            return
        # Packs that change group (shadowed, quarantined) move first, while the big groups are still
        # collapsed: once the user has expanded one, every move re-lays out all of its rows.
        movers: list[Pack] = []
        staying: list[Pack] = []
        for pack in changed:
            (movers if self.tree_model.changes_group(pack) else staying).append(pack)
        self._settling.feed(movers + staying)

    def _settle_some(self, packs: Iterator[Pack]) -> list[Pack]:
        """Show settled packs in the tree (a pack reloaded meanwhile has been shown as it is now: left be)."""
        shown: list[Pack] = []
        for pack in packs:
            if self.session.packs.get(pack.root) is pack:
                self.tree_model.replace_pack(pack)
                shown.append(pack)
        self.tally.update(shown)
        self._relabel(shown)
        return shown

    def _settle_slice(self, packs: Iterator[Pack]) -> None:
        self._settled_packs.extend(self._settle_some(packs))

    def _tree_settled(self) -> None:
        # On turns of their own: on the turn of the last tree slice, the first update of the table made one
        # 40-60 ms stall at 10,000 packs. The workspace's own findings go first, alone (hundreds of rows when
        # many packs share names).
        packs, self._settled_packs = self._settled_packs, []
        self._steps.feed([lambda: self._show_problems([], workspace=True), lambda: self._problems.feed(packs)])

    def _show_problems(self, packs: list[Pack], workspace: bool = False) -> None:
        current = [p for p in packs if self.session.packs.get(p.root) is p]  # not reloaded meanwhile
        self.diag_model.show_packs(current, workspace=self.session.diagnostics if workspace else None)
        self.refresh_counts()

    def _problems_some(self, packs: Iterator[Pack]) -> None:
        self._show_problems(list(packs))

    def _pack_replaced(self, _old: Pack, fresh: Pack) -> None:
        self._relabel([fresh])
        self.tree_model.replace_pack(fresh)
        self.diag_model.show_packs([fresh])
        self.modes.pack_replaced(fresh)
        self.quick_open.update_pack(fresh)
        self.tally.update([fresh])
        self.refresh_counts()
        self.pack_replaced.emit(fresh)

    def _packs_removed(self, gone: list[Pack]) -> None:
        self.tree_model.remove_packs([pack.root for pack in gone])
        changed = self.labels.remove([pack.root for pack in gone])
        self.tree_model.set_labels({Path(r): label for r in changed if (label := self.labels.label(r))})
        self.diag_model.set_packs([(str(pack.root), pack.name, ()) for pack in gone])
        if not self.session.scanning:  # a scan fills these when it settles
            self.modes.set_packs(list(self.session.packs.values()))
            self.quick_open.set_packs(self.session.packs.values())
        self.tally.retain(set(self.session.packs))
        self.refresh_counts()
        for pack in gone:
            self.pack_removed.emit(pack)

    def _finished(self, cancelled: bool) -> None:
        self.workspace_panel.scan_finished()
        self.status.finish(cancelled)
        self.refresh_counts()

    def refresh_counts(self) -> None:
        self.status.set_counts(self.diag_model.counts(), len(self.session.packs),
                               self.tally.quarantined, self.tally.shadowed)


def _run(steps: Iterator[Callable[[], object]]) -> None:
    for step in steps:
        step()
