"""Fixtures for the eval tests: copies of bundled examples and small packs built per test."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))  # field_guide: the generated 200-split pack


@pytest.fixture
def example(tmp_path: Path) -> Callable[[str], Path]:
    """A writable copy of a bundled example pack."""

    def _copy(name: str) -> Path:
        target = tmp_path / name
        shutil.copytree(EXAMPLES / name, target)
        return target

    return _copy
