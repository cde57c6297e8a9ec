"""Descriptor-based access to a pack's files: one bounded walk and one read that no symlink swap can redirect.

Why descriptors: checking a path and then opening it by name leaves a gap in which another process can swap a
folder or a file for a symlink (a TOCTOU race), and the open then follows it out of the pack. Here every folder
is opened relative to its parent's open descriptor with ``O_DIRECTORY | O_NOFOLLOW``, from the pack root down,
and every file relative to its folder's descriptor with ``O_NOFOLLOW | O_NONBLOCK``; an ``fstat`` of the opened
descriptor then refuses anything but a regular file. The kernel never follows a link for us: a symlink inside
the pack is read with ``readlink`` and its target walked the same way, one component at a time (at most
``MAX_LINK_HOPS`` links), so a target that is absolute outside the root or climbs above it is refused, never
opened. A swap between two steps makes the next ``O_NOFOLLOW`` open fail, never succeed somewhere else.

The walk is iterative (a 1,100-level folder chain must not exhaust Python's stack, as ``os.walk`` does),
depth- and count-bounded, and its result says where and why it stopped. It holds one descriptor per level of
the folder it is in, never one per pending folder.

Mechanism only: no findings are made here (``studio.core.paths`` and the checks turn results into them).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from enum import StrEnum
from operator import attrgetter
from pathlib import Path
from types import TracebackType

MAX_LINK_HOPS = 40
"""Symlinks followed while resolving one path (Linux allows 40 too); more is a loop."""
MAX_WALK_DEPTH = 32
"""Folder levels below the walk's top that are entered."""
MAX_WALK_ENTRIES = 50_000
"""Directory entries a walk looks at before it stops."""
_DIR_CACHE = 64
"""Folder descriptors a PackFS keeps open for reads (least recently used closed first)."""

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _NOFOLLOW | _CLOEXEC
FILE_FLAGS = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | _CLOEXEC | getattr(os, "O_BINARY", 0)
_LINKISH = (errno.ELOOP, errno.ENOTDIR, errno.EMLINK)
"""What an ``O_NOFOLLOW`` open of a symlink fails with (ELOOP on Linux, EMLINK on FreeBSD)."""


class Status(StrEnum):
    """How an attempt to reach a pack path ended."""

    OK = "ok"
    MISSING = "missing"
    OUTSIDE = "outside"
    """A symlink on the way leads out of the pack root (or climbs above it): nothing was opened."""
    LOOP = "loop"
    """More than ``MAX_LINK_HOPS`` symlinks: a loop."""
    NOT_REGULAR = "not-regular"
    """A folder, FIFO, socket or device where a file was wanted (or a file where a folder was)."""
    UNREADABLE = "unreadable"


@dataclass(frozen=True, slots=True)
class ReadResult:
    """What ``PackFS.read`` found: the bytes (at most the limit) and the size on disk, or why not."""

    status: Status
    data: bytes | None = None
    size: int = 0
    error: str = ""
    """The system's words for an UNREADABLE status (``Permission denied``)."""
    identity: tuple[int, int, int, int] | None = None
    """(device, inode, size, mtime_ns) of the file read, from the descriptor that was read."""


class LinkState(StrEnum):
    """Where a symlink inside the pack leads."""

    FILE = "file"
    DIR = "dir"
    OTHER = "other"
    """Inside the pack, to a FIFO, socket or device."""
    OUTSIDE = "outside"
    LOOP = "loop"
    """A cycle of links, or a folder link to the folder holding it or one of its parents."""
    BROKEN = "broken"


@dataclass(frozen=True, slots=True)
class WalkEntry:
    """A file, symlink, FIFO, socket or device the walk saw, with its ``lstat``."""

    rel: str
    """Pack-relative POSIX path."""
    mode: int
    size: int
    mtime_ns: int
    nlink: int
    ctime_ns: int = 0
    """Changes with every write, rename or attribute change, and cannot be set back (``touch`` can set mtime):
    what tells a same-size edit with its mtime restored (the result cache keys on it)."""
    ino: int = 0

    @property
    def is_regular(self) -> bool:
        return stat.S_ISREG(self.mode)

    @property
    def is_link(self) -> bool:
        return stat.S_ISLNK(self.mode)


