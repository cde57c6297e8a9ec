"""Path safety: everything a pack names resolves from its root and must stay inside it."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity
from studio.core.pack_fs import PackFS, ReadResult, Status, read_inside, read_up_to

SYMLINK_ESCAPE = Code("symlink-escape", Severity.ERROR, "a file the studio was asked to read is a symlink leading "
                      "outside the pack; it is not read", Behavior.QUARANTINE,
                      hint="Replace the symlink with the file itself.")
NOT_A_REGULAR_FILE = Code("not-a-regular-file", Severity.ERROR, "a path that should be a file is a folder, FIFO "
                          "or device; it is not read", Behavior.SKIP, hint="Replace it with a regular file.")
UNREADABLE_FILE = Code("unreadable-file", Severity.ERROR, "a file could not be read (permissions or an I/O error)",
                       Behavior.SKIP, hint="Check the file's permissions.")
CODES = (SYMLINK_ESCAPE, NOT_A_REGULAR_FILE, UNREADABLE_FILE)


def user_home() -> Path | None:
    """The user's home, whose packs form the user scope; None when there is none (no HOME and no passwd entry,
    as in some containers): the user scope is then skipped, never an error."""
    try:
        return Path.home()
    except RuntimeError:
        return None


def is_unsafe_pointer(value: str) -> bool:
    """True when a pack-relative pointer is absolute, has a drive, or walks up with ``..``."""
    if not value or value.startswith(("/", "\\")) or (len(value) > 1 and value[1] == ":") or "\x00" in value:
        return True
    return ".." in value.replace("\\", "/").split("/")


def resolve_inside(root: Path, value: str) -> Path | None:
    """Resolve ``value`` against ``root``; None when it is unsafe or a symlink leads outside the root.

    Does not check that the target exists.
    """
    if is_unsafe_pointer(value):
        return None
    candidate = root / value.split("#", 1)[0]
    return candidate if is_inside(root, candidate) else None


def pointer_status(fs: PackFS, value: str) -> Status:
    """Whether the pack-relative pointer ``value`` ('#fragment' ignored) reaches a regular file, asked of ``fs``.

    OK; MISSING (absent, a folder or FIFO, a link loop or a link to nothing); OUTSIDE (absolute, a drive, ``..``,
    a NUL byte, or a symlink leading out of the pack); UNREADABLE (the file system refused to look it up: a name
    over its length limit, permissions). Nothing is opened, only looked at by descriptor.
    """
    if is_unsafe_pointer(value):
        return Status.OUTSIDE
    status, _resolved, mode = fs.kind(value.split("#", 1)[0])
    if status is Status.OK:
        return Status.OK if stat.S_ISREG(mode) else Status.MISSING
    return status if status in (Status.OUTSIDE, Status.UNREADABLE) else Status.MISSING


def is_inside(root: Path | str, path: Path | str) -> bool:
    """True when ``path`` (after following symlinks) stays inside ``root``.

    Fast path: when ``path`` lies lexically under ``root`` and no component between them is a symlink,
    it cannot leave the root; only then is ``realpath`` (an lstat per component from ``/``) avoided.
    Works on strings: this runs for every pointer of every pack, and pathlib objects cost more than
    the system calls here.
    """
    try:
        root_s = os.path.abspath(root)
        path_s = os.path.abspath(path)
    except ValueError:
        return False  # a NUL byte: not a path any file system can hold
    if path_s == root_s:
        return True
    prefix = root_s if root_s.endswith(os.sep) else root_s + os.sep
    if path_s.startswith(prefix):
        current = root_s
        for part in path_s[len(prefix):].split(os.sep):
            current = os.path.join(current, part)
            try:
                if stat.S_ISLNK(os.lstat(current).st_mode):
                    break
            except ValueError:
                return False
            except OSError:
                return True  # nothing there (or a name too long to exist): nothing to escape through
        else:
            return True
    try:
        real_root = os.path.realpath(root_s)
        real = os.path.realpath(path_s)
    except (OSError, RuntimeError, ValueError):
        return False
    return real == real_root or real.startswith(real_root if real_root.endswith(os.sep) else real_root + os.sep)


def list_top_dirs(root: Path | str) -> frozenset[str]:
    """Names of the folders directly in ``root`` (symlinks not followed); empty when it cannot be listed."""
    try:
        with os.scandir(root) as it:
            return frozenset(e.name for e in it if e.is_dir(follow_symlinks=False))
    except OSError:
        return frozenset()


def is_file(path: Path) -> bool:
    """``path.is_file()`` that answers False for names the OS rejects (too long, NUL bytes) instead of raising."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


