"""Atomic file writes: a reader (or a crash) sees the old file or the complete new one, never half.

Every write goes through a temporary file created in the target's folder and renamed over the target, both
relative to one held folder descriptor. With ``root`` (a pack), that folder is reached from the root down with
``O_NOFOLLOW`` on every component (``pack_fs``), so swapping a folder for a symlink while the studio writes
cannot make a record land outside the pack; missing folders are created the same way. With ``expect``, the
write is a compare-and-swap: under an exclusive lock on the folder, the file must still be the one that was
read (same inode, size, mtime and content hash), or nothing is written (``ChangedOnDisk``).

``write_new`` adds a record under the first free name (run, review, feedback and eval records), ``make_folders``
creates folders inside a pack the same way, and ``folder_state`` says before a write whether a pack folder can
take one (a symlinked ``runs/`` never does).
"""

from __future__ import annotations

import contextlib
import errno
import getpass
import hashlib
import os
import secrets
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from studio import __version__
from studio.core.pack_fs import DIR_FLAGS, FILE_FLAGS, PackFS, Status, split_rel

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no flock; the identity check still runs, unlocked
    fcntl = None  # type: ignore[assignment]

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_TEMP_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | _CLOEXEC | getattr(
    os, "O_BINARY", 0)


class ChangedOnDisk(OSError):
    """The file is no longer the one the write was prepared from; nothing was written."""


class OutsidePack(OSError):
    """The target's folder could not be reached inside the pack without following a symlink."""


@dataclass(frozen=True, slots=True)
class FileIdentity:
    """What a compare-and-swap compares: the file's inode, size, mtime and the sha256 of its bytes."""

    device: int
    inode: int
    size: int
    mtime_ns: int
    sha256: str

    @classmethod
    def of(cls, identity: tuple[int, int, int, int], data: bytes) -> FileIdentity:
        """From a ``pack_fs.ReadResult.identity`` and the bytes read with it."""
        return cls(*identity, hashlib.sha256(data).hexdigest())


def write_atomic(path: Path, data: bytes | str, *, exclusive: bool = False, root: Path | None = None,
                 expect: FileIdentity | None = None) -> Path:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename.

    With ``exclusive`` the call fails with FileExistsError instead of replacing an existing file
    (used for run records, whose names must be unique). With ``root`` the folder is reached inside the pack
    without following any symlink (OutsidePack otherwise) and created if missing. With ``expect`` the file is
    replaced only if it is still that file (ChangedOnDisk otherwise). The temp file is fsynced before the
    rename. Storage errors (read-only, full, over a size limit) raise OSError, and no temp file is left.
    """
    payload = data.encode("utf-8") if isinstance(data, str) else data
    path = Path(path)
    folder = _open_folder(path, root)
    try:
        return _write_in(folder, path, payload, exclusive, expect)
    finally:
        os.close(folder)


def write_new(root: Path, candidates: Iterable[tuple[str, bytes | str]]) -> Path:
    """Write the first (pack-relative name, data) of ``candidates`` whose name is free; never replaces a file.

    Each try is ``write_atomic(exclusive=True, root=root)``: by descriptor from the pack root, so a folder swapped
    for a symlink meanwhile raises OutsidePack instead of taking the record. ``candidates`` may be a generator
    (a record that names itself is built only for the name tried). FileExistsError when every name is taken.
    """
    for rel, data in candidates:
        try:
            return write_atomic(Path(root) / rel, data, exclusive=True, root=Path(root))
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, f"no free record name in {root}")


def numbered(stem: str, attempts: int = 1000, suffix: str = ".json") -> Iterator[str]:
    """``stem.json``, ``stem-2.json``, ``stem-3.json`` ...: the names records of the same second take in turn."""
    for n in range(1, attempts + 1):
        yield f"{stem}{suffix}" if n == 1 else f"{stem}-{n}{suffix}"


def add_record(root: Path, candidates: Iterable[tuple[str, bytes | str]], folder: str = "runs") -> Path:
    """A new record in the pack folder ``folder`` under the first free name of ``candidates`` (``write_new``).

    Refused before anything is written when the folder cannot take it (``refuse_folder``); PermissionError when
    it is swapped for a symlink meanwhile, FileExistsError when no name is free.
    """
    refuse_folder(root, folder)
    try:
        return write_new(root, candidates)
    except OutsidePack as exc:
        raise PermissionError(f"{Path(root) / folder} is a symlink or leads outside the pack; refusing to write") \
            from exc
    except FileExistsError:
        raise FileExistsError(errno.EEXIST, f"no free record name in {Path(root) / folder}") from None


def make_folders(root: Path, rel: str) -> Path:
    """Create the pack folder ``rel`` and its missing parents, by descriptor from ``root`` (OutsidePack when a
    component is a symlink or not a folder: nothing is created through it). Returns its path."""
    path = Path(root) / rel
    os.close(_open_folder(path / "_", Path(root)))  # _open_folder creates the folders of its argument's parent
    return path


def remove_empty_folder(root: Path, rel: str) -> None:
    """Remove the pack folder ``rel`` if it is empty (by descriptor from ``root``, no link followed); a folder
    that holds anything, or that cannot be reached, is left as it is."""
    parent, _, name = rel.rstrip("/").rpartition("/")
    with PackFS(root) as fs:
        folder = fs.open_dir(parent)  # owned by fs: physical folders only
        if folder is not None:
            with contextlib.suppress(OSError):
                os.rmdir(name, dir_fd=folder)


class FolderState(StrEnum):
    """Whether a pack folder can take a new file, as ``write_new`` would reach it."""

    OK = "ok"
    """A real folder, or absent (it is created on write)."""
    LINK = "link"
    """A symlink (wherever it leads): nothing is written through it."""
    BROKEN_LINK = "broken-link"
    LINK_OUTSIDE = "link-outside"
    NOT_FOLDER = "not-folder"


def folder_state(root: Path, rel: str) -> FolderState:
    """The state of the pack folder ``rel`` (``runs``), looked at through the pack's descriptors."""
    with PackFS(root) as fs:
        st = fs.lstat(rel)
        if st is None or stat.S_ISDIR(st.st_mode):
            return FolderState.OK
        if not stat.S_ISLNK(st.st_mode):
            return FolderState.NOT_FOLDER
        status = fs.kind(rel)[0]
    if status is Status.OUTSIDE:
        return FolderState.LINK_OUTSIDE
    return FolderState.LINK if status is Status.OK else FolderState.BROKEN_LINK


