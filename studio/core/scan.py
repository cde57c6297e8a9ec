"""Find pack directories under a root: bounded, read-only, symlink-safe discovery (digest 4.2).

Only names and directory entries are looked at; ``KNOWLEDGE.md`` is not opened here (``load_pack``
does that). The only files read are ``.gitignore`` files, and only their first 256 KiB.
"""

from __future__ import annotations

import os
import stat
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity
from studio.core.paths import SYMLINK_ESCAPE

if TYPE_CHECKING:  # imported where a .gitignore is read: most scans meet none, and pathspec costs ~10 ms to load
    import pathspec

SCAN_DIR_LIMIT = Code("scan-dir-limit", Severity.WARNING,
                      "the scan stopped at the folder limit: some folders were not scanned", Behavior.LOAD, "",
                      hint="Point the studio at a narrower folder or raise --max-dirs.")
SCAN_DEPTH_LIMIT = Code("scan-depth-limit", Severity.WARNING,
                        "the scan stopped at the depth limit: packs deeper below a scope root were not loaded",
                        Behavior.LOAD, "", hint="Raise --max-depth if packs live deeper, or keep them in a "
                        ".agents/knowledge folder.")
SCAN_PERMISSION_DENIED = Code("scan-permission-denied", Severity.WARNING,
                              "a folder could not be listed (permission denied): packs inside it were not found",
                              Behavior.LOAD, "", hint="Check the folder's permissions.")
SCAN_UNREADABLE_DIR = Code("scan-unreadable-dir", Severity.WARNING,
                           "a folder could not be listed: packs inside it were not found", Behavior.LOAD, "",
                           hint="Check the folder.")
KNOWLEDGE_MD_IS_DIRECTORY = Code("knowledge-md-is-directory", Severity.INFO,
                                 "a folder named KNOWLEDGE.md was found where a pack's file should be", Behavior.LOAD,
                                 "", hint="KNOWLEDGE.md must be a regular Markdown file.")
WRONG_CASE_KNOWLEDGE_MD = Code("wrong-case-knowledge-md", Severity.INFO,
                               "a knowledge.md in other letter case was found: not a pack (the name is case-sensitive)",
                               Behavior.LOAD, "",
                               hint="Rename the file to KNOWLEDGE.md if this folder is meant to be a pack.")
GITIGNORE_INVALID_PATTERN = Code("gitignore-invalid-pattern", Severity.INFO,
                                 "a .gitignore holds patterns git would not accept: they were ignored")
CODES = (SCAN_DIR_LIMIT, SCAN_DEPTH_LIMIT, SCAN_PERMISSION_DENIED, SCAN_UNREADABLE_DIR, KNOWLEDGE_MD_IS_DIRECTORY,
         WRONG_CASE_KNOWLEDGE_MD, GITIGNORE_INVALID_PATTERN)

KNOWLEDGE_FILE = "KNOWLEDGE.md"

SKIPPED_DIR_NAMES = frozenset({
    "node_modules", "__pycache__", "venv", "dist", "build", "target", "indexes",
})
"""Dependency, build-output and generated folders never scanned (dot-directories are skipped too)."""

SCOPE_DOT_DIRS = frozenset({".agents", ".pack-studio"})
"""Dot-directories that hold packs by convention (``<project>/.agents/knowledge``); entered, unlike other
dot-directories, so that scanning a folder of projects finds their packs."""

MAX_SEARCH_DEPTH = 32
"""Levels below the scan root searched for scope roots (``.agents/knowledge``) once the depth limit is passed."""

_GITIGNORE_LIMIT = 256 * 1024
"""A real .gitignore is a few KiB; reading more would only let a hostile file slow the scan."""


@dataclass(slots=True)
class ScanResult:
    """What one scan of one root found."""

    root: Path
    """The absolute scan root (symlinks not resolved, so paths read the way the user typed them)."""
    found: list[FoundDir] = field(default_factory=list)
    """Each pack directory in the order the walk found it (``on_pack_dir``'s order)."""
    diagnostics: list[Diagnostic] = field(default_factory=list)
    """Workspace-level findings: absolute ``file``, empty ``pack``."""
    dirs_visited: int = 0
    """Directories listed, the root included."""
    truncated: bool = False
    """True when the directory limit or a cancel request stopped the scan early."""
    cancelled: bool = False
    """True when ``cancelled()`` asked to stop (the caller reports it; no diagnostic is added here)."""
    watch: ScanWatch = field(default_factory=lambda: ScanWatch())
    """What this result depends on (``scan_cache`` keeps a result while all of it is unchanged)."""

    @property
    def pack_dirs(self) -> list[Path]:
        """Pack directories, sorted by path components (made on demand: 10,000 paths cost more than a cached
        scan, and the workspace needs only the strings)."""
        return sorted((Path(f.path) for f in self.found), key=lambda p: p.parts)


