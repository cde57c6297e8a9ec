"""Work on the window's thread, a slice per turn of the event loop: the one place that decides how much and how often.

The window must never stall over 50 ms, with 10,000 packs open. Work that grows with the workspace (settling the
tree, filling the Problems table, freeing a closed workspace, watching folders, colouring a long file) therefore
runs a slice per turn through a ``Paced`` queue:

* each slice takes as many items as the last slice's pace says fit in the ``Pace``'s budget (never more than
  double the last slice: one quick slice can be luck), and stops early, after any item, once the budget is spent;
* after a slice the queue rests as long as the slice ran, so the work takes at most half of the window's time and
  a click is rarely queued right behind a slice;
* it stops when its work is gone: ``cancel`` (the scan it fed was replaced), or its owner ``QObject`` is
  deleted (the queue is the owner's child, its timer goes with it).

A queue fed from elsewhere as items come (a running scan's packs) is held open (``keep_open``) until its feeder is
done (``close``): meanwhile running dry is a pause, not the end, a slice that takes nothing only waits for a later
turn, and its ``Pace`` may ask for a longer gap between slices (an update that re-sorts a table, a few a second).

Every budget is named below, with what was measured when it was chosen: to change how a view fills, change its
``Pace`` here.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

from PySide6.QtCore import QObject, Qt, QTimer, Signal

from studio.ui.turns import YIELD_MS

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Pace:
    """How a ``Paced`` queue sizes its slices: about ``budget_s`` of work each, ``first`` items to begin with,
    never fewer than ``low`` nor more than ``high``."""

    budget_s: float
    first: int
    low: int
    high: int
    gap_s: float = 0.0
    """While the queue is held open, at least this long between two slices, unless twice the next slice waits."""
    rest: float = 1.0
    """After a slice the queue rests this many times as long as the slice ran (never under ``YIELD_MS``): at 1.0
    the work takes at most half of the window's time."""

    @classmethod
    def fixed(cls, size: int) -> Pace:
        """Always ``size`` items a slice, however long they take (for items of known, even cost)."""
        return cls(budget_s=float("inf"), first=size, low=size, high=size)

    def next_size(self, done: int, spent: float) -> int:
        """How many items the next slice should take so that it lasts about ``budget_s``, given that ``done``
        items took ``spent`` seconds: never more than double the last slice, within ``low``..``high``."""
        if done <= 0:
            return self.first
        fit = done * self.budget_s / max(spent, 1e-4)
        return max(self.low, min(self.high, 2 * done, int(min(fit, self.high))))


