"""Whether the machine has a core to spare right now: the build and the ranking only split work when it does.

Splitting work over two threads or processes pays only with a second core free: on a machine whose cores are
busy it costs a little more CPU than one would (worker processes pass the text through a pipe; a ranking in two
halves counts the terms' rows twice), measured on the 1,000-pack corpus at a load of 2-2.5 on two cores: builds
no faster, the median query 25 -> 34 ms. The one-minute load average is the judge: it is cheap to read, and
the answer only decides how fast, never what, since both ways give the same index and the same results.
"""

from __future__ import annotations

import os


def spare_core() -> bool:
    """True when the load average leaves at least half a core free (always True where it cannot be read)."""
    cores = os.cpu_count() or 1
    if cores < 2:
        return False
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # no load average (Windows): assume the split helps
        return True
    return load <= cores - 0.5
