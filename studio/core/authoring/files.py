"""Files inside a pack: create one (never over another), plan and make a rename, move one to the trash.

Every path is pack-relative and must stay inside the pack (no ``..``, no absolute path, no symlink out).
Nothing is ever overwritten: a name that already exists, or differs from an existing one only by case or
Unicode form, is refused. Deleting goes to the system trash (the freedesktop trash on Linux, moved from the
checked folder's descriptor by ``freedesktop_trash``; the Recycle Bin and the macOS Trash through
``send2trash``); if the trash cannot take it, nothing is deleted.
``KNOWLEDGE.md`` itself is never renamed or deleted here (rename or delete the pack folder instead).
"""

from __future__ import annotations

import os
import re
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from studio.core.atomic import OutsidePack, make_folders, write_atomic
from studio.core.authoring.freedesktop_trash import TrashError, move_to_trash
from studio.core.authoring.names import collision, fold, name_rule_problem
from studio.core.frontmatter import MAX_KNOWLEDGE_BYTES
from studio.core.pack_fs import PackFS, Status
from studio.core.paths import is_inside, is_unsafe_pointer

MAX_NAME_BYTES = 255
MAX_REFERENCES = 50


class FileOpError(ValueError):
    """The file operation cannot be done as asked; nothing was changed. The message says why."""


@dataclass(frozen=True, slots=True)
class RenamePlan:
    """A rename checked and ready: what moves where, and the lines of ``KNOWLEDGE.md`` naming the old path."""

    pack_root: Path
    old: Path
    new: Path
    references: tuple[tuple[int, str], ...] = ()
    """(1-based line, line text) of ``KNOWLEDGE.md`` lines that mention the old pack-relative path."""

    @property
    def is_pack(self) -> bool:
        """True when the pack folder itself is renamed."""
        return self.old == self.pack_root


