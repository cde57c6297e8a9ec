"""``pack-studio open [PATH ...]``: check that a window can be shown, then start the desktop app.

Imports no Qt at module level: a missing PySide6 or a missing display must give a message, not a traceback.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import sys
import threading
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


# How long an X server may take to accept the connection: a DISPLAY naming a remote host that drops packets
# would otherwise hold the start for the TCP time-out (minutes).
X_CONNECT_TIMEOUT = 5.0

# xcb_connection_has_error's codes (xcb.h), in words a user can act on.
_XCB_ERRORS = {
    1: "no X server answers there, or it refused this client; check DISPLAY, and XAUTHORITY for its cookie",
    2: "the X server lacks an extension the connection needs",
    3: "not enough memory to connect",
    4: "a request was too long for the X server",
    5: "DISPLAY is not a valid display name",
    6: "the X server has no such screen",
    7: "passing file descriptors to the X server failed",
}


def display_problem() -> str | None:
    """Why no window can be shown here, or None when a display (or an explicit Qt platform) is available.

    When Qt would use X11 (``DISPLAY`` set and no Wayland, or ``QT_QPA_PLATFORM=xcb``) the X server is asked for
    a connection first, through libxcb and without Qt: Qt's X11 plugin aborts the process (status 134, no
    exception to catch, often with a misleading message about xcb-cursor) when the server is unreachable or
    refuses the client.
    """
    platform = os.environ.get("QT_QPA_PLATFORM", "")
    if platform and platform.split(":", 1)[0] != "xcb":
        return None
    linux = sys.platform.startswith("linux")
    if linux and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return ("no display found (DISPLAY and WAYLAND_DISPLAY are unset). Run it in a desktop session, "
                "under xvfb-run, or use the command-line tools: pack-studio validate PATH")
    if linux and (platform or not os.environ.get("WAYLAND_DISPLAY")):
        unreachable = x_connection_problem()
        if unreachable:
            return (f"cannot connect to the X display {os.environ.get('DISPLAY', '')} ({unreachable}). "
                    "Use the command-line tools instead: pack-studio validate PATH")
        missing = missing_xcb_libraries()
        if missing:
            return (f"Qt's X11 support needs libraries that are not installed ({', '.join(missing)}). "
                    f"On Debian/Ubuntu: sudo apt-get install {XCB_PACKAGES}")
    return None


def x_connection_problem(timeout: float = X_CONNECT_TIMEOUT) -> str | None:
    """Why the X server named by ``DISPLAY`` cannot be reached, or None when it accepts a connection or libxcb
    cannot be loaded (then Qt's own start decides, as before)."""
    try:
        xcb = ctypes.CDLL("libxcb.so.1")
        xcb.xcb_connect.restype = ctypes.c_void_p
        xcb.xcb_connect.argtypes = (ctypes.c_char_p, ctypes.c_void_p)
        xcb.xcb_connection_has_error.restype = ctypes.c_int
        xcb.xcb_connection_has_error.argtypes = (ctypes.c_void_p,)
        xcb.xcb_disconnect.restype = None
        xcb.xcb_disconnect.argtypes = (ctypes.c_void_p,)
    except (OSError, AttributeError):
        return None
    outcome: list[int] = []

    def connect() -> None:
        # NULL display name: libxcb reads DISPLAY (and XAUTHORITY) itself, exactly as Qt's plugin will.
        connection = xcb.xcb_connect(None, None)
        outcome.append(xcb.xcb_connection_has_error(connection) if connection else 3)
        if connection:
            xcb.xcb_disconnect(connection)

    # A daemon thread (ctypes releases the GIL): a server that never answers cannot hold the process.
    worker = threading.Thread(target=connect, name="x-probe", daemon=True)
    worker.start()
    worker.join(timeout)
    if not outcome:
        return f"the X server did not answer within {timeout:g} s"
    code = outcome[0]
    return None if code == 0 else _XCB_ERRORS.get(code, f"libxcb error {code}")


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
    from studio.core.first_use import prepare_in_background
    from studio.core.tokens import DEFAULT_ENCODING

    # While the window's modules load (a second or more): see studio.core.first_use for why before the window.
    prepared = prepare_in_background([DEFAULT_ENCODING])
    try:
        from studio.ui.app import run_gui
    except ImportError as exc:
        print(f"pack-studio: the desktop app needs PySide6 ({exc}). Install it with: "
              "pip install 'knowledge-pack-studio[gui]'", file=sys.stderr)
        return 2
    return run_gui(list(args.paths), project=args.project, home=args.home, prepared=prepared)
