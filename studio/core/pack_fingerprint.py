"""What a pack's load result depends on, as a few bytes: equal fingerprints mean an equal result.

Loading a pack is a pure function of the pack's files (and of the studio itself, which the result cache keys
separately). While a pack loads, ``pack_fs.recording`` notes every question its checks ask; the fingerprint
covers exactly that:

- **the tree**, when the checks walked the pack (the content tier always does): the same bounded walk, every
  entry with its ``lstat`` identity (mode, size, mtime and ctime in nanoseconds, inode), every folder entered,
  every symlink with its target, and the root's own listing (the layout checks read its folder names);
  otherwise the root's listing alone;
- **the extras**: each path a check asked about that the walk does not fingerprint as a regular file (a path
  named in the guide that does not exist, a file reached through a symlink, ``KNOWLEDGE.md`` when it is a link),
  with what it resolves to now and that target's identity.

ctime is what makes this sound: a write, a rename or a symlink swap changes it, and unlike mtime nobody can set it
back. The one blind spot of any timestamp scheme is a change within the clock's granularity of the moment it was
looked at; a fingerprint holding a ctime younger than the load's start (less ``racy_ns``) is therefore never
stored (git calls such index entries racily clean). A load that walked somewhere the fingerprint walk does not
reach (a folder the checks' walk skips) is not stored either: the cache never vouches for what it cannot check.
"""

from __future__ import annotations

import marshal
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.core.blake2 import blake2b
from studio.core.checks._context import is_walk_for_checks, walk_for_checks
from studio.core.pack_fs import AccessLog, PackFS, PackTree
from studio.core.result_cache import Fingerprint

KNOWLEDGE = "KNOWLEDGE.md"  # read by path before any check runs, so it is always among the extras
_WALKED, _LISTED = b"W", b"L"


@dataclass(frozen=True, slots=True)
class Printed:
    """A fingerprint as a load left it, with what the racy check needs."""

    fingerprint: Fingerprint
    newest_ns: int
    """The latest ctime among everything fingerprinted."""


def after_load(root: Path, log: AccessLog) -> Printed | None:
    """The fingerprint of what the load recorded in ``log``, or None when the cache cannot vouch for it."""
    tree: PackTree | None = None
    others: list[PackTree] = []
    for top, depth, entries, enter, result in log.walks:
        if tree is None and is_walk_for_checks(top, depth, entries, enter):
            tree = result
        else:
            others.append(result)
    if others:
        if tree is None:
            return None
        dirs, files = set(tree.dirs), {e.rel for e in tree.files}
        if any(not dirs.issuperset(t.dirs) or not files.issuperset(e.rel for e in t.files) for t in others):
            return None  # a walk reached what the fingerprint walk does not (runs/node_modules, a dot-folder)
    with PackFS(root) as fs:
        walked = {e.rel for e in tree.files if stat.S_ISREG(e.mode)} if tree is not None else set()
        extras = tuple(sorted(rel for rel in log.asked | {KNOWLEDGE} if rel not in walked))
        tree_print = _tree_print(fs, tree)
        extras_print, newest = _extras_print(fs, extras)
        if tree is not None:
            newest = max(newest, max((e.ctime_ns for e in tree.files), default=0))
    return Printed(Fingerprint(tree_print, extras, extras_print), newest)


def still_matches(root: Path, printed: Fingerprint) -> bool:
    """True when the pack at ``root`` gives the same fingerprint now (a walk, or a listing, plus a few stats)."""
    with PackFS(root) as fs:
        tree = walk_for_checks(fs) if printed.tree[:1] == _WALKED else None
        return (_tree_print(fs, tree) == printed.tree
                and _extras_print(fs, printed.extras)[0] == printed.extras_print)


def _tree_print(fs: PackFS, tree: PackTree | None) -> bytes:
    if tree is None:
        return _LISTED + _digest(_root_listing(fs))
    # No root listing here: the root's files are in the walk, and its folder names are the scan's ``top_dirs``,
    # which a cached result must match anyway (``pack_loader.load_cached``).
    files = [(e.rel, e.mode, e.size, e.mtime_ns, e.ctime_ns, e.ino) for e in tree.files]
    links = [(link.rel, link.target, str(link.state), link.resolved) for link in tree.links]
    return _WALKED + _digest((files, tree.dirs, links, tree.unlisted, tree.too_deep, tree.too_deep_count,
                              tree.stopped_at))


def _extras_print(fs: PackFS, rels: tuple[str, ...]) -> tuple[bytes, int]:
    """Each path as it resolves now: status, where it leads inside the pack, that target's identity."""
    shape = []
    newest = 0
    for rel in rels:
        status, resolved, st = fs.resolved_stat(rel)
        mode = st.st_mode if st is not None else 0
        ident = None
        if st is not None:
            ident = (st.st_mode, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
            newest = max(newest, st.st_ctime_ns)
        shape.append((rel, str(status), resolved, mode, ident))
    return _digest(shape), newest


def _root_listing(fs: PackFS) -> object:
    """The root folder's identity and names (``scandir`` on a descriptor lists through a copy of it)."""
    root = fs.root_fd
    if root is None:
        return fs.root_error
    try:
        st = os.fstat(root)
        with os.scandir(root) as it:
            names = sorted((entry.name, entry.is_dir(follow_symlinks=False)) for entry in it)
    except OSError as exc:
        return exc.strerror or str(exc)
    return ((st.st_dev, st.st_ino), names)


def _digest(value: Any) -> bytes:
    # Format 2: later formats share repeated objects by reference, so equal values could give unequal bytes.
    return blake2b(marshal.dumps(value, 2), digest_size=20).digest()
