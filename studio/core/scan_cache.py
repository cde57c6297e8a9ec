"""A scan answered from the result cache: a stat per folder instead of a listing, while nothing changed.

Finding the packs of a large tree lists every folder above them (10,000 packs: 12,800 folders, a quarter of a
second), and a warm ``search`` needs nothing else from the tree before asking its index. A scan's result is
decided by the names in the folders it listed, the .gitignore files it read and the targets of the symlinks it
followed (``scan.ScanWatch``); a name added, removed or renamed in a folder changes the folder's mtime and ctime,
so while every one of those keeps its stamp a new scan would decide the same. The stored scan is then replayed,
packs in the order the walk found them.

The rules are the result cache's: keyed by the root, the scan limits and the studio (its salt); not stored when
a stamp is younger than the clock's granularity before the scan began (``CacheSpec.racy_ns``: an edit in that
tick could keep the stamp), nor when a folder could not even be stat-ed, nor when the scan was cancelled. A
stored scan that does not decode, or whose stamps differ in any way, is scanned afresh (and stored again).
"""

from __future__ import annotations

import os
import stat
import sys
import time
from collections.abc import Callable
from pathlib import Path

from studio.core import result_cache
from studio.core.diagnostics import Diagnostic
from studio.core.result_cache import CacheSpec, CacheStats
from studio.core.scan import FoundDir, ScanResult, ScanWatch, find_pack_dirs, link_state

_LAYOUT = 3
"""The stored tuple's shape, inside the result cache's own format (a changed shape reads as a miss)."""

OnPackDir = Callable[[FoundDir], None]


def find_pack_dirs_cached(
    root: Path,
    cache: CacheSpec | None,
    *,
    max_depth: int,
    max_dirs: int,
    honor_gitignore: bool,
    cancelled: Callable[[], bool] | None = None,
    on_pack_dir: OnPackDir | None = None,
    stats: CacheStats | None = None,
) -> tuple[ScanResult, bool]:
    """``scan.find_pack_dirs`` with the same arguments, answered from ``cache`` when nothing it depends on
    changed: (the result, True when it came from the cache). Without a cache it is just the scan. ``stats``
    receives the notices of storing it (a damaged cache file rebuilt)."""
    def scan() -> ScanResult:
        return find_pack_dirs(root, max_depth=max_depth, max_dirs=max_dirs, honor_gitignore=honor_gitignore,
                              cancelled=cancelled, on_pack_dir=on_pack_dir)

    if cache is None:
        return scan(), False
    root = Path(os.path.abspath(root))
    key = result_cache.result_key(cache, root, "scan", None, f"{max_depth}:{max_dirs}:{int(honor_gitignore)}")
    stored = _stored(cache, key, root)
    if stored is not None:
        if on_pack_dir is not None:
            for found in stored.found:  # the walk's order, as a fresh scan calls it
                on_pack_dir(found)
        return stored, True
    started = time.time_ns()
    result = scan()
    watch = result.watch
    if not result.cancelled and watch.complete and watch.newest_ns < started - cache.racy_ns:
        store = result_cache.ResultStore(cache)
        store.store_scan(key, encode(result))
        result_cache.forget_readers()  # this process's reader may have seen the file before it was written
        if stats is not None:
            stats.notices.extend(store.notices)
    return result, False


def encode(result: ScanResult) -> bytes:
    """The result as plain values, in columns: paths joined by NULs (which no path holds), numbers in flat lists,
    each pack's folder names sorted and interned (the pickle then holds each name once)."""
    found = result.found
    w = result.watch
    return result_cache.encode((
        _LAYOUT, str(result.root), "\0".join(f.path for f in found),
        [tuple(sorted(sys.intern(name) for name in f.top_dirs)) for f in found],
        [n for f in found for n in f.stamp], tuple(result.diagnostics), result.dirs_visited, result.truncated,
        "\0".join(w.folders), w.stamps, w.files, w.links))


def _stored(cache: CacheSpec, key: str, root: Path) -> ScanResult | None:
    """The stored scan of ``root`` when it still holds, else None (none stored, undecodable, or stale)."""
    payload = result_cache.lookup_scan(cache, key)
    if payload is None:
        return None
    try:
        layout, stored_root, paths, tops, ids, diagnostics, visited, truncated, folders, stamps, files, links = \
            result_cache.decode(payload)
        if layout != _LAYOUT or stored_root != str(root) or \
                not all(isinstance(d, Diagnostic) for d in diagnostics):
            return None
        watch = ScanWatch(folders.split("\0") if folders else [], stamps, files, links)
        if not still_holds(watch):
            return None
        numbers = iter(ids)
        pack_stamps = zip(numbers, numbers, numbers, numbers, strict=True)
        packs = [FoundDir(path, frozenset(top), stamp)
                 for path, top, stamp in zip(paths.split("\0") if paths else [], tops, pack_stamps, strict=True)]
        return ScanResult(root=root, found=packs, diagnostics=list(diagnostics), dirs_visited=int(visited),
                          truncated=bool(truncated), watch=watch)
    except Exception:  # a damaged or foreign row is a miss, never a failed scan  # noqa: BLE001
        return None


def still_holds(watch: ScanWatch) -> bool:
    """True when every folder, .gitignore and symlink a scan depended on is as the scan saw it."""
    numbers = iter(watch.stamps)
    for path, stamp in zip(watch.folders, zip(numbers, numbers, numbers, numbers, strict=True), strict=True):
        try:
            st = os.stat(path)
        except (OSError, ValueError):
            return False
        if (st.st_dev, st.st_ino, st.st_mtime_ns, st.st_ctime_ns) != stamp:
            return False
    for path, dev, ino, size, mtime_ns, ctime_ns in watch.files:
        try:
            st = os.lstat(path)
        except (OSError, ValueError):
            return False
        if not stat.S_ISREG(st.st_mode) or (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns) != \
                (dev, ino, size, mtime_ns, ctime_ns):
            return False
    return all(link_state(link[0]) == tuple(link) for link in watch.links)
