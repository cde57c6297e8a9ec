"""Fixtures for the resolver tests: packs built per test in a temp dir."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from resolver_packs import DOC_FIRST_FILES, knowledge

from studio.core.model import Pack
from studio.core.pack import load_pack


@pytest.fixture
def pack_at(make_pack: Callable[..., Path]) -> Callable[..., Pack]:
    """Build a pack directory and load it: ``pack_at("name", knowledge_text, files)``."""

    def _build(name: str, text: str, files: dict[str, str | bytes] | None = None, parent: Path | None = None) -> Pack:
        return load_pack(make_pack(name, text, files or {}, parent=parent))

    return _build


@pytest.fixture
def doc_first(pack_at: Callable[..., Pack]) -> Pack:
    """A document-first pack with splits, core views, sources, a source map and non-runtime folders."""
    return pack_at("falcon-kettle", knowledge("falcon-kettle", primary="documents/brief.md"), DOC_FIRST_FILES)
