"""Helper processes end with the studio, even when it dies without closing its window."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from studio.ui.background_child import NICER_BY, lower_priority

CRASHING_APP = """
import os
from studio.ui import child_pool
print(child_pool.run_in_child(os.getpid), flush=True)  # the helper's pid, from the helper itself
os._exit(3)  # a crash: no shutdown, no atexit handlers
"""


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in state  # a zombie has ended; only its exit status waits to be collected


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads process states from /proc")
def test_the_render_helper_ends_when_the_app_crashes() -> None:
    app = subprocess.run([sys.executable, "-c", CRASHING_APP], capture_output=True, text=True, timeout=60,
                         cwd=Path(__file__).resolve().parents[2])
    assert app.returncode == 3, app.stderr
    helper = int(app.stdout.strip())
    assert helper != os.getpid()
    deadline = time.monotonic() + 15
    while _running(helper) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _running(helper), f"helper {helper} outlived the crashed app"


def test_a_helper_is_lowered_once_below_the_window_however_often_asked() -> None:
    helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        mine = os.getpriority(os.PRIO_PROCESS, 0)
        lower_priority(helper.pid, os.getpid())  # the parent, right after starting it
        lower_priority(helper.pid, os.getpid())  # the helper itself, when it starts (become_background_child)
        assert os.getpriority(os.PRIO_PROCESS, helper.pid) == min(19, mine + NICER_BY)
        assert os.getpriority(os.PRIO_PROCESS, 0) == mine  # the window keeps its own
    finally:
        helper.kill()
        helper.wait()
