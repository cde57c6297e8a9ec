"""Files inside a pack: create one (never over another), plan and make a rename, move one to the trash.

Every path is pack-relative and must stay inside the pack (no ``..``, no absolute path, no symlink out).
Nothing is ever overwritten: a name that already exists, or differs from an existing one only by case or
Unicode form, is refused. Deleting goes to the system trash (``send2trash``: the freedesktop trash on
Linux, the Recycle Bin, the macOS Trash); if the trash cannot take it, nothing is deleted.
``KNOWLEDGE.md`` itself is never renamed or deleted here (rename or delete the pack folder instead).
"""

from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from studio.core.atomic import write_atomic
from studio.core.authoring.names import collision, fold, name_rule_problem
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
    """Create ``relpath`` with ``text`` (atomically, never over an existing file); returns its path."""
    path = target_path(pack_root, relpath)
    problem = name_problem(path.name)
    if problem is not None:
        raise FileOpError(problem)
    _refuse_existing(path)
    _make_folders(pack_root, path.parent)
    try:
        return write_atomic(path, text.encode("utf-8"), exclusive=True)
    except FileExistsError as exc:
        raise FileOpError(f"{relpath} already exists; nothing was overwritten") from exc
    except OSError as exc:
        raise FileOpError(f"{relpath} cannot be created: {exc.strerror or exc}") from exc


def create_folder(pack_root: Path, relpath: str) -> Path:
    """Create the folder ``relpath`` (and missing parents) inside the pack."""
    path = target_path(pack_root, relpath)
    problem = name_problem(path.name)
    if problem is not None:
        raise FileOpError(problem)
    _refuse_existing(path)
    _make_folders(pack_root, path)
    return path


def _make_folders(pack_root: Path, folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError as exc:
        raise FileOpError(f"{folder.name} exists and is not a folder") from exc
    except OSError as exc:
        raise FileOpError(f"{folder} cannot be created: {exc.strerror or exc}") from exc
    if not is_inside(pack_root, folder):
        raise FileOpError(f"{folder} leads outside the pack (through a symlink)")


def _refuse_existing(path: Path) -> None:
    if os.path.lexists(path):
        raise FileOpError(f"{path.name} already exists; nothing was overwritten")
    key = fold(path.name)
    try:
        siblings = os.listdir(path.parent) if path.parent.is_dir() else []
    except OSError:
        siblings = []
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
        _refuse_existing(new)
    elif new_name == path.name:
        raise FileOpError("The new name is the same as the old one.")
    rel = path.relative_to(pack_root).as_posix()
    return RenamePlan(pack_root, path, new, _references(pack_root, rel))


def _references(pack_root: Path, rel: str) -> tuple[tuple[int, str], ...]:
    try:
        text = (pack_root / "KNOWLEDGE.md").read_text("utf-8", errors="replace")
    except OSError:
        return ()
    pattern = re.compile(re.escape(rel) + r"(?![\w.-])")
    hits = [(i + 1, line.strip()) for i, line in enumerate(text.splitlines()) if pattern.search(line)]
    return tuple(hits[:MAX_REFERENCES])


def rename(plan: RenamePlan) -> Path:
    """Make the rename in ``plan``; refuses (changing nothing) if the target appeared meanwhile."""
    if not os.path.lexists(plan.old):
        raise FileOpError(f"{plan.old.name} no longer exists; nothing was renamed")
    case_only = fold(plan.old.name) == fold(plan.new.name)
    if os.path.lexists(plan.new) and not (case_only and _same(plan.old, plan.new)):
        raise FileOpError(f"{plan.new.name} already exists; nothing was renamed")
    try:
        if case_only:  # via a temporary name, so case-insensitive file systems see the change
            step = plan.old.with_name(f".{plan.old.name}.renaming")
            os.rename(plan.old, step)
            os.rename(step, plan.new)
        else:
            os.rename(plan.old, plan.new)
    except OSError as exc:
        raise FileOpError(f"{plan.old.name} cannot be renamed: {exc.strerror or exc}") from exc
    return plan.new


def _same(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


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
    from send2trash import send2trash  # type: ignore[import-untyped]  # on use: the checks never need it
    from send2trash.exceptions import TrashPermissionError  # type: ignore[import-untyped]

    try:
        send2trash(str(path))
    except (TrashPermissionError, OSError) as exc:
        raise FileOpError(f"{path.name} could not be moved to the trash ({exc}); nothing was deleted") from exc
