"""Writing a planned pack all at once or not at all: built beside the target, validated, renamed into place.

``create_pack`` never writes over anything (the target is checked again just before the rename), and on
any failure it removes what it made, the staging folder and any parent folders it had to create, so the
target folder is left as it was.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from studio.core.atomic import make_folders, write_atomic
from studio.core.authoring.new_pack import NewPackError, PackPlan, target_problem
from studio.core.diagnostics import Diagnostic, Severity


@dataclass(frozen=True, slots=True)
class CreatedPack:
    """A pack just created: its folder and its findings under full validation (infos such as status-draft)."""

    root: Path
    diagnostics: list[Diagnostic]


def create_pack(plan: PackPlan) -> CreatedPack:
    """Write ``plan`` all at once: build beside the target, validate, rename into place. Never overwrites."""
    into = plan.target.parent
    target_problem(plan.name, into, plan.known)  # again: the folder may have changed since the preview
    made = _make_parents(into)
    staging: Path | None = None
    try:
        staging = Path(tempfile.mkdtemp(prefix=f".{plan.name}.", suffix=".new", dir=into))
        root = staging / plan.name
        write_tree(root, plan)
        findings = check_built(root)
        if os.path.lexists(plan.target):
            raise NewPackError(f"{plan.target} appeared while the pack was being built; nothing was changed",
                               "exists")
        os.rename(root, plan.target)
    except NewPackError:
        _undo(staging, made)
        raise
    except OSError as exc:
        _undo(staging, made)
        raise NewPackError(f"the pack cannot be created in {into}: {exc.strerror or exc}; nothing was changed",
                           "environment") from exc
    _remove_dir(staging)
    return CreatedPack(plan.target, findings)


def write_tree(root: Path, plan: PackPlan) -> None:
    """Write the plan's folders and files under ``root`` (which must not exist yet).

    By descriptor from ``root`` down (``atomic``), each file created exclusively: a folder of the new pack
    swapped for a symlink while it is built makes nothing land outside it (OutsidePack, an OSError).
    """
    os.mkdir(root)  # the usual mode under the umask, not mkdtemp's 0700
    for rel in plan.folders:
        make_folders(root, rel)
    for rel, text in plan.files.items():
        write_atomic(root / rel, text.encode("utf-8"), exclusive=True, root=root)


def check_built(root: Path) -> list[Diagnostic]:
    """Full validation of the pack built at ``root``; raises NewPackError if it has an error."""
    from studio.core.pack import load_pack  # the checks are only needed once something is built

    pack = load_pack(root, content=True)
    errors = [d for d in pack.diagnostics if d.severity is Severity.ERROR]
    if errors:
        raise NewPackError("the new pack would not validate: " + "; ".join(f"{d.code}: {d.message}" for d in errors))
    return list(pack.diagnostics)


def preview_findings(plan: PackPlan) -> list[Diagnostic]:
    """What full validation will say about the planned pack, built in a private temporary folder."""
    with tempfile.TemporaryDirectory(prefix="pack-studio-preview-") as tmp:
        root = Path(tmp) / plan.name
        write_tree(root, plan)
        from studio.core.pack import load_pack

        return list(load_pack(root, content=True).diagnostics)


def _make_parents(folder: Path) -> list[Path]:
    """Create ``folder`` and missing parents; return the ones created, outermost first."""
    missing: list[Path] = []
    for candidate in (folder, *folder.parents):
        if os.path.isdir(candidate):
            break
        missing.append(candidate)
    made: list[Path] = []
    try:
        for path in reversed(missing):
            os.mkdir(path)
            made.append(path)
    except OSError as exc:
        _undo(None, made)
        raise NewPackError(f"{folder} cannot be created: {exc.strerror or exc}; nothing was changed",
                           "environment") from exc
    return made


def _undo(staging: Path | None, made: list[Path]) -> None:
    if staging is not None:
        shutil.rmtree(staging, ignore_errors=True)
    for path in reversed(made):
        _remove_dir(path)


def _remove_dir(path: Path | None) -> None:
    if path is None:
        return
    with contextlib.suppress(OSError):  # not empty or already gone: left as it is
        os.rmdir(path)

