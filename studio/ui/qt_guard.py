"""Protection against a PySide6 binding bug that kills the app with "none_dealloc: deallocating None".

PySide6-Essentials 6.12.0 on Python 3.11 drops a reference to ``None`` on every call of a method that
returns nothing (``QPainter.save``, ``QWidget.update`` ...). After a few thousand calls ``None``'s count
reaches zero and CPython aborts. Python 3.12+ is safe (``None`` is immortal there) and 6.11 is not
affected. We probe for the bug at start-up and, only when it is present, give ``None`` a reference
count so large that the leak can never reach zero: the same thing Python 3.12 does for every build.
"""

from __future__ import annotations

import ctypes
import sys

_HEADROOM = 1 << 40


def void_calls_leak_none() -> bool:
    """True when calling a void Qt method lowers ``None``'s reference count (the binding bug)."""
    from PySide6.QtCore import QByteArray

    probe = QByteArray(b"x")
    before = sys.getrefcount(None)
    for _ in range(32):
        probe.clear()
    return sys.getrefcount(None) < before - 16


def protect_none() -> bool:
    """Apply the protection when the bug is present; returns whether it was applied."""
    if sys.version_info >= (3, 12) or sys.implementation.name != "cpython" or not void_calls_leak_none():
        return False
    # ob_refcnt is the first field of every CPython object header.
    ctypes.c_ssize_t.from_address(id(None)).value += _HEADROOM
    return True
