"""The window's memory policy, in one place: when Python's cycle collector runs, and when the C heap is trimmed.

Cycle collection runs on the window's thread only. Left automatic, a collection starts in whichever thread happens
to allocate past the threshold, often a worker. A cycle that holds a Python-owned Qt object (a widget made without a
parent, whose wrapper sits in a reference cycle) is then destroyed in that worker, and destroying a widget outside
the GUI thread crashes the process. Instead, automatic collection is switched off and a timer on the GUI thread
collects the generations that are due, using the collector's own thresholds.

Long-lived objects are kept out of the collector's full passes (``gc.freeze``): the modules once the app starts, a
workspace once its scan settles. While a workspace loads, only the youngest generation is collected.

When a large workspace has been released, the C heap's free pages go back to the system (``trim_heap``).

The window tells this module what happens (``manage_memory``, ``workspace_closing``, ``workspace_loaded``,
``loading_ended``, ``released``, and from the scan's worker thread ``packs_decoded``); no other module calls ``gc``
or the C heap.
"""

from __future__ import annotations

import ctypes
import gc
import sys
import time
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer

CHECK_MS = 50
"""How often the timer looks. A young collection walks every object made since the last one: while a 10,000-pack
workspace loads, 200 ms of unpickled packs took 20-22 ms to walk (measured), 50 ms of them a quarter of that."""
FULL_EVERY_S = 30.0
"""Python itself runs a full collection only once enough new long-lived objects have piled up (a rule its
C API keeps to itself); a full pass walks every object not frozen, tens of milliseconds while a large
workspace loads, so the timer allows one at most this often."""
UNFREEZE_LIMIT = 2000
"""Up to this many packs, a closed workspace is handed back to the cycle collector (see ``workspace_closing``)."""
TRIM_AFTER = 5000
"""Once this many objects have been released (``let_go``), the C heap's free pages go back to the system."""

_last_full = [0.0]
_full_held = [False]
_released = [0]
_trim: list[Callable[[int], int] | None] = []


# -- what the window tells -----------------------------------------------------------------------------------------
def manage_memory(app: QObject) -> None:
    """The app is starting (call on the GUI thread, again as often as wanted: tests and benchmarks do).

    Modules imported by now live as long as the process: they are kept out of the cyclic collector's full passes,
    whose first one otherwise walks all of them (30-40 ms with every thread stopped) just as the window opens its
    first workspace. Collection then runs from a timer owned by ``app`` (once).
    """
    gc.freeze()
    if app.property("studio-gc") is None:
        app.setProperty("studio-gc", True)
        collect_on_gui_thread(app)


def workspace_closing(packs: int, first: bool) -> None:
    """A scan starts, replacing a workspace of ``packs`` packs (``first``: none was open yet).

    Until the new one is loaded (``workspace_loaded``) or the scan ends otherwise (``loading_ended``), only the
    youngest generation is collected. A small closed workspace is handed back to the collector, its cycles (if
    any) may now be collected. Not a large one: a full collection would then walk all of it (hundreds of
    milliseconds at 10,000 packs) to find cycles packs do not make; reference counting frees it all the same.
    """
    hold_full_collections(True)
    if not first and packs <= UNFREEZE_LIMIT:
        gc.unfreeze()


def workspace_loaded() -> None:
    """The scan settled: the loaded workspace lives as long as the window. It is kept out of the cyclic collector's
    full passes, which otherwise hold the interpreter lock for tens of milliseconds at a time."""
    gc.freeze()
    hold_full_collections(False)


def packs_decoded() -> None:
    """A batch of packs was just unpickled while a workspace loads (the result cache's packs of a warm opening, in
    the scan's worker thread): they live as long as the workspace, so they are kept out of the collector now.

    The timer's young collection otherwise walked every object unpickled since the last one: the cached packs of
    10,000 come in a burst of a few hundred milliseconds, and one such walk took 19 ms of a window turn. Freezing
    moves them aside without walking them, and frees nothing, so any thread may do it; garbage made meanwhile is
    kept as ``workspace_loaded`` keeps it.
    """
    if _full_held[0]:
        gc.freeze()


def loading_ended() -> None:
    """The scan ended (settled, cancelled or failed): full collections may run again."""
    hold_full_collections(False)


def released(count: int) -> None:
    """``count`` objects were freed and nothing more waits to be (``let_go``): once a workspace's worth has been,
    its pages are free, and go back to the system."""
    _released[0] += count
    if _released[0] >= TRIM_AFTER:
        _released[0] = 0
        trim_heap()


# -- the collector -------------------------------------------------------------------------------------------------
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


# -- the C heap ----------------------------------------------------------------------------------------------------
# Python hands every object over 512 bytes (file texts, frontmatter, row strings) to the C library's ``malloc``.
# When a 10,000-pack workspace is released and the next one loads, glibc keeps the freed pages for later use; the
# new workspace's objects land partly elsewhere, and the window's resident memory stayed 50-57 MiB higher after one
# re-opening in two (measured with ``bench/bench_gui_stall.py --reopen 3``). ``malloc_trim`` returns those pages
# (measured: 430 -> 382 MiB, in under a millisecond). Only glibc has it; elsewhere this does nothing.
def _load_trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        # The C library already loaded in this process (``find_library`` would start ``ldconfig`` for it, a
        # subprocess on the window's thread).
        function = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # musl and others have no malloc_trim
        return None
    function.argtypes = [ctypes.c_size_t]
    function.restype = ctypes.c_int
    trim: Callable[[int], int] = function
    return trim


def trim_heap() -> bool:
    """Return the C heap's free pages to the system; True when anything was returned."""
    if not _trim:
        _trim.append(_load_trim())
    function = _trim[0]
    return bool(function(0)) if function is not None else False
