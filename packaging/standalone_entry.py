"""Entry script of the standalone bundle (PyInstaller): the same launcher as the ``pack-studio`` command.

``freeze_support`` must run first: the app starts its scan and preview workers as spawned child processes, and in
a frozen bundle each child is this executable again, told by multiprocessing's arguments to run the child's work.
"""

from __future__ import annotations

import multiprocessing
import sys

if __name__ == "__main__":
    multiprocessing.freeze_support()
    from studio.launcher import main

    sys.exit(main())
