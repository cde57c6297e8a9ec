"""The open workspace as the window sees it: packs arriving from a scan worker, replaced one at a time.

Scanning runs in the thread pool. The worker hands each loaded pack to a thread-safe inbox and, when the inbox was
empty, wakes the window with a queued signal (the window used to look every 50 ms, and on a warm re-open, where
the cache hands over every pack at once, spent most of its time waiting for that timer). Packs are announced
for the tree through a ``pacing.Paced`` queue, and their findings through another, a few times a second while
the scan runs (each Problems update re-sorts its table), so a 1,000-pack scan produces a few dozen model
updates instead of a thousand, and the GUI thread never waits on the disk.

A pack arrives as loaded (its own findings). When the scan ends, the core has settled the workspace: only
packs whose verdict is not empty (shadowed, colliding, untrusted) change, and only those are announced. A
reload asks the core to settle the pack's name group again; the core says which packs changed.

A warm workspace arrives twice over (``studio.ui.cached_first``): first every pack the result cache knows, as it
was stored, all of them announced at once (``shown_from_cache`` once they all are); then, while the scan confirms
them, only the packs that came out different (``packs_confirmed``: later copies of packs already shown) or new.
Packs shown from the cache that the scan no longer finds leave when it settles (``packs_removed``).

Signals:
    started(): a new scan began (listeners clear their views).
    packs_added(list): a batch of freshly loaded packs (for the tree).
    shown_from_cache(int): every pack the result cache knew has been announced (how many); the scan goes on.
    packs_confirmed(list): packs shown from the cache that the scan found otherwise: the later copies.
    findings_added(list): packs whose findings are not in the Problems table yet (a few times a second).
    pack_replaced(object, object): (old Pack, new Pack) after a reload or a new verdict.
    progress(int, int): packs loaded so far, packs found so far (0 when unknown).
    settled(list): the scan ended; the packs in the list got a verdict (all others are unchanged).
    packs_removed(list): the Packs that left the workspace (their folder was deleted or renamed, or the scan no
        longer found a pack shown from the cache).
    finished(bool): the scan ended; True when it was cancelled.
    failed(str): the scan worker raised (a bug); the text is shown to the user.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal

from studio.core.diagnostics import Diagnostic
from studio.core.model import NO_VERDICT, Pack
from studio.core.pack import load_pack, reload_pack
from studio.core.workspace import Workspace, pack_root_for
from studio.ui import gc_policy, workers
from studio.ui.child_pool import run_in_child
from studio.ui.let_go import let_go
from studio.ui.models.pack_tree import tree_order
from studio.ui.pacing import ANNOUNCE, FINDINGS, FROM_CACHE, NAMES, Pace, Paced
from studio.ui.workspace_source import WorkspaceRequest, WorkspaceResult, open_workspace, reload


def reload_with_content(pack: Pack) -> Pack:
    """``reload`` plus the content checks (every text file of the pack): for the packs a curator has opened.

    Runs in the child process: the checks are Python work that would otherwise hold the interpreter lock
    the window needs to paint. The calling worker thread only waits.
    """
    return run_in_child(_content_reload, pack)


def _content_reload(pack: Pack) -> Pack:
    return reload_pack(pack, content=True)

SHARED_TURN_S = 0.002
"""A slice that ended less than this long ago ran in this turn of the event loop: the two announcing queues (packs
for the tree, findings for the Problems table) never both run in one, as each costs tens of ms at 10,000 packs."""


def _absolute(path: Path) -> Path:
    """``path`` made absolute; the same object when it already is (a new Path costs a parse, times 700 roots)."""
    text = os.fspath(path)
    absolute = os.path.abspath(text)
    return path if absolute == text and isinstance(path, Path) else Path(absolute)


class WorkspaceSession(QObject):
    started = Signal()
    packs_added = Signal(list)
    shown_from_cache = Signal(int)
    packs_confirmed = Signal(list)
    findings_added = Signal(list)
    pack_replaced = Signal(object, object)
    progress = Signal(int, int)
    settled = Signal(list)
    packs_removed = Signal(list)
    finished = Signal(bool)
    failed = Signal(str)
    _woken = Signal()
    """Emitted by the scan's worker thread when packs (or progress) wait in the inbox: queued to the window's."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.request = WorkspaceRequest()
        self.packs: dict[Path, Pack] = {}
        self.diagnostics: list[Diagnostic] = []
        self.scanning = False
        self._scans = 0
        self._scan_id = 0
        self._cancel = threading.Event()
        self._lock = threading.Lock()
        self._inbox: list[Pack] = []
        self._awake = False
        """A ``_woken`` signal is on its way (under the lock): the worker sends one per batch, not one per pack."""
        self._progress = (0, 0)
        self._arrived: set[Path] = set()
        """Roots of the packs taken from the inbox during this scan."""
        self._cached: int | None = None
        """How many packs the scan first sent from the result cache (under the lock until taken; None: none)."""
        self._from_cache: int | None = None
        """The same, taken: ``shown_from_cache`` is due once as many packs have been announced."""
        self._pace_before_cache: Pace | None = None
        """The tree's pace while the cached packs are shown at ``FROM_CACHE``'s."""
        self._announced = 0
        """Packs taken by the tree's queue during this scan (the ones from the cache come first)."""
        self._reload_ids: dict[Path, int] = {}
        self.inspected: set[Path] = set()
        """Packs whose content checks have been asked for (kept across reloads, cleared by a new scan)."""
        self._core: Workspace | None = None
        self._result: WorkspaceResult | None = None
        self._woken.connect(self._take_inbox, Qt.ConnectionType.QueuedConnection)
        self._arrivals: Paced[Pack] = Paced(self, ANNOUNCE, self._announce_packs)
        """Packs of the running scan, announced for the tree a slice at a time."""
        self._findings: Paced[Pack] = Paced(self, FINDINGS, self._announce_findings)
        """Announced packs whose findings are not in the Problems table yet."""
        self._arrivals.finished.connect(self._findings.close)
        self._findings.finished.connect(self._settle_when_shown)
        self._naming: Paced[Pack] = Paced(self, NAMES, self._index_names)
        """Indexes the settled workspace's names (``Workspace.index_names``) on the window's thread, a slice per
        turn: in the scan's worker thread that contended with the window for the interpreter lock just as the
        views were settling (50-60 ms stalls when re-opening)."""

    @property
    def workspace(self) -> Workspace | None:
        """The settled core workspace, once the scan has ended (None while it runs)."""
        return self._core

    # -- opening ------------------------------------------------------------------------------
    def open(self, request: WorkspaceRequest) -> None:
        """Scan what ``request`` names from scratch (cancels a scan still running)."""
        # Absolute, not resolved: resolving every component of 700 roots took 70-150 ms of the window's time,
        # and the core names packs by the path as typed anyway (``studio.core.scan``).
        request.explicit = [_absolute(r) for r in request.explicit]
        self.request = request
        self.rescan()

    def add_root(self, root: Path) -> None:
        self.request.explicit.append(Path(os.path.abspath(root)))
        self.rescan()

    def rescan(self) -> None:
        self.cancel()
        self._cancel = threading.Event()
        cancel = self._cancel
        # The last workspace is let go of a slice at a time: freeing 10,000 packs in one go took about 60 ms.
        # Held there, they outlive every view's reference, so the views' clearing frees none of them.
        self._naming.cancel()  # a save meanwhile completes the index itself (``replace_pack``)
        gc_policy.workspace_closing(len(self.packs), first=not self._scans)
        let_go(self.packs.values())
        self.packs = {}
        self.inspected.clear()
        self.diagnostics = []
        self._core = None
        self._result = None
        self._arrivals.cancel()
        self._findings.cancel()
        with self._lock:
            self._inbox.clear()
            self._progress = (0, 0)
            self._cached = None
        self._arrived = set()
        self._end_cached_showing()  # a scan cancelled while its cached packs were shown
        self._announced = 0
        self._arrivals.keep_open()
        self._findings.keep_open()
        self.scanning = True
        self.started.emit()
        self._scan_id = scan_id = workers.next_request_id()
        self._scans += 1
        workers.submit(
            open_workspace, self.request,
            lambda pack: self._on_pack(scan_id, pack), lambda done, total: self._on_progress(scan_id, done, total),
            cancel.is_set, lambda packs: self._on_cached(scan_id, packs),
            on_done=self._on_scan_done, on_error=self._on_scan_failed, request_id=self._scan_id,
        )

    def cancel(self) -> None:
        """Ask a running scan to stop; packs already loaded stay."""
        self._cancel.set()

    # called in the worker thread: only touch the locked inbox, and wake the window once per batch
    def _on_pack(self, scan_id: int, pack: Pack) -> None:
        with self._lock:
            if scan_id != self._scan_id:  # a cancelled scan may still be finishing its last pack
                return
            self._inbox.append(pack)
            wake, self._awake = not self._awake, True
        if wake:
            self._woken.emit()

    def _on_progress(self, scan_id: int, done: int, total: int) -> None:
        with self._lock:
            if scan_id != self._scan_id:
                return
            self._progress = (done, total)
            wake, self._awake = not self._awake, True
        if wake:
            self._woken.emit()

    def _on_cached(self, scan_id: int, packs: list[Pack]) -> None:
        """Every pack the result cache knows, before the scan confirms them: queued ahead of all else, in the order
        the tree shows them, so that each slice of them lands in the tree as one run of rows (the tree's groups are
        sorted by name; packs in the walk's order fell all over a group of thousands, a row insertion each)."""
        packs.sort(key=tree_order)  # here, in the scan's worker thread: 10,000 packs take about 30 ms
        with self._lock:
            if scan_id != self._scan_id:
                return
            self._inbox[:0] = packs
            self._cached = len(packs)
            wake, self._awake = not self._awake, True
        if wake:
            self._woken.emit()

    def _take_inbox(self) -> None:
        """The worker woke the window: queue what waits in the inbox for the tree (announced a slice per turn)."""
        with self._lock:
            batch, self._inbox = self._inbox, []
            done, total = self._progress
            cached, self._cached = self._cached, None
            self._awake = False
        self._arrived.update(pack.root for pack in batch)
        if not self.scanning:
            return  # the scan failed meanwhile
        self.progress.emit(done, total)  # first, so views know how large the workspace will be before packs arrive
        self._arrivals.feed(batch)
        if cached is not None:
            self._start_cached_showing(cached)
            self._cache_shown()

    def _announce_packs(self, packs: Iterator[Pack]) -> None:
        """Announce a slice of arrived packs for the tree; their findings follow (``_announce_findings``)."""
        if self._arrivals.open and time.perf_counter() - self._findings.last_ended < SHARED_TURN_S:
            # The Problems table was just updated in this turn: the packs wait for the next. Only while the scan
            # runs: once it is done, a slice that takes nothing would end the queue, and the findings wait instead.
            return
        fresh: list[Pack] = []
        confirmed: list[Pack] = []
        for pack in packs:
            self._announced += 1
            shown = self.packs.get(pack.root)
            if shown is None:
                fresh.append(pack)
            elif shown is not pack:  # shown from the cache, and the scan found it otherwise
                confirmed.append(pack)
            self.packs[pack.root] = pack
            if self._announced == self._from_cache:
                break  # the last pack from the cache: what the scan found otherwise follows on a later turn
        if fresh:
            self.packs_added.emit(fresh)
        if confirmed:
            self.packs_confirmed.emit(confirmed)
        self._findings.feed(fresh + confirmed)  # a copy shown earlier leaves the queue (``_announce_findings``)
        self._cache_shown()

    def _cache_shown(self) -> None:
        """Once every pack the cache knew has been announced, say so (once a scan)."""
        if self._from_cache is not None and self._announced >= self._from_cache:
            count = self._from_cache
            self._end_cached_showing()
            self.shown_from_cache.emit(count)

    def _start_cached_showing(self, count: int) -> None:
        """The ``count`` packs the result cache knew arrive: shown at ``FROM_CACHE``'s pace until all are in the tree
        (``_cache_shown``)."""
        self._from_cache = count
        self._pace_before_cache = self._arrivals.pace
        self._arrivals.pace = FROM_CACHE

    def _end_cached_showing(self) -> None:
        """Back to the pace before (all cached packs shown, or the scan ended or was replaced first)."""
        self._from_cache = None
        if self._pace_before_cache is not None:
            self._arrivals.pace, self._pace_before_cache = self._pace_before_cache, None

    def _announce_findings(self, packs: Iterator[Pack]) -> None:
        """Put a slice of announced packs' findings in the Problems table."""
        arriving = self._arrivals.open or self._arrivals.running  # this queue is held open until then
        if arriving and time.perf_counter() - self._arrivals.last_ended < SHARED_TURN_S:
            return  # the tree just took packs in this turn: the findings wait for the next
        if self._from_cache is not None:
            return  # the tree first shows every pack the cache knows; the Problems table fills after
        # A copy shown from the cache that the scan has replaced since: its findings are no longer the pack's.
        current = [pack for pack in packs if self.packs.get(pack.root) is pack]
        if current:
            self.findings_added.emit(current)

    def _on_scan_done(self, request_id: int, result: WorkspaceResult) -> None:
        if request_id != self._scan_id:
            return  # an older scan that was cancelled and replaced
        self._take_inbox()  # packs whose wake-up is still on its way: the scan's result comes after them
        unseen = [pack for pack in result.packs if pack.root not in self._arrived]
        if unseen:  # packs the callbacks never handed over (there should be none)
            self._arrivals.feed(unseen)
        # Settled once every pack and every finding has been shown: a loaded copy's findings shown after its
        # settled copy would overwrite the verdict's findings.
        self._result = result
        self._arrivals.close()

    def _settle_when_shown(self) -> None:
        if self._result is not None:
            self._settle(self._result)

    def _settle(self, result: WorkspaceResult) -> None:
        self._result = None
        self._core = result.core
        self.diagnostics = list(result.diagnostics)
        # Every pack was announced as loaded; settling gave some of them a verdict, and only those changed.
        changed = [p for p in result.core.packs if p.verdict != NO_VERDICT]
        shown, self.packs = self.packs, {p.root: p for p in result.core.packs}
        # Shown from the cache, and the scan found no such pack any more (or was cancelled before it did).
        gone = [p for root, p in shown.items() if root not in self.packs]
        if gone:
            self.inspected.difference_update(p.root for p in gone)
            self.packs_removed.emit(gone)
        self.settled.emit(changed)
        gc_policy.workspace_loaded()
        self._finish(result.cancelled)
        self._naming.feed(result.core.packs)

    def _index_names(self, packs: Iterator[Pack]) -> None:
        """Index the names of as many more packs as the slice holds (the core indexes them in order)."""
        if self._core is None or self._core.index_names(sum(1 for _ in packs)):
            self._naming.cancel()  # all indexed already (a save completes the index)

    def _on_scan_failed(self, request_id: int, text: str) -> None:
        if request_id != self._scan_id:
            return
        self.failed.emit(text)
        self._finish(False)

    def _finish(self, cancelled: bool) -> None:
        self.scanning = False
        gc_policy.loading_ended()
        self._arrivals.cancel()  # after a failure, packs still queued are not shown (they were settled by nobody)
        self._findings.cancel()
        if self._from_cache is not None:  # the cached packs will not all be shown
            self._end_cached_showing()
        self.finished.emit(cancelled)

    # -- one pack at a time -------------------------------------------------------------------
    def reload_pack(self, root: Path) -> None:
        """Re-read one pack in a worker (after a change on disk); the latest request per pack wins.

        Packs the user has looked at are re-read with the content checks too (see ``inspect_pack``).
        """
        pack = self.packs.get(root)
        if pack is None:
            return
        rid = workers.next_request_id()
        self._reload_ids[root] = rid
        if root in self.inspected:
            workers.submit(reload_with_content, pack, on_done=self._on_reloaded, request_id=rid)
        else:
            workers.submit(reload, pack, on_done=self._on_reloaded, request_id=rid)

    def inspect_pack(self, root: Path) -> None:
        """Run the content checks (source maps, runs/, executables, injection text) for a pack in view, once.

        A workspace scan checks KNOWLEDGE.md and the layout only, so that a large workspace opens quickly;
        the pack a curator opens gets the full check in a worker.
        """
        if root in self.inspected or root not in self.packs:
            return
        self.inspected.add(root)
        self.reload_pack(root)

    def _on_reloaded(self, request_id: int, fresh: Pack) -> None:
        if self._reload_ids.get(fresh.root) != request_id:
            return
        self.replace(fresh)

    def replace(self, fresh: Pack) -> None:
        """Swap in a reloaded (or live-validated) pack; the core settles its name group again."""
        old = self.packs.get(fresh.root)
        if old is None:
            return
        if self._core is None:  # still scanning: the verdict comes with settling
            self.packs[fresh.root] = fresh
            self.pack_replaced.emit(old, fresh)
            return
        # A rename can shadow or free another pack: the core names every pack whose settled copy changed.
        self._announce(self._core.replace_pack(fresh))

    # -- packs made or removed in the app (New Pack, a renamed or trashed folder) -----------------------
    def add_pack(self, root: Path) -> None:
        """Load a pack that is new to the workspace (made in the app) in a worker, then show and settle it."""
        root = Path(os.path.abspath(root))  # as the core names packs: the path as typed
        if self._core is None or root in self.packs:
            self.reload_pack(root)
            return
        scope, scope_root = self._core.scope_of(root)
        if scope_root is None and root not in self.request.explicit:
            self.request.explicit.append(root)  # outside every scanned folder: a rescan keeps it all the same
        workers.submit(load_pack, root, scope, scope_root, on_done=self._on_added)

    def _on_added(self, _request_id: int, pack: Pack) -> None:
        if self._core is None or pack.root in self.packs:
            return
        changed = self._core.replace_pack(pack)
        settled = self._core.by_root(pack.root)
        assert settled is not None
        self.packs[pack.root] = settled
        self.packs_added.emit([settled])
        self.findings_added.emit([settled])
        self._announce(changed[1:])

    def remove_pack(self, root: Path) -> None:
        """The pack's folder is gone (trashed, or renamed away): drop it and settle its name again."""
        gone = self.packs.pop(Path(root), None)
        if gone is None:
            return
        self.inspected.discard(gone.root)
        changed = self._core.remove_pack(gone.root) if self._core is not None else []
        self.packs_removed.emit([gone])
        self._announce(changed)

    def set_pin(self, name: str, root: Path | None) -> list[Path]:
        """Make the copy at ``root`` win ``name`` within its scope (None removes the pin) and settle that name again.

        The pin holds for later rescans of this session (``request.pins``); remembering it between sessions is the
        caller's (``StudioSettings.set_pin``). Returns the roots whose settled pack changed (each announced with
        ``pack_replaced``). Does nothing while a scan runs: the workspace is settled when it ends.
        """
        if root is None:
            self.request.pins.pop(name, None)
        else:
            self.request.pins[name] = Path(root)
        if self._core is None:
            return []
        changed = self._core.set_pin(name, root)
        self._announce(changed)
        return changed

    def _announce(self, roots: list[Path]) -> None:
        """Tell the views about packs whose settled copy the core just changed."""
        if self._core is None:
            return
        for root in roots:
            settled = self._core.by_root(root)
            previous = self.packs.get(root)
            if settled is not None and previous is not None:
                self.packs[root] = settled
                self.pack_replaced.emit(previous, settled)

    def pack_for_path(self, path: Path) -> Pack | None:
        """The pack whose directory contains ``path`` (the deepest one if packs nest)."""
        root = pack_root_for(self.packs, path)
        return None if root is None else self.packs[root]
