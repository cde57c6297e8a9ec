"""Set-up shared by the studio's helper processes (the scan, the render and check pool).

A helper runs at a lower priority, so that on a machine with few cores the window's thread wins the CPU,
and it ends itself when the studio is gone: after a crash (or a kill) nothing else would stop it, and
a helper blocked on its input queue would otherwise live on, holding the crashed app's output open.
"""

from __future__ import annotations

import contextlib
import os
import threading

PARENT_POLL_SECONDS = 1.0


def become_background_child() -> None:
    """Call first thing in a helper process."""
    with contextlib.suppress(AttributeError, OSError):  # no os.nice on Windows; the helper still works
        os.nice(10)
    end_with_parent()


def end_with_parent() -> None:
    """End this process when its parent is gone. Alone, for the scan's worker processes: forked from a helper, they
    already run at its priority (another ``nice`` would add up), but a thread does not survive a fork."""
    parent = os.getppid()
    threading.Thread(target=_exit_with_parent, args=(parent,), name="parent-watch", daemon=True).start()


def _exit_with_parent(parent: int) -> None:
    # Polling the parent's pid rather than asking the kernel for a death signal: Linux sends that signal
    # when the *thread* that started the child ends, and the studio starts helpers from pool threads that
    # come and go while the app runs.
    stop = threading.Event()
    while not stop.wait(PARENT_POLL_SECONDS):
        if not _alive(parent):
            os._exit(0)  # nothing to save: the helper's work was for a window that no longer exists


def _alive(pid: int) -> bool:
    if os.getppid() != pid:  # re-parented: the studio ended
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists, but another user's (cannot happen for our own parent; keep going)
        return True
    return True