Stamp = tuple[int, int, int, int]
"""A folder as ``os.stat`` saw it: device, inode, mtime and ctime in ns."""


class FoundDir(NamedTuple):
    """A pack directory a scan found."""

    path: str
    """Absolute, as the walk reached it (the scan root joined with folder names)."""
    top_dirs: frozenset[str]
    """Its top-level folder names (symlinks not followed), from the listing the scan made anyway."""
    stamp: Stamp
    """Its device, inode, mtime and ctime in ns, as this run saw them (stat-ed before it was listed, or checked
    by the scan cache): a caller comparing the folder's times with its own records needs no stat of its own."""

    @property
    def identity(self) -> tuple[int, int]:
        """Its (device, inode): the same folder reached twice is one pack."""
        return (self.stamp[0], self.stamp[1])


FileStamp = tuple[str, int, int, int, int, int]
"""A file as ``os.lstat`` saw it: (path, device, inode, size, mtime ns, ctime ns)."""
LinkState = tuple[str, int, str]
"""A symlink: (path, the file type it resolves to or 0 when it resolves to nothing, its real path when that is a
folder, else '')."""


@dataclass(slots=True)
class ScanWatch:
    """Everything a scan's result was decided from, short of the names inside the folders it listed.

    A name added to, removed from or renamed within a folder changes that folder's mtime and ctime, and so does
    swapping an entry for a symlink; a chmod changes its ctime. So while every folder listed keeps its stamp,
    every .gitignore read keeps its stamp, and every symlink followed still leads to the same kind of thing at
    the same place, a new scan would list the same names and decide the same: ``scan_cache`` checks exactly
    that, with a stat per folder instead of a listing.
    """

    folders: list[str] = field(default_factory=list)
    """Every folder the scan stat-ed to list it (the listing failing or not, a second way into a folder too)."""
    stamps: list[int] = field(default_factory=list)
    """Four numbers per folder, as ``os.stat`` (following links) saw it before the listing: device, inode, mtime
    and ctime in ns (flat: 10,000 packs' worth of tuples took longer to store and read back than to check)."""
    files: list[FileStamp] = field(default_factory=list)
    """Every .gitignore the scan read."""
    links: list[LinkState] = field(default_factory=list)
    """Every symlink whose target decided something (a linked folder entered or not, a linked KNOWLEDGE.md)."""
    complete: bool = True
    """False when a folder could not even be stat-ed (it vanished while the scan ran): nothing to check it by."""

    @property
    def newest_ns(self) -> int:
        """The latest mtime or ctime among the stamps (a change in that clock tick could look like none)."""
        folders = max(max(self.stamps[2::4], default=0), max(self.stamps[3::4], default=0))
        return max(folders, max((max(f[4], f[5]) for f in self.files), default=0))


def link_state(path: str) -> LinkState:
    """What the symlink at ``path`` resolves to now (see ``LinkState``)."""
    try:
        kind = stat.S_IFMT(os.stat(path).st_mode)
    except (OSError, ValueError):
        return (path, 0, "")
    if kind != stat.S_IFDIR:
        return (path, kind, "")
    try:
        return (path, kind, os.path.realpath(path))
    except (OSError, RuntimeError, ValueError):
        return (path, kind, "")


@dataclass(frozen=True, slots=True)
class _IgnoreRules:
    """One ``.gitignore``: the directory it sits in (relative to the scan root) and its patterns."""

    base: str
    spec: pathspec.GitIgnoreSpec


@dataclass(frozen=True, slots=True)
class _Pending:
    path: str
    """Absolute path (a string: a pathlib object per visited folder costs more than listing it)."""
    rel: str
    """POSIX path relative to the scan root ('' for the root)."""
    depth: int
    """Levels below the scan root or the nearest scope root (``.agents/knowledge``) inside it."""
    ignores: tuple[_IgnoreRules, ...]
    absolute: int = 0
    """Levels below the scan root."""
    """Applicable .gitignore files, shallowest first."""


