"""Where the bundled example packs live (the built-in discovery scope)."""

from __future__ import annotations

from pathlib import Path


def builtin_examples_dir() -> Path:
    """``resources/examples`` of the source checkout (the app runs from an editable install)."""
    return Path(__file__).resolve().parents[2] / "resources" / "examples"