class RunsRefused(Exception):
    """runs/ is a symlink or not a folder: a record is never written through it."""

    def __init__(self) -> None:
        super().__init__("runs/ is a symlink or not a folder; the record is not written outside the pack")


def check_runs_folder(root: Path) -> None:
    """``RunsRefused`` before anything is written when runs/ exists but is a symlink or not a folder."""
    if folder_state(root, "runs") is not FolderState.OK:
        raise RunsRefused


def write_run_record(root: Path, stem: str, payload: str, attempts: int) -> Path:
    """``runs/<stem>.json`` (else ``-2``, ``-3`` ... up to ``attempts`` names) holding ``payload``, written
    atomically by descriptor and never over a file: what the review and feedback records share.

    ``RunsRefused`` when runs/ is a symlink or not a folder (also when one is swapped in meanwhile),
    FileExistsError when every name is taken, another OSError when storage refuses the write.
    """
    check_runs_folder(root)
    try:
        return write_new(root, ((rel, payload) for rel in numbered(f"runs/{stem}", attempts)))
    except OutsidePack as exc:
        raise RunsRefused from exc


def write_stamped_record(root: Path, prefix: str, timestamp: str, payload: str, attempts: int, *,
                         refused: Callable[[str], Exception], what: str) -> Path:
    """``runs/<prefix><timestamp>.json`` (the time's ``:`` written ``-``) holding ``payload``: how the review,
    feedback and dispute records are written (``write_run_record``).

    The two ways the pack refuses the record are raised as the caller's own error, ``refused(message)``: runs/
    is not a real folder, or every name for that second is taken ("more than ``attempts`` ``what`` at
    ``timestamp``"). Any other OSError (storage full, permissions) is the caller's to word.
    """
    try:
        return write_run_record(root, prefix + timestamp.replace(":", "-"), payload, attempts)
    except RunsRefused as exc:
        raise refused(str(exc)) from exc
    except FileExistsError:
        raise refused(f"more than {attempts} {what} at {timestamp}") from None


def record_tool() -> dict[str, str]:
    """The ``tool`` every record the studio writes into a pack carries (review, feedback, dispute, eval): which
    studio wrote it. A fresh dict each time: it becomes part of the caller's record."""
    return {"name": "knowledge-pack-studio", "version": __version__}


def record_author(name: str | None) -> str:
    """Who a run record (review, feedback, dispute step) is signed by: ``name`` (the login name when none is
    given), stripped; ``unknown`` when that leaves nothing (a record always names someone)."""
    if not name:
        try:
            name = getpass.getuser()
        except (OSError, KeyError, ImportError):  # no login name (a container without a passwd entry)
            name = ""
    return name.strip() or "unknown"


def refuse_folder(root: Path, rel: str) -> None:
    """Raise before anything is written when the pack folder ``rel`` exists but cannot take a file (the run
    records' messages): NotADirectoryError for a broken link or a file, PermissionError for any other link."""
    folder = Path(root) / rel
    state = folder_state(root, rel)
    if state is FolderState.BROKEN_LINK:
        raise NotADirectoryError(f"{folder} is a broken symlink; refusing to write")
    if state is FolderState.LINK_OUTSIDE:
        raise PermissionError(f"{folder} leads outside the pack; refusing to write")
    if state is FolderState.LINK:
        raise PermissionError(f"{folder} is a symlink; records are written only into a real folder of the pack")
    if state is FolderState.NOT_FOLDER:
        raise NotADirectoryError(f"{folder} is not a directory; cannot add a run record")


