"""``pack-studio open [PATH ...]``: check that a window can be shown, then start the desktop app.

Imports no Qt at module level: a missing PySide6 or a missing display must give a message, not a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

# Qt's X11 plugin aborts the process (no exception to catch) when these libraries are missing; minimal
# Debian/Ubuntu installs and Xvfb-only machines often lack them.
XCB_LIBRARIES = ("xcb-cursor", "xcb-icccm", "xcb-image", "xcb-keysyms", "xcb-randr", "xcb-render-util",
                 "xcb-shape", "xcb-xkb", "xkbcommon-x11")
XCB_PACKAGES = ("libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-randr0 libxcb-render-util0 "
                "libxcb-shape0 libxcb-xkb1 libxkbcommon-x11-0")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pack-studio open",
        description="Open the desktop app. With no PATH it reopens the last workspace, or the bundled examples.",
    )
    parser.add_argument("paths", nargs="*", type=Path, metavar="PATH", help="a pack or a folder of packs")
    parser.add_argument("--project", type=Path, help="project directory whose .agents/knowledge is scanned")
    parser.add_argument("--home", type=Path, help="home directory for the user scope")
    return parser


def display_problem() -> str | None:
    """Why no window can be shown here, or None when a display (or an explicit Qt platform) is available."""
    if os.environ.get("QT_QPA_PLATFORM"):
        return None
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return ("no display found (DISPLAY and WAYLAND_DISPLAY are unset). Run it in a desktop session, "
                "under xvfb-run, or use the command-line tools: pack-studio validate PATH")
    if sys.platform.startswith("linux") and not os.environ.get("WAYLAND_DISPLAY"):
        missing = missing_xcb_libraries()
        if missing:
            return (f"Qt's X11 support needs libraries that are not installed ({', '.join(missing)}). "
                    f"On Debian/Ubuntu: sudo apt-get install {XCB_PACKAGES}")
    return None


def missing_xcb_libraries() -> list[str]:
    from ctypes.util import find_library

    return [name for name in XCB_LIBRARIES if find_library(name) is None]


def main(argv: Sequence[str]) -> int:
    """Parse ``open``'s arguments and run the app; 2 when it cannot start here."""
    try:
        args = build_parser().parse_args(list(argv))
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 on --help
        return int(exc.code or 0)
    problem = display_problem()
    if problem:
        print(f"pack-studio: cannot open the desktop app: {problem}", file=sys.stderr)
        return 2
    try:
        from studio.ui.app import run_gui
    except ImportError as exc:
        print(f"pack-studio: the desktop app needs PySide6 ({exc}). Install it with: "
              "pip install 'knowledge-pack-studio[gui]'", file=sys.stderr)
        return 2
    return run_gui(list(args.paths), project=args.project, home=args.home)
