"""Listing the files of a pack for Quick Open: names only, bounded, never leaving the pack root.

Listing reads directory entries, never a file's contents, and never follows a symlink out of the pack root
(symlinked folders are not entered at all).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from studio.core.model import Pack
from studio.core.pack_fs import LinkState, PackFS

MAX_FILES_PER_PACK = 2000
"""Files listed per pack; a pack with more is marked truncated (a runaway folder must not swamp the index)."""
MAX_DEPTH = 8
"""Folder levels below a pack root that are listed."""
SKIPPED_DIRS = frozenset({"node_modules", "__pycache__"})
"""Folders never listed (besides every dot-folder, such as ``.git``): tool output, not knowledge."""


@dataclass(frozen=True, slots=True)
class PackListing:
    """What the index needs of one pack: its root, its name and its files' relative paths."""

    root: Path
    name: str
    files: list[str]
    """``/``-separated paths relative to the root (see ``list_files``)."""
    truncated: bool = False
    """True when the pack holds more than ``MAX_FILES_PER_PACK`` files and only the first were listed."""


def list_files(root: Path, limit: int = MAX_FILES_PER_PACK) -> tuple[list[str], bool]:
    """The files under ``root`` as sorted ``/``-separated relative paths, and whether ``limit`` cut the list.

    Names only: nothing is opened or read. Dot-names and ``SKIPPED_DIRS`` are left out; a symlinked folder
    is never entered (it could loop or lead anywhere); a symlinked file is listed only when it stays inside
    the root and ends at a regular file; FIFOs, sockets and devices are left out.
    """
    with PackFS(root) as fs:  # one bounded walk by descriptor: a folder swapped for a link is never entered
        tree = fs.walk(max_depth=MAX_DEPTH, max_entries=max(limit * 4, 10_000), enter=_enter)
    states = {link.rel: link.state for link in tree.links}
    out: list[str] = []
    for entry in tree.files:
        if entry.rel.rsplit("/", 1)[-1].startswith("."):
            continue
        if not entry.is_regular and states.get(entry.rel) is not LinkState.FILE:
            continue  # FIFOs, sockets, devices; links out of the pack, to folders or nowhere
        if len(out) >= limit:
            out.sort()
            return out, True
        out.append(entry.rel)
    out.sort()
    return out, tree.stopped_at is not None


def _enter(_rel: str, name: str) -> bool:
    return not name.startswith(".") and name not in SKIPPED_DIRS


def list_pack(pack: Pack) -> PackListing:
    """The pack's name and files (see ``list_files`` for what is listed)."""
    files, truncated = list_files(pack.root)
    return PackListing(pack.root, pack.name, files, truncated)


def list_packs(packs: Iterable[Pack], cancelled: Callable[[], bool] | None = None) -> list[PackListing]:
    """``list_pack`` for each pack, stopping early (with what is done so far) once ``cancelled()`` is true."""
    out: list[PackListing] = []
    for pack in packs:
        if cancelled is not None and cancelled():
            break
        out.append(list_pack(pack))
    return out
