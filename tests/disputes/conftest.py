from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from studio.core.resources import examples_dir


@pytest.fixture
def espresso(tmp_path: Path) -> Path:
    """A writable copy of the Northwind example: its source map has ``nw-boiler-volumes`` (0.8 L) compiled into
    ``compiled/facts.md`` and ``compiled/splits/product-brief/specs.md``."""
    target = tmp_path / "northwind-espresso"
    shutil.copytree(examples_dir() / "northwind-espresso", target)
    return target