def target_path(pack_root: Path, relpath: str) -> Path:
    """``pack_root / relpath`` after checking that it stays inside the pack; raises FileOpError."""
    rel = relpath.strip().replace("\\", "/").rstrip("/")
    if not rel or is_unsafe_pointer(rel) or any(p in ("", ".") for p in rel.split("/")):
        raise FileOpError(f"'{relpath}' is not a path inside the pack")
    if any(not part.isprintable() for part in rel.split("/")):
        raise FileOpError("a file name cannot contain control characters")
    path = Path(pack_root) / rel
    if not is_inside(pack_root, path):
        raise FileOpError(f"'{relpath}' leads outside the pack (through a symlink)")
    return path


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a file or folder name, or None."""
    if not name or name in (".", ".."):
        return "Enter a name."
    if "/" in name or "\\" in name:
        return "A name cannot contain '/' or '\\'."
    if not name.isprintable():
        return "A name cannot contain control characters."
    if name != name.strip():
        return "A name cannot start or end with a space."
    if name.startswith("."):
        return "A name starting with '.' would be hidden; the studio skips such files."
    if len(name.encode("utf-8", "surrogatepass")) > MAX_NAME_BYTES:
        return f"The name is longer than {MAX_NAME_BYTES} bytes."
    if name == "KNOWLEDGE.md":
        return "KNOWLEDGE.md inside a pack would start a nested pack."
    return None


def create_file(pack_root: Path, relpath: str, text: str) -> Path:
    """Create ``relpath`` with ``text`` (atomically, never over an existing file); returns its path.

    Missing folders are created and the file written by descriptor from the pack root (``write_atomic`` with
    ``root``): a folder on the way that is, or is swapped for, a symlink makes nothing land anywhere.
    """
    path = _new_path(pack_root, relpath)
    try:
        return write_atomic(path, text.encode("utf-8"), exclusive=True, root=Path(pack_root))
    except FileExistsError as exc:
        raise FileOpError(f"{relpath} already exists; nothing was overwritten") from exc
    except OutsidePack as exc:
        raise FileOpError(_through_link(relpath, exc)) from exc
    except OSError as exc:
        raise FileOpError(f"{relpath} cannot be created: {exc.strerror or exc}") from exc


def create_folder(pack_root: Path, relpath: str) -> Path:
    """Create the folder ``relpath`` (and missing parents) inside the pack, by descriptor from its root."""
    path = _new_path(pack_root, relpath)
    try:
        return make_folders(Path(pack_root), _rel(pack_root, path))
    except OutsidePack as exc:
        raise FileOpError(_through_link(relpath, exc)) from exc
    except OSError as exc:
        raise FileOpError(f"{path} cannot be created: {exc.strerror or exc}") from exc


def _new_path(pack_root: Path, relpath: str) -> Path:
    """Where ``relpath`` would be created: inside the pack, with a usable name that nothing in its folder holds
    (``FileOpError`` otherwise)."""
    path = target_path(pack_root, relpath)
    problem = name_problem(path.name)
    if problem is not None:
        raise FileOpError(problem)
    _refuse_existing(pack_root, path)
    return path


def _through_link(relpath: str, exc: OSError) -> str:
    return f"'{relpath}' leads outside the pack or through a file ({exc.strerror}); nothing was created"


def _rel(pack_root: Path, path: Path) -> str:
    return Path(os.path.abspath(path)).relative_to(Path(os.path.abspath(pack_root))).as_posix()


def _refuse_existing(pack_root: Path, path: Path) -> None:
    """Refuse a name taken in its folder, also up to case or Unicode form (looked at by descriptor)."""
    rel = _rel(pack_root, path)
    parent = rel.rsplit("/", 1)[0] if "/" in rel else ""
    with PackFS(pack_root) as fs:
        if fs.lstat(rel) is not None:
            raise FileOpError(f"{path.name} already exists; nothing was overwritten")
        folder = fs.open_dir(parent)  # a physical folder only: a symlinked one is never listed
        try:
            siblings = os.listdir(folder) if folder is not None else []
        except OSError:
            siblings = []
    key = fold(path.name)
    for sibling in siblings:
        if fold(sibling) == key:
            raise FileOpError(f"'{sibling}' already exists and differs from '{path.name}' only by case or Unicode "
                              "form; many file systems treat them as the same file")


def plan_rename(pack_root: Path, path: Path, new_name: str) -> RenamePlan:
    """Check renaming ``path`` (a file or folder in the pack, or the pack folder) to ``new_name``."""
    pack_root = Path(os.path.abspath(pack_root))
    path = Path(os.path.abspath(path))
    new_name = unicodedata.normalize("NFC", new_name)
    if path == pack_root:
        rule = name_rule_problem(new_name)
        if rule is not None:
            raise FileOpError(rule.message)
        clash = (collision(new_name, pack_root.parent, exclude=pack_root)
                 if fold(new_name) != fold(pack_root.name) else None)
        if clash is not None:
            raise FileOpError(clash.message)
        return RenamePlan(pack_root, path, pack_root.parent / new_name)
    if not is_inside(pack_root, path) or path.parent == path:
        raise FileOpError(f"{path} is not inside the pack")
    if path == pack_root / "KNOWLEDGE.md":
        raise FileOpError("KNOWLEDGE.md is the pack's entry file; rename the pack folder instead")
    if not os.path.lexists(path):
        raise FileOpError(f"{path.name} no longer exists")
    problem = name_problem(new_name)
    if problem is not None:
        raise FileOpError(problem)
    new = path.parent / new_name
    if new_name != path.name and fold(new_name) != fold(path.name):
        _refuse_existing(pack_root, new)
    elif new_name == path.name:
        raise FileOpError("The new name is the same as the old one.")
    rel = path.relative_to(pack_root).as_posix()
    return RenamePlan(pack_root, path, new, _references(pack_root, rel))


def _references(pack_root: Path, rel: str) -> tuple[tuple[int, str], ...]:
    with PackFS(pack_root) as fs:  # by descriptor; a KNOWLEDGE.md that is a symlink is not read
        found = fs.read("KNOWLEDGE.md", MAX_KNOWLEDGE_BYTES, follow=False)
    if found.status is not Status.OK or found.data is None:
        return ()
    text = found.data.decode("utf-8", errors="replace")
    pattern = re.compile(re.escape(rel) + r"(?![\w.-])")
    hits = [(i + 1, line.strip()) for i, line in enumerate(text.splitlines()) if pattern.search(line)]
    return tuple(hits[:MAX_REFERENCES])


def rename(plan: RenamePlan) -> Path:
    """Make the rename in ``plan``; refuses (changing nothing) if the target appeared meanwhile.

    Inside the pack the rename is made relative to the folder's descriptor, reached from the pack root without
    following a link: a folder swapped for a symlink meanwhile moves nothing out of the pack.
    """
    if plan.is_pack:
        try:
            folder = os.open(plan.old.parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        except OSError as exc:
            raise FileOpError(f"{plan.old.name} cannot be renamed: {exc.strerror or exc}") from exc
        try:
            _rename_in(folder, plan.old.name, plan.new.name)
        finally:
            os.close(folder)
        return plan.new
    parent = _rel(plan.pack_root, plan.old.parent) if plan.old.parent != plan.pack_root else ""
    with PackFS(plan.pack_root) as fs:
        held = fs.open_dir(parent)
        if held is None:
            raise FileOpError(f"{plan.old.name} cannot be renamed: its folder is a symlink or gone; nothing was "
                              "renamed")
        _rename_in(held, plan.old.name, plan.new.name)
    return plan.new


def _rename_in(folder: int, old: str, new: str) -> None:
    """Rename ``old`` to ``new`` in the open ``folder`` (a case-only change through a temporary name)."""
    before = _lstat_in(folder, old)
    if before is None:
        raise FileOpError(f"{old} no longer exists; nothing was renamed")
    case_only = fold(old) == fold(new)
    after = _lstat_in(folder, new)
    if after is not None and not (case_only and (after.st_dev, after.st_ino) == (before.st_dev, before.st_ino)):
        raise FileOpError(f"{new} already exists; nothing was renamed")
    try:
        if case_only:  # via a temporary name, so case-insensitive file systems see the change
            step = f".{old}.renaming"
            os.rename(old, step, src_dir_fd=folder, dst_dir_fd=folder)
            os.rename(step, new, src_dir_fd=folder, dst_dir_fd=folder)
        else:
            os.rename(old, new, src_dir_fd=folder, dst_dir_fd=folder)
    except OSError as exc:
        raise FileOpError(f"{old} cannot be renamed: {exc.strerror or exc}") from exc


def _lstat_in(folder: int, name: str) -> os.stat_result | None:
    try:
        return os.stat(name, dir_fd=folder, follow_symlinks=False)
    except (OSError, ValueError):
        return None


def trash(pack_root: Path, path: Path) -> None:
    """Move ``path`` (a file or folder in the pack, or the pack folder) to the system trash."""
    pack_root = Path(os.path.abspath(pack_root))
    path = Path(os.path.abspath(path))
    if path != pack_root and not is_inside(pack_root, path):
        raise FileOpError(f"{path} is not inside the pack; nothing was deleted")
    if path == pack_root / "KNOWLEDGE.md":
        raise FileOpError("KNOWLEDGE.md is the pack's entry file; delete the pack folder instead")
    if not os.path.lexists(path):
        raise FileOpError(f"{path.name} no longer exists")
    if sys.platform in ("darwin", "win32"):
        _trash_with_send2trash(path)
    else:
        _trash_by_descriptor(pack_root, path)


def _trash_with_send2trash(path: Path) -> None:
    """macOS and Windows: their own trash APIs, by path."""
    from send2trash import send2trash  # type: ignore[import-untyped]  # on use: the checks never need it
    from send2trash.exceptions import TrashPermissionError  # type: ignore[import-untyped]

    try:
        send2trash(str(path))
    except (TrashPermissionError, OSError) as exc:
        raise FileOpError(f"{path.name} could not be moved to the trash ({exc}); nothing was deleted") from exc


def _trash_by_descriptor(pack_root: Path, path: Path) -> None:
    """Move ``path`` to the freedesktop trash from its folder's descriptor, reached from the pack root without
    following a link: a folder swapped for a symlink after the checks above moves nothing from outside the pack
    (``freedesktop_trash``). The pack folder itself is moved from its parent, outside the pack."""
    if path == pack_root:
        try:
            folder = os.open(pack_root.parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        except OSError as exc:
            raise FileOpError(f"{path.name} cannot be moved to the trash: {exc.strerror or exc}") from exc
        try:
            move_to_trash(folder, path.name, path)
        except TrashError as exc:
            raise FileOpError(f"{exc}; nothing was deleted") from exc
        finally:
            os.close(folder)
        return
    with PackFS(pack_root) as fs:
        held = fs.open_dir(_rel(pack_root, path.parent) if path.parent != pack_root else "")
        if held is None:
            raise FileOpError(f"{path.name} cannot be moved to the trash: its folder is a symlink or gone; "
                              "nothing was deleted")
        if _lstat_in(held, path.name) is None:
            raise FileOpError(f"{path.name} no longer exists")
        try:
            move_to_trash(held, path.name, path)
        except TrashError as exc:
            raise FileOpError(f"{exc}; nothing was deleted") from exc
