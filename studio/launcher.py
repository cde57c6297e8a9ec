"""The ``pack-studio`` entry point, standing above both faces: the desktop app or the command line.

With no arguments, or ``open PATH ...``, it starts the app (``studio.ui.launch``); anything else goes to the
CLI (``studio.cli``). Keeping the choice here lets the two faces stay independent: neither imports the other.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """Dispatch ``argv`` (default: the process arguments) and return the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["--version"]:  # answered before any import: scripts ask it to probe for the tool
        from studio import __version__

        print(f"pack-studio {__version__}")
        return 0
    if not args or args[0] == "open":
        from studio.ui.launch import main as open_app

        return open_app(args[1:])
    # No collection while the command's modules are imported (they build thousands of objects and no garbage:
    # the collector ran 20 times for nothing, 3 ms of a warm search); ``batch_gc.tune_for_batch`` turns it back on.
    import gc

    gc.disable()
    from studio.cli import main as run_cli

    return run_cli(args)


def gui() -> int:
    """The ``[project.gui-scripts]`` entry: always the desktop app (arguments are paths to open)."""
    return main(["open", *sys.argv[1:]])
