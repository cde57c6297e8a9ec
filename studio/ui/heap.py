"""Give the C heap's free pages back to the system once a large workspace has been released.

Python hands every object over 512 bytes (file texts, frontmatter, row strings) to the C library's ``malloc``. When
a 10,000-pack workspace is released and the next one loads, glibc keeps the freed pages for later use; the new
workspace's objects land partly elsewhere, and the window's resident memory stayed 50-57 MiB higher after one
re-opening in two (measured with ``bench/bench_gui_stall.py --reopen 3``). ``malloc_trim`` returns those pages
(measured: 430 -> 382 MiB, in under a millisecond). Only glibc has it; elsewhere this does nothing.
"""

from __future__ import annotations

import ctypes
import sys
from collections.abc import Callable

_trim: list[Callable[[int], int] | None] = []


def _load() -> Callable[[int], int] | None:
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
    return function  # type: ignore[no-any-return]


def trim_heap() -> bool:
    """Return the C heap's free pages to the system; True when anything was returned."""
    if not _trim:
        _trim.append(_load())
    function = _trim[0]
    return bool(function(0)) if function is not None else False
