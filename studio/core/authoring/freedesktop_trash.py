"""Moving one entry of an open folder to the freedesktop trash, by descriptor (Linux and the other free desktops).

``send2trash`` moves by path: between the studio's check ("this is a file inside the pack") and its rename, a
folder on the way could be swapped for a symlink, and the file the link leads to (outside the pack) would go to
the trash instead. Here the caller hands over the folder it checked, as a descriptor reached without following
links, and the entry is renamed from that descriptor into the trash's ``files/`` folder, so what moves is what
was checked. What the trash needs besides is written as the freedesktop.org Trash specification 1.0 asks:

- the trash is ``$XDG_DATA_HOME/Trash`` (``~/.local/share/Trash``) when the entry is on that device, otherwise
  ``$topdir/.Trash-$uid`` on the entry's own file system (a rename cannot cross devices, and copying is not a
  move: when neither works, nothing is moved);
- ``info/NAME.trashinfo`` is created first, exclusively (that reserves NAME in ``files/``), holding the original
  path (percent-encoded) and the deletion time; if the rename then fails, it is removed again.

macOS and Windows keep ``send2trash``, which calls their own trash APIs.
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path
from urllib.parse import quote

MAX_NAME_TRIES = 1000


class TrashError(OSError):
    """The entry could not be moved to a trash; nothing was moved."""


def move_to_trash(folder_fd: int, name: str, original: Path) -> Path:
    """Rename ``name`` inside the open folder ``folder_fd`` into the trash; ``original`` is its absolute path,
    recorded for "Restore". Returns where it went. Raises ``TrashError`` (nothing moved) when it cannot."""
    try:
        device = os.stat(name, dir_fd=folder_fd, follow_symlinks=False).st_dev
    except OSError as exc:
        raise TrashError(f"{name} no longer exists") from exc
    trash = _trash_for(device, original)
    files_fd = _open_private_dir(trash / "files")
    info_fd = _open_private_dir(trash / "info")
    try:
        stored, info_name = _reserve(info_fd, files_fd, name, original)
        try:
            os.rename(name, stored, src_dir_fd=folder_fd, dst_dir_fd=files_fd)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.unlink(info_name, dir_fd=info_fd)
            raise TrashError(f"{name} could not be moved to {trash} ({exc.strerror or exc})") from exc
    finally:
        os.close(files_fd)
        os.close(info_fd)
    return trash / "files" / stored


def _trash_for(device: int, original: Path) -> Path:
    """The home trash when it is on ``device``, else ``$topdir/.Trash-$uid`` of that file system."""
    data = os.environ.get("XDG_DATA_HOME", "").strip()
    base = Path(data) if data and os.path.isabs(data) else Path.home() / ".local" / "share"
    home_trash = base / "Trash"
    probe = home_trash
    while not probe.exists() and probe != probe.parent:  # the trash may not exist yet: its nearest parent
        probe = probe.parent
    with contextlib.suppress(OSError):
        if os.stat(probe).st_dev == device:
            return home_trash
    top = _mount_point(original.parent)
    if top is None:
        raise TrashError(f"no trash on the file system of {original}; nothing was moved")
    return top / f".Trash-{os.getuid()}"


def _mount_point(path: Path) -> Path | None:
    probe = Path(os.path.abspath(path))
    for _ in range(4096):  # bounded: a path has fewer parts than this
        if os.path.ismount(probe):
            return probe
        if probe == probe.parent:
            return None
        probe = probe.parent
    return None


def _open_private_dir(path: Path) -> int:
    """The folder at ``path`` (made with mode 0700 when missing), opened without following a final symlink."""
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        return os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError as exc:
        raise TrashError(f"the trash folder {path} cannot be used ({exc.strerror or exc})") from exc


def _reserve(info_fd: int, files_fd: int, name: str, original: Path) -> tuple[str, str]:
    """Create ``info/<stored>.trashinfo`` exclusively for the first ``stored`` name free in both folders;
    return both names."""
    stem, dot, suffix = name.rpartition(".") if not name.startswith(".") and "." in name else (name, "", "")
    deleted = time.strftime("%Y-%m-%dT%H:%M:%S")
    body = f"[Trash Info]\nPath={quote(os.fsencode(str(original)), safe='/')}\nDeletionDate={deleted}\n"
    for attempt in range(MAX_NAME_TRIES):
        stored = name if attempt == 0 else f"{stem} {attempt + 1}{dot}{suffix}"
        info_name = f"{stored}.trashinfo"
        try:
            fd = os.open(info_name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600, dir_fd=info_fd)
        except FileExistsError:
            continue
        except OSError as exc:
            raise TrashError(f"the trash cannot record {name} ({exc.strerror or exc})") from exc
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(body)
        if _exists_in(files_fd, stored):  # left in files/ without its info by some other program
            os.unlink(info_name, dir_fd=info_fd)
            continue
        return stored, info_name
    raise TrashError(f"the trash holds {MAX_NAME_TRIES} entries named like {name}; nothing was moved")


def _exists_in(folder_fd: int, name: str) -> bool:
    try:
        os.stat(name, dir_fd=folder_fd, follow_symlinks=False)
    except FileNotFoundError:
        return False
    return True