# -- the budgets ----------------------------------------------------------------------------------------------------
ANNOUNCE = Pace(budget_s=0.015, first=40, low=40, high=1000)
"""Packs of a running scan announced to the views per slice (``WorkspaceSession``): a fixed 40 a tick took 12 s just
to announce 10,000 packs, while the views take each pack in well under a millisecond."""
FROM_CACHE = Pace(budget_s=0.015, first=40, low=40, high=1000, rest=0.25)
"""The same for the packs a warm opening shows from the result cache, all there at once: the window has nothing else
to do yet (their findings wait until all are shown), and the user waits for exactly this. Slices as long as
``ANNOUNCE``'s, so no turn is longer, but with a quarter of the rest: with a full rest, 10,000 packs took 1.0-1.1 s
for 0.45-0.5 s of work; any click still waits at most one slice."""
FINDINGS = Pace(budget_s=0.008, first=150, low=50, high=600, gap_s=0.3)
"""Packs whose findings one Problems update carries while a scan runs: the whole backlog of 300 ms at 10,000 packs
(up to 6,000) took 50-75 ms in one update. Python time only: the table lays out and paints after it. Each update
re-sorts the table, so a few a second while the scan runs; once it has ended the rest follow at the budget."""
NAMES = Pace(budget_s=0.004, first=200, low=100, high=5000)
"""Names of the settled workspace indexed per slice (``Workspace.index_names``): 10,000 take 30-40 ms, which in the
scan's worker contended with the window for the interpreter lock (50-60 ms stalls when re-opening)."""
SETTLE = Pace(budget_s=0.008, first=200, low=1, high=200)
"""Settled packs shown in the tree per slice. A verdict that moves a pack costs a few microseconds in a collapsed
group but about a millisecond in an expanded one of 10,000: sized from the last slice, and cut at the budget.
A workspace with no more changed packs than ``high`` is settled at once, before ``finished``."""
PROBLEMS = Pace(budget_s=0.010, first=100, low=25, high=2000)
"""Settled packs the Problems table takes per slice. All 10,000 in one update held the window for 60-80 ms, a fixed
400 still 30-45 ms when they had many findings: a pack's cost varies tenfold (findings, namesakes to relabel)."""
TREE_ROWS = Pace(budget_s=0.005, first=500, low=100, high=500)
"""Rows of a closed workspace removed from the tree per slice: 10,000 rows with their data and wrappers took
80-90 ms in one go; 500 a slice kept every turn of a 10,000-pack re-opening under 50 ms, so never more."""
WATCH_PATHS = Pace(budget_s=0.004, first=500, low=100, high=500)
"""Paths handed to (or taken from) the file watcher per slice: 6,000 took 41 ms to add and 37 ms to remove; the
kernel's share varies with the disk's load, so never more than the 500 a slice that was measured safe."""
HIGHLIGHT = Pace(budget_s=0.006, first=200, low=1, high=10_000)
"""Lines of a file re-coloured per slice (each costs Python work in ``highlightBlock``); a fixed line count took
15-25 ms a turn on long lines."""
RELEASE = Pace(budget_s=0.004, first=500, low=100, high=500)
"""Objects a closed workspace held, freed per slice (``let_go``): 10,000 packs took about 60 ms at once, the tree's
10,000 row wrappers 86 ms more. What an object costs to free varies with what it holds (a pack, a row's wrapper, a
label index), and the freeing cannot stop half-way: never more than the 500 a slice that was measured safe."""
ONE_A_TURN = Pace.fixed(1)
"""One item a slice: for steps that are each a view's whole update (emptying a mode's 10,000-row table took
10-20 ms apiece)."""


