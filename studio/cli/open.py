"""``pack-studio open [PATH ...]``: start the desktop app (the default when no command is given)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "open", help="open the desktop app on packs or folders of packs",
        description="Open the desktop app. With no PATH it reopens the last workspace, or the bundled examples.",
    )
    parser.add_argument("paths", nargs="*", type=Path, metavar="PATH", help="a pack or a folder of packs")
    parser.add_argument("--project", type=Path, help="project directory whose .agents/knowledge is scanned")
    parser.add_argument("--home", type=Path, help="home directory for the user scope")
    parser.set_defaults(func=run)


def display_problem() -> str | None:
    """Why no window can be shown here, or None when a display (or an explicit Qt platform) is available."""
    if os.environ.get("QT_QPA_PLATFORM"):
        return None
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return ("no display found (DISPLAY and WAYLAND_DISPLAY are unset). Run it in a desktop session, "
                "under xvfb-run, or use the command-line tools: pack-studio validate PATH")
    return None


def run(args: argparse.Namespace) -> int:
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