@dataclass(frozen=True, slots=True)
class LinkEntry:
    """A symlink the walk saw (never followed by the walk) and where it leads."""

    rel: str
    target: str
    """The link's text, as ``readlink`` gives it."""
    state: LinkState
    resolved: str | None = None
    """Pack-relative path it reaches, when it stays inside."""


@dataclass(slots=True)
class PackTree:
    """One walk's result: what it saw, in walk order (folders depth-first, names sorted)."""

    files: list[WalkEntry] = field(default_factory=list)
    """Every entry that is not a folder entered: regular files, symlinks (also in ``links``), FIFOs, sockets
    and devices, in walk order (check ``is_regular``)."""
    dirs: list[str] = field(default_factory=list)
    """Folders entered, the top included ('' for the pack root)."""
    links: list[LinkEntry] = field(default_factory=list)
    unlisted: list[tuple[str, str]] = field(default_factory=list)
    """(folder, reason) for folders that could not be opened or listed (swapped during the walk, permissions)."""
    too_deep: list[str] = field(default_factory=list)
    """Folders not entered because they lie deeper than the depth limit (the first few)."""
    too_deep_count: int = 0
    stopped_at: str | None = None
    """The folder being listed when the entry limit stopped the walk; None when it finished."""
    max_depth: int = MAX_WALK_DEPTH
    max_entries: int = MAX_WALK_ENTRIES

    @property
    def complete(self) -> bool:
        return self.stopped_at is None and not self.too_deep_count


class _Held:
    """A folder descriptor shared by the folder's pending subfolders; closed when the last one is opened."""

    __slots__ = ("fd", "refs")

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.refs = 1

    def release(self) -> None:
        self.refs -= 1
        if self.refs == 0:
            os.close(self.fd)


