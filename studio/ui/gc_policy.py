"""Python's cycle collector runs on the window's thread only.

Left automatic, a collection starts in whichever thread happens to allocate past the threshold, often
a worker. A cycle that holds a Python-owned Qt object (a widget made without a parent, whose wrapper
sits in a reference cycle) is then destroyed in that worker, and destroying a widget outside the GUI
thread crashes the process. Instead, automatic collection is switched off and a timer on the GUI
thread collects the generations that are due, using the collector's own thresholds.
"""

from __future__ import annotations

import gc
import time

from PySide6.QtCore import QObject, QTimer

CHECK_MS = 50
"""How often the timer looks. A young collection walks every object made since the last one: while a 10,000-pack
workspace loads, 200 ms of unpickled packs took 20-22 ms to walk (measured), 50 ms of them a quarter of that."""
FULL_EVERY_S = 30.0
"""Python itself runs a full collection only once enough new long-lived objects have piled up (a rule its
C API keeps to itself); a full pass walks every object not frozen, tens of milliseconds while a large
workspace loads, so the timer allows one at most this often."""

_last_full = [0.0]
_full_held = [False]


def hold_full_collections(held: bool) -> None:
    """While ``held`` (a workspace is loading), collect the youngest generation only.

    Everything a scan loads is alive until the scan settles, when the window freezes it (``gc.freeze``); a full
    collection meanwhile walked every pack loaded so far for cycles they do not make: 50-100 ms at 10,000 packs.
    """
    _full_held[0] = held


def collect_on_gui_thread(owner: QObject) -> QTimer:
    """Switch automatic collection off and collect from a timer owned by ``owner`` (call on the GUI thread)."""
    gc.disable()
    _last_full[0] = time.monotonic()
    timer = QTimer(owner)
    timer.setInterval(CHECK_MS)
    timer.timeout.connect(collect_due)
    timer.start()
    return timer


def collect_due() -> int:
    """Collect the oldest generation whose count is past its threshold, as automatic collection would,
    but the oldest generation no more than once every ``FULL_EVERY_S``."""
    counts, thresholds = gc.get_count(), gc.get_threshold()
    due = -1
    for generation in range(3):
        if thresholds[generation] and counts[generation] > thresholds[generation]:
            due = generation
    if _full_held[0]:
        # While a scan loads, the youngest generation only: the middle one holds what ten young collections
        # kept (the packs loaded meanwhile, hundreds of thousands of objects) and took 50-80 ms every 2.4 s.
        due = min(due, 0)
    if due == 2:
        now = time.monotonic()
        if now - _last_full[0] < FULL_EVERY_S:
            due = 1
        else:
            _last_full[0] = now
    return gc.collect(due) if due >= 0 else 0
