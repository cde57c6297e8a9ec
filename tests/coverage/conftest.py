"""The ``planted`` fixture (see ``coverage_planted``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from coverage_planted import plant


@pytest.fixture
def planted(tmp_path: Path) -> Path:
    return plant(tmp_path)