def find_pack_dirs(
    root: Path,
    *,
    max_depth: int = 4,
    max_dirs: int = 5000,
    honor_gitignore: bool = True,
    cancelled: Callable[[], bool] | None = None,
    on_pack_dir: Callable[[FoundDir], None] | None = None,
) -> ScanResult:
    """Return the pack directories below ``root`` (``root`` itself when it is a pack).

    ``max_depth`` counts levels below ``root`` or below the nearest scope root found inside it (a
    ``.agents/knowledge`` or ``.pack-studio/knowledge`` folder): a monorepo's
    ``projects/x/packages/y/.agents/knowledge/z`` is found from its top. Past the depth limit the scan still
    looks for scope roots (up to ``MAX_SEARCH_DEPTH`` levels), but loads no pack there; a warning counts what
    it left out. Walks breadth-first so a directory limit cuts the deepest folders, never the shallow ones.
    Does not descend into a pack, into skipped or ignored folders, or through symlinks that leave
    ``root``. Never raises for file-system problems; they become diagnostics. Writes nothing.
    ``on_pack_dir`` is called with each pack as it is found (in walk order, so a caller can start loading before
    the walk ends).
    """
    root = Path(os.path.abspath(root))
    result = ScanResult(root=root)
    try:
        real_root = os.path.realpath(root)
    except (OSError, RuntimeError):
        return result
    seen: set[tuple[int, int]] = set()
    queue: deque[_Pending] = deque([_Pending(str(root), "", 0, ())])
    beyond_depth = 0
    beyond_packs: list[str] = []
    while queue:
        if cancelled is not None and cancelled():
            result.cancelled = result.truncated = True
            break
        if result.dirs_visited >= max_dirs:
            result.truncated = True
            result.diagnostics.append(SCAN_DIR_LIMIT(f"Stopped after {max_dirs} directories; {len(queue)} more were "
                                                     "not scanned", file=str(root)))
            break
        item = queue.popleft()
        listed = _list_dir(item.path, seen, result)
        if listed is None:
            continue
        entries, stamp = listed
        result.dirs_visited += 1
        searching = item.depth > max_depth  # past the depth limit: looking for scope roots only
        if searching and any(e.name == KNOWLEDGE_FILE for e in entries):
            beyond_packs.append(item.path)
            continue
        if _is_pack(entries, item.path, result):
            found = FoundDir(item.path, frozenset(e.name for e in entries if _is_dir(e, follow_symlinks=False)),
                             stamp)
            result.found.append(found)
            if on_pack_dir is not None:
                on_pack_dir(found)
            continue
        entries.sort(key=_entry_name)  # breadth-first in name order, so results and limits are stable
        ignores = item.ignores
        if honor_gitignore:
            rules = _read_gitignore(entries, item, result)
            if rules is not None:
                ignores = (*ignores, rules)
        for entry in entries:
            child = _child_to_enter(entry, item, ignores, real_root, result)
            if child is None:
                continue
            depth = 0 if _is_scope_root(entry.name, item.path) else item.depth + 1
            if item.absolute + 1 > MAX_SEARCH_DEPTH:
                beyond_depth += 1
                continue
            queue.append(_Pending(entry.path, child, depth, ignores, item.absolute + 1))
    if beyond_packs or beyond_depth:
        parts = []
        if beyond_packs:
            parts.append(f"{len(beyond_packs)} pack(s) lie more than {max_depth} levels below the scan root or a "
                         f"scope root and were not loaded (first: {sorted(beyond_packs)[0]})")
        if beyond_depth:
            parts.append(f"{beyond_depth} directories deeper than {MAX_SEARCH_DEPTH} levels were not entered")
        result.diagnostics.append(SCAN_DEPTH_LIMIT("; ".join(parts), file=str(root)))
    return result


def _is_scope_root(name: str, parent: str) -> bool:
    """``<...>/.agents/knowledge`` and ``<...>/.pack-studio/knowledge``: where packs live by convention."""
    return name == "knowledge" and os.path.basename(parent) in SCOPE_DOT_DIRS


def _entry_name(entry: os.DirEntry[str]) -> str:
    return entry.name


def _list_dir(path: str, seen: set[tuple[int, int]], result: ScanResult,
              ) -> tuple[list[os.DirEntry[str]], Stamp] | None:
    """Entries of a directory not seen before (unsorted) and its stamp (device, inode, mtime and ctime in ns), or
    None (already seen, or unreadable)."""
    try:
        st = os.stat(path)
        stamp = (st.st_dev, st.st_ino, st.st_mtime_ns, st.st_ctime_ns)
        result.watch.folders.append(path)
        result.watch.stamps += stamp
        key = (st.st_dev, st.st_ino)
        if key in seen:  # a second way into the same directory: a symlink loop or an alias
            return None
        seen.add(key)
        with os.scandir(path) as it:
            return list(it), stamp
    except PermissionError:
        # A folder's mode decides this, and a chmod changes its ctime; unless not even its stat was allowed.
        if not result.watch.folders or result.watch.folders[-1] != path:
            result.watch.complete = False
        result.diagnostics.append(SCAN_PERMISSION_DENIED(f"Cannot list {path}: permission denied; packs inside it "
                                                         "were not found", file=path))
    except OSError as exc:
        result.watch.complete = False  # vanished, or a passing failure: nothing a later stat could vouch for
        result.diagnostics.append(SCAN_UNREADABLE_DIR(f"Cannot list {path}: {exc.strerror or exc}", file=path))
    return None


