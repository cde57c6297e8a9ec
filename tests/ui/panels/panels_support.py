"""Helpers for the panel tests (set-up only; no assertions)."""

from __future__ import annotations

from pathlib import Path

from studio.core.model import Pack
from studio.core.pack import load_pack


def set_status(root: Path, status: str) -> Pack:
    """Rewrite the ``status:`` line of a copied pack and reload it (test set-up only)."""
    path = root / "KNOWLEDGE.md"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines = [f"status: {status}\n" if line.startswith("status:") else line for line in lines]
    path.write_text("".join(lines), encoding="utf-8")
    return load_pack(root)
