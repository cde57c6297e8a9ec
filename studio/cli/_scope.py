"""Shared command-line arguments that say where to look for packs, turned into ``WorkspaceOptions``.

Without a PATH the command behaves like the app: project = the current directory, user = the home
directory, plus the built-in examples. With PATHs it reads only those paths and the scope roots
named on the command line, so ``pack-studio validate some/dir`` never wanders into the real home.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from studio.core.workspace import ScanLimits, WorkspaceOptions


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
    defaults = ScanLimits()
    parser.add_argument("paths", nargs="*", type=Path, metavar="PATH",
                        help="a pack directory, or a folder to scan for packs")
    where = parser.add_argument_group("where to look")
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
    limits = parser.add_argument_group("scan limits")
    limits.add_argument("--max-depth", type=_count(0), default=defaults.max_depth, metavar="N",
                        help=f"folders below each root to descend (default {defaults.max_depth})")
    limits.add_argument("--max-dirs", type=_count(1), default=defaults.max_dirs, metavar="N",
                        help=f"folders to list per root before stopping (default {defaults.max_dirs})")
    limits.add_argument("--no-gitignore", action="store_true", help="scan folders that .gitignore excludes")


def options_from_args(args: argparse.Namespace) -> WorkspaceOptions:
    """Workspace options for the parsed arguments (see the module docstring for the defaults)."""
    paths: list[Path] = list(getattr(args, "paths", None) or [])
    project: Path | None = getattr(args, "project", None)
    home: Path | None = getattr(args, "home", None)
    builtin: bool | None = getattr(args, "builtin", None)
    if not paths:
        project = project or Path.cwd()
        home = home or _home()
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
    )


def _home() -> Path | None:
    try:
        return Path.home()
    except RuntimeError:  # no HOME and no passwd entry (some containers): skip the user scope
        return None