_PLAIN_OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))


def read_regular_file(path: str, limit: int) -> tuple[bytes, int] | None:
    """(first ``limit`` bytes, size) of a regular file that is not a symlink; None for anything else.

    The fast read for files a walk just saw: one open and one ``fstat``, no containment check (the file is
    not a link, so it cannot lead anywhere). ``O_NOFOLLOW`` refuses a link, ``O_NONBLOCK`` keeps a FIFO from
    blocking the open, and the ``fstat`` refuses anything but a regular file. It reads the file's size plus
    one byte (at most ``limit``) rather than a buffer of the whole limit, which for small files costs more
    than the read. A file that grew while being read, and any error, give None: the caller's careful path
    (``pack.read_bounded``) then says what is wrong.
    """
    if not hasattr(os, "O_NOFOLLOW"):
        return None  # no way to refuse a symlink in the open itself
    try:
        fd = os.open(path, _PLAIN_OPEN_FLAGS)
    except (OSError, ValueError):
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None
        data = read_up_to(fd, min(st.st_size + 1, limit))
        return (data, st.st_size) if len(data) <= st.st_size else None
    except OSError:
        return None
    finally:
        os.close(fd)


def read_bounded(path: Path, limit: int, *, root: Path | None = None) -> tuple[bytes | None, int, Diagnostic | None]:
    """Read at most ``limit`` bytes of a regular file inside ``root``.

    Returns (data, size on disk, problem). With ``root``, the file is reached by descriptor from the root down
    (``pack_fs``): a symlink that leaves the root is refused, never opened, even when another process swaps
    one in while this runs. FIFOs and devices are refused too (reading those could block forever).
    """
    if root is not None:
        rel = _rel_inside(path, root)
        if rel is None:
            shown = _rel(path, root)
            return None, 0, SYMLINK_ESCAPE(f"{shown} lies outside the pack; not read", shown)
        return from_read_result(read_inside(root, rel, limit), rel)
    rel = path.name
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            return None, 0, NOT_A_REGULAR_FILE(f"{rel} is not a regular file; not read", rel)
        with open(path, "rb") as fh:
            # Asking for the whole limit makes Python reserve it (1 MiB) on every call; the size plus one
            # byte is enough to see a file that grew since the stat.
            return fh.read(min(limit, st.st_size + 1)), st.st_size, None
    except PermissionError:
        return None, 0, UNREADABLE_FILE(f"{rel} cannot be read: permission denied", rel)
    except OSError as exc:
        return None, 0, UNREADABLE_FILE(f"{rel} cannot be read: {exc.strerror or exc}", rel, hint="Check the file.")


def from_read_result(result: ReadResult, rel: str) -> tuple[bytes | None, int, Diagnostic | None]:
    """``read_bounded``'s (data, size, problem) for a ``pack_fs`` read of ``rel``."""
    status = result.status
    if status is Status.OK:
        return result.data, result.size, None
    if status is Status.OUTSIDE:
        return None, 0, SYMLINK_ESCAPE(f"{rel} is a symlink that leads outside the pack; not read", rel)
    if status is Status.NOT_REGULAR:
        return None, 0, NOT_A_REGULAR_FILE(f"{rel} is not a regular file; not read", rel)
    if status is Status.LOOP:
        return None, 0, UNREADABLE_FILE(f"{rel} cannot be read: a symlink loop", rel,
                                        hint="Replace the symlink with the file itself.")
    if status is Status.MISSING:
        return None, 0, UNREADABLE_FILE(f"{rel} cannot be read: no such file", rel, hint="Check the path.")
    if result.error == os.strerror(errno.EACCES):
        return None, 0, UNREADABLE_FILE(f"{rel} cannot be read: permission denied", rel)
    return None, 0, UNREADABLE_FILE(f"{rel} cannot be read: {result.error or 'I/O error'}", rel,
                                    hint="Check the file.")


def _rel_inside(path: Path, root: Path) -> str | None:
    """``path`` relative to ``root`` as written (no '..' folded: links decide what '..' means), or None."""
    try:
        root_s = os.path.abspath(root)
        path_s = os.fspath(path) if os.path.isabs(path) else os.path.join(os.getcwd(), path)
    except ValueError:
        return None
    prefix = root_s if root_s.endswith(os.sep) else root_s + os.sep
    if not path_s.startswith(prefix):
        return None
    return path_s[len(prefix):].replace(os.sep, "/")


def _rel(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)
