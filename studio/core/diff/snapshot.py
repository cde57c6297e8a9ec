"""A version of a pack to compare: a folder on disk, or the pack's folder at a git ref written to a private
temporary folder, so that both go through the same loader and validation as any pack on disk.

A ref is written (never checked out) under a fresh ``tempfile.mkdtemp`` folder (mode 0700, outside the
repository), as ``<tmp>/<pack folder name>/...``: files mode 0600 (0700 when git records them executable),
symlinks as symlinks with the target git stores (written last, so nothing is ever written through one; the
loader then treats a link that leads out of the pack as it treats one in a working tree: never followed).
Submodules and names that are not UTF-8 or not plain paths are left out and noted. ``Snapshot.close``
removes the folder; use it as a context manager so an error removes it too.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from studio.core.diff.git_tree import Git, PackAtRef
from studio.core.diff.trouble import DiffTrouble


@dataclass(slots=True)
class Snapshot:
    """One version of a pack, readable as a folder at ``root``."""

    root: Path
    label: str
    """What the report calls it: the folder as given, or ``REF (commit)``."""
    display_root: Path
    """Where the pack lives for a user (a ref's snapshot shows the working-tree folder, not the temp folder)."""
    notes: list[str] = field(default_factory=list)
    _temp: str | None = None

    def close(self) -> None:
        if self._temp is not None:
            shutil.rmtree(self._temp, ignore_errors=True)
            self._temp = None

    def __enter__(self) -> Snapshot:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()


def folder_snapshot(folder: Path) -> Snapshot:
    """The pack as it is on disk (``--to`` left out means the working tree)."""
    if not folder.is_dir():
        raise DiffTrouble(f"{folder}: not a folder")
    root = Path(os.path.abspath(folder))
    return Snapshot(root, str(folder), root)


def ref_snapshot(folder: Path, ref: str) -> Snapshot:
    """The pack at ``folder`` as it was at ``ref``, written to a private temporary folder."""
    folder = Path(os.path.abspath(folder))
    git = Git.around(folder)
    prefix = git.prefix_of(folder)
    at = git.pack_at(ref, prefix)
    blobs = git.read_blobs(at.entries)
    temp = tempfile.mkdtemp(prefix="pack-studio-diff-")
    try:
        if _inside(Path(temp), git.top):
            raise DiffTrouble(f"the temporary folder {temp} lies inside the repository; set TMPDIR elsewhere")
        name = folder.name or git.top.name
        root = Path(temp) / name
        os.mkdir(root, 0o700)
        notes = list(at.notes)
        _write(git, root, at, blobs, notes)
    except BaseException:
        shutil.rmtree(temp, ignore_errors=True)
        raise
    return Snapshot(root, at.label, folder, notes, temp)


def _write(git: Git, root: Path, at: PackAtRef, blobs: dict[str, bytes], notes: list[str]) -> None:
    links = []
    for entry in at.entries:
        data = blobs.get(entry.object_id)  # None: a large blob, streamed to its file below
        if entry.mode == "120000":
            links.append((entry.path, data or b""))
            continue
        target = root.joinpath(*entry.path.split("/"))
        try:
            _make_dirs(root, target.parent)
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0),
                         0o700 if entry.mode == "100755" else 0o600)
            with os.fdopen(fd, "wb") as out:
                if data is None:
                    git.copy_blob(entry.object_id, out)
                else:
                    out.write(data)
        except FileExistsError:
            notes.append(f"{entry.path} appears twice at {at.ref} (or differs only in case): the second is left out")
        except OSError as exc:
            notes.append(f"{entry.path} at {at.ref} could not be written for the comparison: {exc.strerror}")
    for path, data in links:  # last: no file is ever written through a link
        link = root.joinpath(*path.split("/"))
        try:
            text = data[:4096].decode("utf-8")
            if "\0" in text or len(data) > 4096:
                raise ValueError
        except (UnicodeDecodeError, ValueError):
            notes.append(f"{path} is a symlink at {at.ref} whose target is not a plain name: left out")
            continue
        try:
            _make_dirs(root, link.parent)
            os.symlink(text, link)
        except FileExistsError:
            notes.append(f"{path} appears twice at {at.ref}: the symlink is left out")
        except (OSError, NotImplementedError) as exc:
            notes.append(f"{path} is a symlink at {at.ref} that cannot be made here: {exc}; left out")


def _make_dirs(root: Path, folder: Path) -> None:
    """Create ``folder`` below ``root``; a part that exists as a file or link (a crafted tree) is an error."""
    current = root
    for part in folder.relative_to(root).parts:
        current = current / part
        try:
            os.mkdir(current, 0o700)
        except FileExistsError:
            if current.is_symlink() or not current.is_dir():
                raise NotADirectoryError(20, "a file and a folder share this name", str(current)) from None


def _inside(path: Path, top: Path) -> bool:
    real, real_top = os.path.realpath(path), os.path.realpath(top)
    return real == real_top or real.startswith(real_top.rstrip(os.sep) + os.sep)