def _is_pack(entries: list[os.DirEntry[str]], path: str, result: ScanResult) -> bool:
    """True when the directory holds a regular file named exactly ``KNOWLEDGE.md``; flags near misses."""
    decoys: list[os.DirEntry[str]] = []
    for entry in entries:
        if entry.name == KNOWLEDGE_FILE:
            _watch_link(entry, result)
            if _is_file(entry):
                return True
            if _is_dir(entry):
                result.diagnostics.append(KNOWLEDGE_MD_IS_DIRECTORY(f"{entry.path} is a directory, so {path} is not "
                                                                    "a pack", file=entry.path))
        elif entry.name.lower() == "knowledge.md":
            _watch_link(entry, result)
            if _is_file(entry):
                decoys.append(entry)
    for entry in sorted(decoys, key=_entry_name):
        result.diagnostics.append(WRONG_CASE_KNOWLEDGE_MD(f"Found '{entry.name}' in {path}; a pack needs exactly "
                                                          "'KNOWLEDGE.md', so it was not loaded", file=entry.path))
    return False


def _watch_link(entry: os.DirEntry[str], result: ScanResult) -> None:
    """Note a symlink whose target is about to decide something (a cached scan checks it still does the same)."""
    if entry.is_symlink():
        result.watch.links.append(link_state(entry.path))


def _is_file(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file()
    except OSError:
        return False


def _is_dir(entry: os.DirEntry[str], *, follow_symlinks: bool = True) -> bool:
    try:
        return entry.is_dir(follow_symlinks=follow_symlinks)
    except OSError:
        return False


def _child_to_enter(
    entry: os.DirEntry[str],
    parent: _Pending,
    ignores: tuple[_IgnoreRules, ...],
    real_root: str,
    result: ScanResult,
) -> str | None:
    """The child's root-relative path when the scan should enter it, else None."""
    name = entry.name
    if (name.startswith(".") and name not in SCOPE_DOT_DIRS) or name in SKIPPED_DIR_NAMES:
        return None
    _watch_link(entry, result)  # a link to a folder is entered (if it stays inside), one to anything else is not
    if not _is_dir(entry):
        return None
    rel = f"{parent.rel}/{name}" if parent.rel else name
    if ignores and _ignored(rel, ignores):
        return None
    if entry.is_symlink() and not _link_stays_inside(entry, real_root):
        result.diagnostics.append(SYMLINK_ESCAPE(
            f"{entry.path} is a symlink that leads outside the scanned folder; not followed", str(entry.path),
            severity=Severity.INFO, behavior=Behavior.LOAD, hint="Copy the folder in instead of linking to it."))
        return None
    return rel


def _link_stays_inside(entry: os.DirEntry[str], real_root: str) -> bool:
    try:
        target = os.path.realpath(entry.path)
    except (OSError, RuntimeError):
        return False
    return target == real_root or target.startswith(real_root.rstrip(os.sep) + os.sep)


def _ignored(rel: str, ignores: tuple[_IgnoreRules, ...]) -> bool:
    """Git semantics: the deepest .gitignore with an opinion about the directory decides."""
    for rules in reversed(ignores):
        if rules.base:
            if not rel.startswith(rules.base + "/"):
                continue
            local = rel[len(rules.base) + 1:]
        else:
            local = rel
        verdict = rules.spec.check_file(local + "/").include
        if verdict is not None:
            return bool(verdict)
    return False


def _read_gitignore(
    entries: list[os.DirEntry[str]], item: _Pending, result: ScanResult
) -> _IgnoreRules | None:
    entry = next((e for e in entries if e.name == ".gitignore"), None)
    # A symlinked .gitignore could point anywhere; only a plain file inside the tree is read.
    if entry is None or not entry.is_file(follow_symlinks=False):
        return None
    try:
        st = entry.stat(follow_symlinks=False)
        if not stat.S_ISREG(st.st_mode):
            return None
        result.watch.files.append((entry.path, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns))
        with open(entry.path, "rb") as fh:
            text = fh.read(_GITIGNORE_LIMIT).decode("utf-8", errors="replace")
    except OSError:
        return None
    import pathspec

    lines = text.splitlines()
    try:
        spec = pathspec.GitIgnoreSpec.from_lines(lines)
    except ValueError:
        spec = pathspec.GitIgnoreSpec.from_lines(_valid_lines(lines))
        result.diagnostics.append(GITIGNORE_INVALID_PATTERN(f"{entry.path} has patterns git would not accept; they "
                                                            "were ignored", file=entry.path))
    return _IgnoreRules(item.rel, spec) if spec.patterns else None


def _valid_lines(lines: list[str]) -> list[str]:
    import pathspec

    good: list[str] = []
    for line in lines:
        try:
            pathspec.GitIgnoreSpec.from_lines([line])
        except ValueError:
            continue
        good.append(line)
    return good
