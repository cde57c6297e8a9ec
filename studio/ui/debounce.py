"""A call that waits for a burst to end: typing, a run of file-system events, a form being filled in."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer


def debounce_timer(parent: QObject, delay_ms: int, call: Callable[[], object]) -> QTimer:
    """A single-shot timer, owned by ``parent``, that calls ``call`` ``delay_ms`` after it is started.

    Each ``start()`` starts the wait again, so a burst of starts ends in one call, ``delay_ms`` after the last;
    ``stop()`` drops the pending call.
    """
    timer = QTimer(parent)
    timer.setSingleShot(True)
    timer.setInterval(delay_ms)
    timer.timeout.connect(call)
    return timer
