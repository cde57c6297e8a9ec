"""Free what a closed workspace held a slice per event-loop turn, not all at once on the GUI thread.

Dropping the last reference to 10,000 packs frees them on the spot, about 60 ms; the tree's 10,000 row wrappers
took 86 ms more. Views hand what they drop to ``let_go`` instead, and it is released ``SLICE`` objects a turn.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QCoreApplication, QTimer

from studio.ui.heap import trim_heap
from studio.ui.turns import YIELD_MS

SLICE = 500
"""Objects released per turn (a few milliseconds for packs or row wrappers)."""
TRIM_AFTER = 5000
"""Once this many objects have been released, the C heap's free pages go back to the system (``heap``)."""

_held: list[object] = []
_released = [0]
_timer: list[QTimer] = []
"""The one timer that releases slices (made on first use, owned by the application)."""


def let_go(objects: Iterable[object]) -> None:
    """Keep ``objects`` a little longer and release them over the next turns of the event loop."""
    _held.extend(objects)
    if not _held:
        return
    app = QCoreApplication.instance()
    if app is None:  # no event loop to spread the work over (a script, a test without Qt): release now
        _held.clear()
        return
    if not _timer:
        timer = QTimer(app)
        timer.setInterval(YIELD_MS)  # not 0: a zero-delay chain holds every timer (turns.py)
        timer.timeout.connect(_release_slice)
        _timer.append(timer)
    if not _timer[0].isActive():
        _timer[0].start()


def held() -> int:
    """How many objects still wait to be released."""
    return len(_held)


def _release_slice() -> None:
    _released[0] += min(SLICE, len(_held))
    del _held[-SLICE:]  # from the end: nothing left over is shifted
    if not _held and _timer:
        _timer[0].stop()
        if _released[0] >= TRIM_AFTER:  # a workspace's worth: its pages are free now
            _released[0] = 0
            trim_heap()
