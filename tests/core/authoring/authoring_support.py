"""Shared by the authoring tests: the broken-pack fixtures and a copy helper."""

from __future__ import annotations

import shutil
from pathlib import Path

BROKEN = Path(__file__).resolve().parents[2] / "data" / "authoring" / "broken"
CASES = sorted(p.name for p in BROKEN.iterdir() if p.is_dir() and p.name != "clean")


def copy_case(case: str, dest: Path) -> Path:
    """A private copy of one broken pack (its folder name kept: the name check depends on it)."""
    target = dest / case
    shutil.copytree(BROKEN / case, target)
    return target


def knowledge(root: Path) -> str:
    return (root / "KNOWLEDGE.md").read_bytes().decode("utf-8")


def tree_digest(root: Path) -> dict[str, bytes | None]:
    """Every file (with its bytes) and folder (None) under ``root``: equal digests mean nothing changed."""
    out: dict[str, bytes | None] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        out[rel] = path.read_bytes() if path.is_file() and not path.is_symlink() else None
    return out