def _open_folder(path: Path, root: Path | None) -> int:
    """A descriptor of ``path``'s folder: from ``root`` down without following links, or by path."""
    if root is None:
        path.parent.mkdir(parents=True, exist_ok=True)
        return os.open(path.parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _CLOEXEC)
    root_s = os.path.abspath(root)
    target = os.path.abspath(path)
    prefix = root_s.rstrip(os.sep) + os.sep
    if not target.startswith(prefix):
        raise OutsidePack(errno.EXDEV, f"{path} is not inside {root}")
    parts = split_rel(target[len(prefix):])[:-1]
    if ".." in parts:
        raise OutsidePack(errno.EXDEV, f"{path} climbs out of {root}")
    fd = os.open(root_s, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _CLOEXEC)
    try:
        for part in parts:
            nxt = _enter(fd, part)
            os.close(fd)
            fd = nxt
    except BaseException:
        os.close(fd)
        raise
    return fd


def _enter(fd: int, part: str) -> int:
    """The folder ``part`` of ``fd``, created when missing, opened without following a link."""
    try:
        try:
            return os.open(part, DIR_FLAGS, dir_fd=fd)
        except FileNotFoundError:
            with contextlib.suppress(FileExistsError):  # another writer made it meanwhile: use theirs
                os.mkdir(part, 0o777, dir_fd=fd)
            return os.open(part, DIR_FLAGS, dir_fd=fd)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
            raise OutsidePack(exc.errno, f"{part}/ is a symlink or not a folder; nothing is written through it") \
                from exc
        raise


def _write_in(folder: int, path: Path, payload: bytes, exclusive: bool, expect: FileIdentity | None) -> Path:
    name = path.name
    mode = _mode_for(folder, name)
    tmp = f".{name}.{secrets.token_hex(4)}.tmp"
    fd = os.open(tmp, _TEMP_FLAGS, 0o600, dir_fd=folder)
    try:
        try:
            os.fchmod(fd, mode)  # keep the file's mode, or the usual one for new files
            view = memoryview(payload)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        with _locked(folder, expect is not None):
            if expect is not None:
                _check_identity(folder, name, expect)
            if exclusive:
                os.link(tmp, name, src_dir_fd=folder, dst_dir_fd=folder, follow_symlinks=False)  # fails if it exists
                os.unlink(tmp, dir_fd=folder)
            else:
                os.replace(tmp, name, src_dir_fd=folder, dst_dir_fd=folder)
        with contextlib.suppress(OSError):
            os.fsync(folder)  # the rename itself survives a crash
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp, dir_fd=folder)
        raise
    return path


@contextlib.contextmanager
def _locked(folder: int, wanted: bool):  # type: ignore[no-untyped-def]
    """An exclusive lock on the folder (not a lock file: nothing extra lands in a pack) while comparing."""
    if not wanted or fcntl is None:
        yield
        return
    fcntl.flock(folder, fcntl.LOCK_EX)
    try:
        yield
    finally:
        fcntl.flock(folder, fcntl.LOCK_UN)


def _check_identity(folder: int, name: str, expect: FileIdentity) -> None:
    try:
        fd = os.open(name, FILE_FLAGS, dir_fd=folder)
    except OSError as exc:
        raise ChangedOnDisk(errno.ESTALE, f"{name} changed on disk (it is gone or became a link); not applied") \
            from exc
    try:
        st = os.fstat(fd)
        now = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
        if not stat.S_ISREG(st.st_mode) or now != (expect.device, expect.inode, expect.size, expect.mtime_ns):
            raise ChangedOnDisk(errno.ESTALE, f"{name} changed on disk; not applied")
        digest = hashlib.sha256()
        while chunk := os.read(fd, 1 << 20):
            digest.update(chunk)
        if digest.hexdigest() != expect.sha256:
            raise ChangedOnDisk(errno.ESTALE, f"{name} changed on disk; not applied")
    finally:
        os.close(fd)


def _mode_for(folder: int, name: str) -> int:
    """The existing file's permission bits, else what ``open()`` would give a new file under the umask."""
    try:
        st = os.stat(name, dir_fd=folder, follow_symlinks=False)
        if stat.S_ISREG(st.st_mode):
            return st.st_mode & 0o7777
    except OSError:
        pass
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def storage_problem(exc: OSError) -> str:
    """A sentence for a failed write: read-only, full or size-limited storage get plain words."""
    words = {errno.EROFS: "the file system is read-only", errno.ENOSPC: "no space is left on the device",
             errno.EFBIG: "the file would be larger than the size limit for this process or file system",
             errno.EDQUOT: "the disk quota is used up", errno.EACCES: "permission denied",
             errno.EPERM: "the operation is not permitted"}
    return words.get(exc.errno or 0, exc.strerror or str(exc))
