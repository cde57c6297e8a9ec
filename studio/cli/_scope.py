"""Shared command-line arguments that say where to look for packs, turned into ``WorkspaceOptions``.

Without a PATH the command behaves like the app: project = the current directory, user = the home
directory, plus the built-in examples. With PATHs it reads only those paths and the scope roots
named on the command line, so ``pack-studio validate some/dir`` never wanders into the real home.

Pins (``studio.core.pins``) choose the winner among same-name copies in one scope: read from
``<project>/.pack-studio/workspace.json`` when a project is in play, or from ``--pins FILE`` instead, and
``--pin NAME=PATH`` adds or overrides one. Commands that take one PACK (``guide``, ``fence``, ``runs``,
``resolve``, ``eval``, ``evidence``) accept a pack name too, found through the same scopes (``pack_argument``).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from studio.cli._errors import UsageError
from studio.core.paths import user_home
from studio.core.result_cache import CacheSpec, spec_for
from studio.core.workspace import ScanLimits, WorkspaceOptions

if TYPE_CHECKING:  # loading packs and pins is imported where used: a warm search needs neither (see workspace)
    from studio.core.model import Pack
    from studio.core.workspace import Workspace

MAX_NAMES_LISTED = 30


def _count(minimum: int) -> Callable[[str], int]:
    """An argparse type for whole numbers not below ``minimum`` (a bad value is a usage error)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}")
        return value

    return parse


def add_scope_arguments(parser: argparse.ArgumentParser) -> None:
    """Add PATH... and the scope/limit options to a subcommand's parser."""
    parser.add_argument("paths", nargs="*", type=Path, metavar="PATH",
                        help="a pack directory, or a folder to scan for packs")
    add_scope_options(parser)


def add_pack_options(parser: argparse.ArgumentParser) -> None:
    """PACK (a pack directory, or a pack name looked up in the scopes: ``pack_argument``) and the options that say
    where to look it up."""
    parser.add_argument("pack", type=Path, metavar="PACK", help="pack directory, or the name of a pack in the scopes")
    add_scope_options(parser, for_names=True)


def add_scope_options(parser: argparse.ArgumentParser, *, for_names: bool = False) -> None:
    """Add the scope, pin and limit options (no PATH); ``for_names`` words the help for finding a PACK by name."""
    defaults = ScanLimits()
    where = parser.add_argument_group("where to look for a pack given by name" if for_names else "where to look")
    where.add_argument("--project", type=Path, metavar="DIR",
                       help="project directory (scans DIR/.agents/knowledge; default: the current "
                       "directory when no PATH is given)")
    where.add_argument("--home", type=Path, metavar="DIR",
                       help="home directory for user packs (default: your home when no PATH is given)")
    where.add_argument("--org", type=Path, action="append", default=[], metavar="DIR",
                       help="organization pack root (repeatable)")
    builtin = where.add_mutually_exclusive_group()
    builtin.add_argument("--builtin", dest="builtin", action="store_const", const=True, default=None,
                         help="include the bundled example packs (default only when no PATH is given)")
    builtin.add_argument("--no-builtin", dest="builtin", action="store_const", const=False,
                         help="leave out the bundled example packs")
    where.add_argument("--untrusted-project", action="store_true",
                       help="treat project packs as untrusted: they need confirmation before use")
    pins = parser.add_argument_group("which copy wins among same-name packs in one scope")
    pins.add_argument("--pin", action="append", default=[], metavar="NAME=PATH",
                      help="the copy at PATH wins for NAME within its scope (repeatable; overrides the pins file)")
    pins.add_argument("--pins", type=Path, metavar="FILE",
                      help="read pins from FILE instead of <project>/.pack-studio/workspace.json")
    limits = parser.add_argument_group("scan limits")
    limits.add_argument("--max-depth", type=_count(0), default=defaults.max_depth, metavar="N",
                        help=f"folders below each root to descend (default {defaults.max_depth})")
    limits.add_argument("--max-dirs", type=_count(1), default=defaults.max_dirs, metavar="N",
                        help=f"folders to list per root before stopping (default {defaults.max_dirs})")
    limits.add_argument("--no-gitignore", action="store_true", help="scan folders that .gitignore excludes")
    add_cache_option(parser)


def add_cache_option(parser: argparse.ArgumentParser) -> None:
    """``--no-cache``: load every pack afresh, neither reading nor writing the result cache."""
    parser.add_argument("--no-cache", action="store_true",
                        help="do not use the result cache (unchanged packs are otherwise taken from "
                             "$XDG_CACHE_HOME/knowledge-pack-studio; see 'pack-studio cache --info')")


