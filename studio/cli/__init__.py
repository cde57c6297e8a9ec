"""The command-line face of ``pack-studio`` (``studio.launcher`` sends ``open`` and no arguments to the app).

Each subcommand lives in its own module under ``studio.cli``, named after the command (``read-files`` is
``read_files.py``), and exposes ``register(subparsers) -> None``; the parser it adds carries
``func=run(args) -> int`` as a default. Modules are discovered, so adding a command never edits this file.

Only the named command's module is imported: scripts call ``pack-studio guide PACK`` once per pack, and the
whole CLI's imports (the core, YAML, the evals' ir-measures) would cost more than the work. The full parser, with
every command, is built only for top-level help and for a name that is not a command (argparse then lists them).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence
from typing import Any

from studio import __version__
from studio.cli._errors import UsageError
from studio.core.terminal import GuardedStream, printable


def command_names() -> list[str]:
    """Every command, from the module names alone (nothing is imported)."""
    return sorted(info.name.replace("_", "-") for info in pkgutil.iter_modules(__path__)
                  if not info.name.startswith("_"))


@functools.cache
def _help_width() -> int:
    """The terminal's width as ``shutil.get_terminal_size`` finds it ($COLUMNS, then standard output, else 80)."""
    with contextlib.suppress(ValueError):
        if (columns := int(os.environ.get("COLUMNS", "0"))) > 0:
            return columns
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns if sys.__stdout__ else 80
    except (AttributeError, ValueError, OSError):
        return 80


def _help_formatter(prog: str) -> argparse.HelpFormatter:
    return argparse.HelpFormatter(prog, width=_help_width())


class _Parser(argparse.ArgumentParser):
    """argparse's parser with the help width found once: left to itself, argparse asks ``shutil`` for it at each
    ``add_argument`` (to check the argument's metavar), and importing ``shutil`` with its archive modules cost a
    millisecond of every command, most of which print no help at all. Sub-parsers are of the same class."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _help_formatter)
        super().__init__(*args, **kwargs)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser with every command, or with just ``only`` (a name from ``command_names``)."""
    parser = _Parser(
        prog="pack-studio",
        description="Knowledge Pack Studio: author, validate and debug Agent Knowledge packs. "
        "With no command, opens the desktop app.",
    )
    parser.add_argument("--version", action="version", version=f"pack-studio {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in command_names() if only is None else [only]:
        module = importlib.import_module(f"{__name__}.{name.replace('-', '_')}")
        register = getattr(module, "register", None)
        if register is not None:
            register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the process exit code (0 ok, 1 findings, 2 usage error)."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    first = args_list[0] if args_list else ""
    parser = build_parser(first if first in command_names() else None)
    if not args_list:
        parser.print_help()
        return 2
    try:
        args = parser.parse_args(args_list)
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 on --help
        return int(exc.code or 0)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    _utf8_streams()
    from studio.core.batch_gc import tune_for_batch

    tune_for_batch()  # a command is one batch: after its imports, collect garbage rarely (see batch_gc)
    stdout, stderr = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = GuardedStream(stdout), GuardedStream(stderr)  # a TextIO in all but name
    try:
        return int(func(args))
    except BrokenPipeError:
        # `pack-studio runs PACK | head` closes the pipe early; that is not an error worth a traceback.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        return 130
    except UsageError as exc:  # an unknown pack name, a broken pins file: say so, no traceback
        sys.stderr.write(f"pack-studio {args.command}: {printable(str(exc))}\n")
        return 2
    finally:
        sys.stdout, sys.stderr = stdout, stderr


def _utf8_streams() -> None:
    """Pack text is often Chinese; a console in a legacy code page must not make printing fail.

    Output is UTF-8 in every case. Printers escape pack text themselves (``studio.core.terminal``) and JSON is
    strict (``studio.core.jsonwrite``); ``backslashreplace`` is the last resort for anything that slipped
    through (a lone surrogate from a non-UTF-8 argument prints as ``\\udce9`` instead of crashing).
    """
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(encoding="utf-8", errors="backslashreplace")
