"""Fixtures for the renderer tests: packs built in memory (for property tests) and on disk."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from render_helpers import knowledge_md


@pytest.fixture
def write_pack(make_pack: Callable[..., Path]) -> Callable[..., Path]:
    """``write_pack("name", files={...}, body=..., status=...)``: a pack on disk whose name matches its folder."""

    def _write(name: str, files: dict[str, str] | None = None, body: str = "# Guide\n",
               parent: Path | None = None, **fields: Any) -> Path:
        return make_pack(name, knowledge_md(body, name=name, **fields), files or {}, parent=parent)

    return _write
