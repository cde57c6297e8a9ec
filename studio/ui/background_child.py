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


NICER_BY = 10
"""How much lower a helper's priority is than the window's."""


def become_background_child() -> None:
    """Call first thing in a helper process."""
    lower_priority(os.getpid(), os.getppid())
    end_with_parent()


def lower_priority(pid: int, parent: int) -> None:
    """Give process ``pid`` a priority ``NICER_BY`` below ``parent``'s; doing it twice changes nothing.

    The parent may do it to a helper it just started, before the helper's imports (a third of a second of CPU
    that would otherwise compete with the window at full priority); the helper does it again when it starts.
    """
    with contextlib.suppress(AttributeError, OSError):  # no getpriority on Windows; the helper still works
        wanted = min(19, os.getpriority(os.PRIO_PROCESS, parent) + NICER_BY)
        if os.getpriority(os.PRIO_PROCESS, pid) < wanted:
            os.setpriority(os.PRIO_PROCESS, pid, wanted)


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
