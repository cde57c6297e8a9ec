"""Helper processes end with the studio, even when it dies without closing its window."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

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
