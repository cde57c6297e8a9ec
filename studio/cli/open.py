"""``pack-studio open``: listed here so that ``pack-studio --help`` shows it; the launcher starts the app.

``studio.launcher`` sends ``open`` (and no arguments at all) to ``studio.ui.launch`` before the CLI parses
anything, so the CLI never imports the GUI.
"""

from __future__ import annotations

import argparse
import sys


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "open", help="open the desktop app on packs or folders of packs (the default with no command)",
        description="Open the desktop app. With no PATH it reopens the last workspace, or the bundled examples.",
        add_help=False,
    )
    parser.add_argument("rest", nargs=argparse.REMAINDER)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    print("pack-studio: the desktop app is started by the pack-studio command itself "
          "(studio.launcher), not by studio.cli.main", file=sys.stderr)
    return 2
