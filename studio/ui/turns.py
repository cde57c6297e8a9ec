"""Split GUI-thread work over turns of the event loop so that timers still run in between."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer

YIELD_MS = 1


def next_turn(context: QObject, fn: Callable[[], None], after_ms: int = YIELD_MS) -> None:
    """Call ``fn`` on a later turn of the event loop (dropped if ``context`` is deleted first).

    Not ``QTimer.singleShot(0, ...)``: Qt 6 posts a zero-delay call as an event, and posted events go
    before timers (with the glib dispatcher, timers even wait until no event is pending). A chain of
    zero-delay slices therefore holds every timer (blinking cursors, debounces, animations) until the
    whole chain is done, however small each slice is. A 1 ms timer lets the timers due meanwhile run
    between slices.

    ``after_ms``: wait longer than that, for a chore that should leave the window idle between slices.
    """
    QTimer.singleShot(max(YIELD_MS, after_ms), context, fn)