def cache_from_args(args: argparse.Namespace) -> CacheSpec | None:
    """The result cache this run uses, or None with ``--no-cache``."""
    return None if getattr(args, "no_cache", False) else spec_for()


def options_from_args(args: argparse.Namespace, *, pins: bool = True) -> WorkspaceOptions:
    """Workspace options for the parsed arguments (see the module docstring for the defaults). ``pins=False``
    for a command that never settles a collision (``search`` lists every copy): the pins file is not read."""
    paths: list[Path] = list(getattr(args, "paths", None) or [])
    project: Path | None = getattr(args, "project", None)
    home: Path | None = getattr(args, "home", None)
    builtin: bool | None = getattr(args, "builtin", None)
    if not paths:
        project = project or Path.cwd()
        home = home or user_home()
        builtin = True if builtin is None else builtin
    defaults = ScanLimits()
    return WorkspaceOptions(
        explicit=paths,
        project=project,
        home=home,
        org_roots=list(getattr(args, "org", None) or []),
        builtin=bool(builtin),
        limits=ScanLimits(
            max_depth=getattr(args, "max_depth", defaults.max_depth),
            max_dirs=getattr(args, "max_dirs", defaults.max_dirs),
            honor_gitignore=not getattr(args, "no_gitignore", False),
        ),
        trusted_project=not getattr(args, "untrusted_project", False),
        pins=pins_from_args(args, project, paths) if pins else {},
        cache=cache_from_args(args),
    )


def pins_from_args(args: argparse.Namespace, project: Path | None, paths: Sequence[Path] = ()) -> dict[str, Path]:
    """The pins file's pins (``--pins FILE``, else the workspace's: the project's, else the first PATH's, as the
    app stores them), then each ``--pin``. Raises UsageError."""
    from studio.core.pins import PinsError, parse_pin_option, read_pins_file, workspace_pins_file

    file: Path | None = getattr(args, "pins", None)
    try:
        if file is not None and not file.is_file():
            raise UsageError(f"--pins: {file} is not a file")
        source = file if file is not None else workspace_pins_file(project, [p for p in paths if p.is_dir()][:1])
        pins = read_pins_file(source) if source is not None else {}
        for text in getattr(args, "pin", None) or []:
            name, root = parse_pin_option(text)
            pins[name] = root
    except PinsError as exc:
        raise UsageError(f"pins: {exc}") from None
    return pins


def pack_argument(value: Path, args: argparse.Namespace) -> Pack:
    """The pack a PACK argument means: an existing path as given, else a pack *name* found in the scopes.

    A name is looked up like ``validate`` without PATH: the project (``--project``, default the current
    folder), the user's home and the built-in examples, with pins; the copy a client would use wins. Raises
    UsageError naming the packs available when nothing matches.
    """
    return pack_arguments([value], args)[0]


def pack_folder_argument(value: Path, args: argparse.Namespace) -> Pack:
    """``pack_argument``, for a command that reads the pack's folder: a PACK that is not a directory (a file, a
    path that does not exist) raises UsageError."""
    pack = pack_argument(value, args)
    if not pack.root.is_dir():
        raise UsageError(f"{value} is not a directory")
    return pack


def pack_arguments(values: list[Path], args: argparse.Namespace) -> list[Pack]:
    """``pack_argument`` for each value; the scopes are scanned at most once, and only if a name is given."""
    from studio.core.pack import load_pack
    from studio.core.workspace import open_workspace

    workspace: Workspace | None = None
    out: list[Pack] = []
    for value in values:
        if _is_path(value):
            out.append(load_pack(value))
            continue
        if workspace is None:
            scope_args = argparse.Namespace(**{k: v for k, v in vars(args).items() if k != "paths"})
            workspace = open_workspace(options_from_args(scope_args))
        pack = workspace.find(str(value))
        if pack is None:
            raise UsageError(_unknown_name(str(value), workspace))
        out.append(pack)
    return out


def _is_path(value: Path) -> bool:
    """An argument that names a file-system location: it exists, or it is written as a path (``a/b``, ``.``)."""
    text = str(value)
    return value.exists() or value.is_symlink() or "/" in text or "\\" in text or text in (".", "..")


def _unknown_name(name: str, workspace: Workspace) -> str:
    names = sorted({p.name for p in workspace.packs})
    listed = ", ".join(names[:MAX_NAMES_LISTED]) + (f" and {len(names) - MAX_NAMES_LISTED} more"
                                                    if len(names) > MAX_NAMES_LISTED else "")
    searched = ", ".join(str(loc.path) for loc in workspace.locations if loc.exists) or "none exists"
    return (f"{name}: no such folder, and no pack of that name in the scopes searched ({searched}). "
            f"Packs available: {listed or 'none'}")