class Paced(QObject, Generic[T]):
    """A queue of items handled a slice per event-loop turn, each slice sized and followed by a rest (see the module).

    ``handle`` gets an iterator over the slice: items it does not take (the slice's time ran out before it asked
    for them) stay queued for the next slice. A ``handle`` that takes nothing ends the work, as ``cancel`` would,
    unless the queue is held open (``keep_open``): then it tries again on a later turn.
    Nothing runs in the turn that feeds the queue.

    Signals:
        finished(): the queue ran dry (not after ``cancel``).
    """

    finished = Signal()

    def __init__(self, owner: QObject, pace: Pace, handle: Callable[[Iterator[T]], object]) -> None:
        super().__init__(owner)
        self.pace = pace
        """How slices are sized; replaceable between slices."""
        self._handle = handle
        self._queue: list[T] = []
        self._size = pace.first
        self._work = 0
        """Counts ``cancel`` calls: a slice whose work was cancelled while it ran leaves the queue alone."""
        self._once = False
        """Made by ``once``: deleted when its work is done or cancelled."""
        self._open = False
        """Held open by ``keep_open`` until ``close``: its feeder may still bring items."""
        self._rest_ms = YIELD_MS
        """The rest after the last slice, before any ``gap_s``: what remains once the feeder is done."""
        self.last_ended = 0.0
        """When the last slice that took items ended (``time.perf_counter``): for work that should not share a turn
        with it."""
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)  # 1 ms means 1 ms, as in ``next_turn``
        self._timer.timeout.connect(self._slice)

    @classmethod
    def once(cls, owner: QObject, pace: Pace, handle: Callable[[Iterator[T]], object],
             items: Iterable[T]) -> Paced[T]:
        """Handle ``items`` through a queue of their own, which deletes itself once done or cancelled."""
        queue: Paced[T] = cls(owner, pace, handle)
        queue._once = True
        queue.finished.connect(queue.deleteLater)
        queue.feed(items)
        if not queue.running:
            queue.deleteLater()
        return queue

    @property
    def running(self) -> bool:
        """Whether items wait (or a slice is handling the last ones)."""
        return bool(self._queue)

    @property
    def pending(self) -> int:
        """How many items wait."""
        return len(self._queue)

    @property
    def open(self) -> bool:
        """Whether the queue is held open (``keep_open``, not yet ``close``)."""
        return self._open

    def feed(self, items: Iterable[T]) -> None:
        """Queue ``items`` after those waiting; a queue at rest starts on a later turn with a slice of ``first``
        (a held-open queue keeps its slice size, and its ``gap_s`` after the last slice)."""
        idle = not self._queue
        self._queue.extend(items)
        if idle and self._queue and not self._timer.isActive():
            if not self._open:
                self._size = self.pace.first
            self._timer.start(self._rest_after(0.0))

    def keep_open(self) -> None:
        """Its feeder still runs: running dry waits for more items instead of ending the work (no ``finished``)."""
        self._open = True
        self._size = self.pace.first

    def close(self) -> None:
        """Its feeder is done: what waits follows at the budget alone (no ``gap_s``), then ``finished``; on a later
        turn when nothing waits."""
        if not self._open:
            return
        self._open = False
        if not self._timer.isActive() or self._timer.remainingTime() > self._rest_ms:
            self._timer.start(self._rest_ms)

    def _rest_for(self, spent: float) -> int:
        """The rest (ms) a slice of ``spent`` seconds earns: ``pace.rest`` times as long, never under ``YIELD_MS``."""
        return max(YIELD_MS, round(spent * 1000 * self.pace.rest))

    def _rest_after(self, spent: float) -> int:
        """How long to rest (ms) before the next slice: as long as the last one ran, and while held open at least
        ``gap_s`` after it ended, unless twice the next slice already waits."""
        rest = self._rest_for(spent)
        if self._open and self.pace.gap_s and len(self._queue) < 2 * self._size:
            since = time.perf_counter() - self.last_ended
            rest = max(rest, round((self.pace.gap_s - since) * 1000))
        return rest

    def replace(self, items: Iterable[T]) -> None:
        """Drop what waits and queue ``items`` instead (the work was redone from scratch)."""
        self.cancel()
        self.feed(items)

    def cancel(self) -> None:
        """Drop what waits: nothing more is handled, not even the rest of a slice under way. The queue is no longer
        held open."""
        self._work += 1
        self._queue = []
        self._open = False
        self._timer.stop()
        if self._once:
            self.deleteLater()

    def _slice(self) -> None:
        if not self._queue:  # closed while dry (``close``)
            if not self._open:
                self.finished.emit()
            return
        work, chunk = self._work, self._queue[:self._size]
        began = time.perf_counter()
        deadline = began + self.pace.budget_s
        taken = 0

        def items() -> Iterator[T]:
            nonlocal taken
            for item in chunk:
                if taken and (work != self._work or time.perf_counter() > deadline):
                    return
                taken += 1
                yield item

        try:
            self._handle(items())
        finally:
            # Also after ``handle`` raised (Qt prints it): the items it took are done with, the rest still wait.
            if work == self._work:
                self._rest_or_finish(chunk, taken, began)

    def _rest_or_finish(self, chunk: list[T], taken: int, began: float) -> None:
        if not taken and not self._open:
            self.cancel()
            return
        del self._queue[:taken]
        chunk.clear()  # freeing the items (``let_go``) is part of the slice's time
        ended = time.perf_counter()
        spent = ended - began
        if taken:  # a slice that took nothing did no work: another queue that waits for it need not wait again
            self.last_ended = ended
            self._size = self.pace.next_size(taken, spent)
        self._rest_ms = self._rest_for(spent)
        if self._queue:
            self._timer.start(self._rest_after(spent))
        elif not self._open:
            self.finished.emit()