def is_text_name(name: str) -> bool:
    """Whether a path can be stored as text: it holds no surrogate (a byte of a file name that is not UTF-8, which
    Python keeps as a lone surrogate, and which SQLite, JSON and the search engine cannot hold)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def split_rel(rel: str) -> list[str]:
    """Components of a pack-relative path ('/' or the OS separator), without empty ones and '.'."""
    return [p for p in rel.replace(os.sep, "/").split("/") if p not in ("", ".")]


@dataclass(slots=True)
class AccessLog:
    """Every question asked of one pack's files while a recording is on (``recording``): the paths given to
    ``read``, ``sha256``, ``lstat``, ``kind`` (so ``exists`` and ``is_dir``) and ``open_dir``, and each walk with
    its result. The result cache fingerprints exactly this, so what a load looked at is what a later run checks.
    """

    root: str
    asked: set[str] = field(default_factory=set)
    walks: list[tuple[str, int, int, Callable[[str, str], bool] | None, PackTree]] = field(default_factory=list)
    """(top, max_depth, max_entries, enter, result) of each walk."""


_log: ContextVar[AccessLog | None] = ContextVar("pack_fs_access_log", default=None)


@contextlib.contextmanager
def recording(root: str) -> Iterator[AccessLog]:
    """Note what every ``PackFS`` of the pack at ``root`` (absolute) is asked, in this thread, until the end."""
    log = AccessLog(root)
    token = _log.set(log)
    try:
        yield log
    finally:
        _log.reset(token)


def _note(fs_root: str, rel: str) -> None:
    log = _log.get()
    if log is not None and log.root == fs_root:
        log.asked.add(rel)


class PackFS:
    """A pack root held open, and every read and walk made relative to it. Use as a context manager.

    Never raises for what it finds on disk: results carry a ``Status``. The root itself is the folder the user
    chose and is opened normally (following a symlink to it); everything below it is reached by descriptor.
    """

    def __init__(self, root: Path | str) -> None:
        self._root: int | None = None
        self._dirs: OrderedDict[str, int] = OrderedDict()
        self._real_root: str | None = None
        self._last = ""
        self.root = os.path.abspath(root)
        self.root_error = ""
        try:
            self._root = os.open(self.root, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _CLOEXEC)
        except (OSError, ValueError) as exc:
            self.root_error = getattr(exc, "strerror", None) or str(exc)

    @property
    def real_root(self) -> str:
        """The root with every symlink resolved: what an absolute symlink target must lie under (computed on
        the first absolute target; most packs have none)."""
        if self._real_root is None:
            try:
                self._real_root = os.path.realpath(self.root)
            except (OSError, ValueError):
                self._real_root = self.root
        return self._real_root

    # -- lifetime ---------------------------------------------------------------------------------------
    def __enter__(self) -> PackFS:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        for fd in self._dirs.values():
            os.close(fd)
        self._dirs.clear()
        if self._root is not None:
            os.close(self._root)
            self._root = None

    def __del__(self) -> None:  # a forgotten close must not leak descriptors across a 1,000-pack scan
        with contextlib.suppress(OSError):
            self.close()

    @property
    def root_fd(self) -> int | None:
        return self._root

    # -- reading ----------------------------------------------------------------------------------------
    def read(self, rel: str, limit: int, *, follow: bool = True) -> ReadResult:
        """At most ``limit`` bytes of the regular file at ``rel`` (plus its size on disk).

        ``follow`` resolves symlinks that stay inside the pack (on the way and at the end); without it any
        symlink (and any '..') is refused as NOT_REGULAR. Reads the file's size as ``fstat`` gives it, at most
        ``limit`` bytes; ``size`` tells a caller that a file is larger than what it asked for.
        """
        _note(self.root, rel)
        parts = split_rel(rel)
        if self._root is None:
            return ReadResult(Status.UNREADABLE, error=self.root_error)
        if not parts:
            return ReadResult(Status.NOT_REGULAR)
        if ".." not in parts:
            folder = self._cached_dir(parts[:-1])
            if folder is not None:
                try:
                    fd = os.open(parts[-1], FILE_FLAGS, dir_fd=folder)
                except OSError as exc:
                    if exc.errno not in _LINKISH:
                        return _failed(exc)
                    if not follow:
                        return ReadResult(Status.NOT_REGULAR)  # a symlink, refused as asked
                else:
                    return _read_fd(fd, limit)
        if not follow:
            return ReadResult(Status.NOT_REGULAR)  # reached only through a symlinked folder or '..'

        opened = self._resolve(parts, want="file")
        if isinstance(opened, ReadResult):
            return opened
        return _read_fd(opened[0], limit)

    def sha256(self, rel: str, max_bytes: int) -> str | None:
        """Hex sha256 of the regular file at ``rel`` (links followed while inside), streamed; None when it is
        unreachable, not a regular file or larger than ``max_bytes``."""
        _note(self.root, rel)
        parts = split_rel(rel)
        if not parts or self._root is None:
            return None
        opened = self._resolve(parts, want="file")
        if isinstance(opened, ReadResult):
            return None
        fd = opened[0]
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or st.st_size > max_bytes:
                return None
            import hashlib  # here: its OpenSSL bindings cost 2 ms of every command, and few hash a file

            digest = hashlib.sha256()
            while chunk := os.read(fd, 1 << 20):
                digest.update(chunk)
            return digest.hexdigest()
        except OSError:
            return None
        finally:
            os.close(fd)

    def read_in(self, folder_fd: int, name: str, limit: int) -> ReadResult:
        """Read ``name`` relative to an open folder descriptor (the walk's), refusing a symlink."""
        try:
            fd = os.open(name, FILE_FLAGS, dir_fd=folder_fd)
        except OSError as exc:
            return ReadResult(Status.OUTSIDE) if exc.errno in _LINKISH else _failed(exc)
        return _read_fd(fd, limit)

    def lstat(self, rel: str) -> os.stat_result | None:
        """``lstat`` of ``rel`` through physical folders only (no link followed on the way); None if unreachable."""
        _note(self.root, rel)
        parts = split_rel(rel)
        if not parts or ".." in parts:
            return None
        folder = self._cached_dir(parts[:-1])
        if folder is None:
            return None
        try:
            return os.stat(parts[-1], dir_fd=folder, follow_symlinks=False)
        except (OSError, ValueError):
            return None

    def kind(self, rel: str) -> tuple[Status, str | None, int]:
        """(status, resolved pack-relative path, st_mode) of ``rel``, following links that stay inside."""
        status, resolved, st = self.resolved_stat(rel)
        return status, resolved, st.st_mode if st is not None else 0

    def resolved_stat(self, rel: str) -> tuple[Status, str | None, os.stat_result | None]:
        """(status, resolved pack-relative path, ``lstat`` of that path) of ``rel``, following links that stay
        inside; the stat is None unless the status is OK."""
        _note(self.root, rel)
        parts = split_rel(rel)
        if parts and ".." not in parts:  # the common case first: physical folders, no link at the end
            folder = self._cached_dir(parts[:-1])
            if folder is not None:
                try:
                    st = os.stat(parts[-1], dir_fd=folder, follow_symlinks=False)
                except (OSError, ValueError) as exc:
                    return _failed(exc).status, None, None
                if not stat.S_ISLNK(st.st_mode):
                    return Status.OK, "/".join(parts), st
            elif self._physically_missing(parts[:-1]):
                # A folder on the way is simply not there (``evals/`` of a pack without evals, asked about on
                # every warm load's fingerprint): no link can lead anywhere from it, so the slow path would only
                # find the same.
                return Status.MISSING, None, None
        result = self._resolve(parts, want="stat")
        if isinstance(result, ReadResult):
            return result.status, None, None
        _fd, resolved, _mode = result
        # The target's own lstat, through physical folders: where the links led, with nothing followed.
        target = split_rel(resolved)
        try:
            if not target:  # a link to the pack root itself
                if self._root is None:
                    return Status.UNREADABLE, None, None
                return Status.OK, resolved, os.fstat(self._root)
            folder = self._cached_dir(target[:-1])
            if folder is None:
                return Status.UNREADABLE, None, None
            return Status.OK, resolved, os.stat(target[-1], dir_fd=folder, follow_symlinks=False)
        except (OSError, ValueError) as exc:
            return _failed(exc).status, None, None

    def exists(self, rel: str) -> bool:
        """True when ``rel`` reaches a regular file inside the pack."""
        status, _resolved, mode = self.kind(rel)
        return status is Status.OK and stat.S_ISREG(mode)

    def is_dir(self, rel: str) -> bool:
        """True when ``rel`` reaches a folder inside the pack (links that stay inside followed)."""
        status, _resolved, mode = self.kind(rel)
        return status is Status.OK and stat.S_ISDIR(mode)

    def open_dir(self, rel: str, *, follow: bool = False) -> int | None:
        """A descriptor of the folder ``rel`` owned by this PackFS (do not close it); None if unreachable.

        Without ``follow`` only physical folders are entered (a symlinked folder gives None).
        """
        _note(self.root, rel)
        parts = split_rel(rel)
        if ".." not in parts:
            fd = self._cached_dir(parts)
            if fd is not None or not follow:
                return fd
        if not follow:
            return None
        result = self._resolve(parts, want="dir")
        if isinstance(result, ReadResult):
            return None
        fd, resolved, _mode = result
        self._remember(resolved, fd)
        return fd

    # -- walking ----------------------------------------------------------------------------------------
    def walk(self, top: str = "", *, max_depth: int = MAX_WALK_DEPTH, max_entries: int = MAX_WALK_ENTRIES,
             enter: Callable[[str, str], bool] | None = None, classify_links: bool = True) -> PackTree:
        """Every entry below the physical folder ``top`` (a symlinked ``top`` is not entered: empty result).

        ``enter(rel, name)`` says whether to enter a subfolder (default: all); folders refused there are
        neither entered nor reported. Symlinks are never followed: they are listed in ``links`` with where
        they lead (``classify_links``). Depth and entry limits stop the walk; the result says where.
        """
        tree = self._walk(top, max_depth, max_entries, enter, classify_links)
        log = _log.get()
        if log is not None and log.root == self.root:
            log.walks.append((top, max_depth, max_entries, enter, tree))
        return tree

    def _walk(self, top: str, max_depth: int, max_entries: int, enter: Callable[[str, str], bool] | None,
              classify_links: bool) -> PackTree:
        tree = PackTree(max_depth=max_depth, max_entries=max_entries)
        top_parts = split_rel(top)
        if self._root is None or ".." in top_parts:
            if self._root is None:
                tree.unlisted.append((top, self.root_error))
            return tree
        first = self._open_physical(top_parts)
        if first is None:
            return tree
        top_rel = "/".join(top_parts)
        seen = 0
        stack: list[tuple[_Held | None, str, str, int]] = [(None, "", top_rel, 0)]
        held_first = _Held(first)
        try:
            while stack:
                parent, name, rel, depth = stack.pop()
                if parent is None:
                    held = held_first
                else:
                    try:
                        fd = os.open(name, DIR_FLAGS, dir_fd=parent.fd)
                    except OSError as exc:
                        why = "it was replaced by a symlink during the walk" if exc.errno in _LINKISH else (
                            exc.strerror or str(exc))
                        tree.unlisted.append((rel, why))
                        continue
                    finally:
                        parent.release()
                    held = _Held(fd)
                try:
                    try:
                        with os.scandir(held.fd) as it:
                            entries = sorted(it, key=_NAME)
                    except OSError as exc:
                        tree.unlisted.append((rel, exc.strerror or str(exc)))
                        continue
                    tree.dirs.append(rel)
                    prefix = rel + "/" if rel else ""
                    subdirs: list[tuple[str, str]] = []
                    for entry in entries:
                        seen += 1
                        if seen > max_entries:
                            tree.stopped_at = rel
                            return tree
                        child = prefix + entry.name
                        try:
                            # d_type answers for folders without a system call; files need their lstat.
                            is_folder = entry.is_dir(follow_symlinks=False)
                            st = None if is_folder else entry.stat(follow_symlinks=False)
                        except OSError:
                            continue  # vanished since the listing
                        if is_folder:
                            if enter is not None and not enter(child, entry.name):
                                continue
                            if depth + 1 > max_depth:
                                tree.too_deep_count += 1
                                if len(tree.too_deep) < 5:
                                    tree.too_deep.append(child)
                                continue
                            subdirs.append((entry.name, child))
                        elif st is not None:
                            if stat.S_ISLNK(st.st_mode):
                                tree.links.append(self._link(held.fd, entry.name, child, classify_links))
                            tree.files.append(WalkEntry(child, st.st_mode, st.st_size, st.st_mtime_ns, st.st_nlink,
                                                        st.st_ctime_ns, st.st_ino))
                    for sub_name, sub_rel in reversed(subdirs):
                        held.refs += 1
                        stack.append((held, sub_name, sub_rel, depth + 1))
                finally:
                    held.release()
        finally:
            for parent, *_rest in stack:  # an early stop leaves pending folders holding their parent
                if parent is not None:
                    parent.release()
        return tree

    # -- internals --------------------------------------------------------------------------------------
    def _link(self, folder_fd: int, name: str, rel: str, classify: bool) -> LinkEntry:
        try:
            target = os.readlink(name, dir_fd=folder_fd)
        except OSError:
            return LinkEntry(rel, "", LinkState.BROKEN)
        if not classify:
            return LinkEntry(rel, target, LinkState.OTHER)
        result = self._resolve(split_rel(rel), want="stat")
        if isinstance(result, ReadResult):
            state = {Status.OUTSIDE: LinkState.OUTSIDE, Status.LOOP: LinkState.LOOP}.get(result.status,
                                                                                         LinkState.BROKEN)
            return LinkEntry(rel, target, state)
        _fd, resolved, mode = result
        if stat.S_ISDIR(mode):
            # A folder link to its own folder or a parent: any walker that follows links goes round forever.
            here = rel.rsplit("/", 1)[0] if "/" in rel else ""
            if resolved == "" or here == resolved or here.startswith(resolved + "/"):
                return LinkEntry(rel, target, LinkState.LOOP, resolved)
            return LinkEntry(rel, target, LinkState.DIR, resolved)
        return LinkEntry(rel, target, LinkState.FILE if stat.S_ISREG(mode) else LinkState.OTHER, resolved)

    def _open_physical(self, parts: list[str]) -> int | None:
        """A new descriptor (the caller closes it) of a physical folder: every component O_NOFOLLOW."""
        assert self._root is not None
        try:
            fd = os.dup(self._root)
        except OSError:
            return None
        for part in parts:
            try:
                nxt = os.open(part, DIR_FLAGS, dir_fd=fd)
            except (OSError, ValueError):
                os.close(fd)
                return None
            os.close(fd)
            fd = nxt
        return fd

    def _physically_missing(self, parts: list[str]) -> bool:
        """True when a folder of ``parts`` does not exist, the ones above it being physical folders (a link, a
        file or an unreadable folder on the way is not 'missing': the caller resolves those the slow way)."""
        for depth in range(len(parts)):
            above = self._cached_dir(parts[:depth])
            if above is None:
                return False
            try:
                st = os.stat(parts[depth], dir_fd=above, follow_symlinks=False)
            except FileNotFoundError:
                return True
            except (OSError, ValueError):
                return False
            if not stat.S_ISDIR(st.st_mode):
                return False
        return False

    def _cached_dir(self, parts: list[str]) -> int | None:
        """A cached descriptor of the physical folder ``parts`` (opened O_NOFOLLOW from the root down)."""
        if self._root is None:
            return None
        if not parts:
            return self._root
        key = "/".join(parts)
        fd = self._dirs.get(key)
        if fd is not None:
            if self._last != key:  # reads come folder by folder: most hits are the folder of the last one
                self._dirs.move_to_end(key)
                self._last = key
            return fd
        parent = self._cached_dir(parts[:-1]) if len(parts) <= 8 else None
        try:
            if parent is not None:
                fd = os.open(parts[-1], DIR_FLAGS, dir_fd=parent)
            else:
                fd = self._open_physical(parts)
                if fd is None:
                    return None
        except (OSError, ValueError):
            return None
        self._remember(key, fd)
        return fd

    def _remember(self, key: str, fd: int) -> None:
        old = self._dirs.pop(key, None)
        if old is not None:
            os.close(old)
        self._dirs[key] = fd
        while len(self._dirs) > _DIR_CACHE:
            _key, evicted = self._dirs.popitem(last=False)
            os.close(evicted)

    def _resolve(self, parts: list[str], want: str) -> tuple[int, str, int] | ReadResult:
        """Walk ``parts`` from the root, resolving symlinks here (never in the kernel).

        ``want`` is ``file`` (open the end as a regular file), ``dir`` (open it as a folder) or ``stat`` (only
        look at it). Returns (descriptor or -1 for ``stat``, resolved pack-relative path, st_mode), or a
        ReadResult saying why not. A descriptor returned for ``file`` is the caller's to close; one for
        ``dir`` too (``open_dir`` hands it to the cache).
        """
        if self._root is None:
            return ReadResult(Status.UNREADABLE, error=self.root_error)
        pending = deque(parts)
        stack: list[int] = []
        names: list[str] = []
        hops = 0
        try:
            while pending:
                comp = pending.popleft()
                if comp in ("", "."):
                    continue
                if comp == "..":
                    if not stack:
                        return ReadResult(Status.OUTSIDE)
                    os.close(stack.pop())
                    names.pop()
                    continue
                cur = stack[-1] if stack else self._root
                last = not pending
                try:
                    st = os.stat(comp, dir_fd=cur, follow_symlinks=False)
                except (OSError, ValueError) as exc:
                    return _failed(exc)
                if stat.S_ISLNK(st.st_mode):
                    hops += 1
                    if hops > MAX_LINK_HOPS:
                        return ReadResult(Status.LOOP)
                    try:
                        target = os.readlink(comp, dir_fd=cur)
                    except OSError as exc:
                        return _failed(exc)
                    if target.startswith("/") or os.path.isabs(target):
                        real = self.real_root.rstrip(os.sep)
                        if target != real and not target.startswith(real + os.sep):
                            return ReadResult(Status.OUTSIDE)
                        for fd in stack:
                            os.close(fd)
                        stack.clear()
                        names.clear()
                        target = target[len(real):]
                    pending.extendleft(reversed(split_rel(target) or ["."]))
                    continue
                if last and want == "stat":
                    return -1, "/".join([*names, comp]), st.st_mode
                if last and want == "file":
                    if not stat.S_ISREG(st.st_mode):
                        return ReadResult(Status.NOT_REGULAR)
                    flags = FILE_FLAGS
                elif stat.S_ISDIR(st.st_mode):
                    flags = DIR_FLAGS
                else:
                    return ReadResult(Status.MISSING if not last else Status.NOT_REGULAR)
                try:
                    fd = os.open(comp, flags, dir_fd=cur)
                except OSError as exc:
                    if exc.errno in _LINKISH:  # swapped for a link since the stat: look again (bounded)
                        hops += 1
                        if hops > MAX_LINK_HOPS:
                            return ReadResult(Status.LOOP)
                        pending.appendleft(comp)
                        continue
                    return _failed(exc)
                if last:
                    return fd, "/".join([*names, comp]), st.st_mode
                stack.append(fd)
                names.append(comp)
            # The path ended on a folder: the root, or after a '..' or a link to a folder.
            if want == "file":
                return ReadResult(Status.NOT_REGULAR)
            if want == "stat":
                return -1, "/".join(names), stat.S_IFDIR
            fd = stack.pop() if stack else os.dup(self._root)
            return fd, "/".join(names), stat.S_IFDIR
        finally:
            for fd in stack:
                os.close(fd)


_NAME = attrgetter("name")


def _failed(exc: BaseException) -> ReadResult:
    if isinstance(exc, ValueError):  # a NUL byte: no file system holds that name
        return ReadResult(Status.MISSING)
    err = getattr(exc, "errno", None)
    if err in (errno.ENOENT, errno.ENOTDIR):
        return ReadResult(Status.MISSING)
    if err == errno.ELOOP:
        return ReadResult(Status.LOOP)
    return ReadResult(Status.UNREADABLE, error=getattr(exc, "strerror", None) or str(exc))


def _read_fd(fd: int, limit: int) -> ReadResult:
    """Bounded read of an open descriptor that must be a regular file; closes it."""
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return ReadResult(Status.NOT_REGULAR)
        # The size (one read when the file is as large as fstat says) or, for a file at or over the limit, the
        # limit itself; callers compare ``size`` with their limit to see a file too large to use.
        want = st.st_size if st.st_size < limit else limit
        return ReadResult(Status.OK, read_up_to(fd, want), st.st_size,
                          identity=(st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns))
    except OSError as exc:
        return _failed(exc)
    finally:
        os.close(fd)


def read_up_to(fd: int, want: int) -> bytes:
    """At most ``want`` bytes from ``fd``'s position: the one bounded read loop (a read may return less than asked,
    so it asks again until ``want`` bytes or the end of the file)."""
    chunks: list[bytes] = []
    while want > 0:
        chunk = os.read(fd, want)
        if not chunk:
            break
        chunks.append(chunk)
        want -= len(chunk)
    return b"".join(chunks)


def read_inside(root: Path | str, rel: str, limit: int) -> ReadResult:
    """One read of ``rel`` inside ``root`` (see ``PackFS.read``); for many reads keep a PackFS open."""
    with PackFS(root) as fs:
        return fs.read(rel, limit)


@contextlib.contextmanager
def held(root: Path | str, fs: PackFS | None = None) -> Iterator[PackFS]:
    """``fs`` when the caller already holds the pack open (left open), else a PackFS of ``root`` closed after:
    functions that read a few files take an optional ``fs`` so one operation opens the pack once."""
    if fs is not None:
        yield fs
        return
    with PackFS(root) as own:
        yield own


def walk_pack(root: Path | str, top: str = "", **options: object) -> PackTree:
    """One walk (see ``PackFS.walk``) with its own PackFS."""
    with PackFS(root) as fs:
        return fs.walk(top, **options)  # type: ignore[arg-type]


__all__ = ["LinkEntry", "LinkState", "MAX_LINK_HOPS", "MAX_WALK_DEPTH", "MAX_WALK_ENTRIES", "PackFS", "PackTree",
           "ReadResult", "Status", "WalkEntry", "held", "read_inside", "read_up_to", "split_rel", "walk_pack"]
