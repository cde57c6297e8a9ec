"""Fixtures for the renderer tests: packs built in memory (for property tests) and on disk."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from studio.core.model import Frontmatter, KnowledgeFile, Pack, Scope


def pack_in_memory(root: Path, fields: dict[str, Any], body: str = "") -> Pack:
    """A loaded-looking Pack without touching the disk (hypothesis runs it thousands of times).

    It has no diagnostics, so it loads and (unless archived) is listed in the catalog.
    """
    fm = Frontmatter(data=fields, positions={}, start_line=1, end_line=2, raw="")
    knowledge = KnowledgeFile(frontmatter=fm, body=body, body_start_line=3, text=body)
    return Pack(root=root, scope=Scope.EXPLICIT, knowledge=knowledge)


def knowledge_md(body: str = "# Guide\n", **fields: Any) -> str:
    """``KNOWLEDGE.md`` text with the given frontmatter fields (defaults: a ready wiki-first pack)."""
    data: dict[str, Any] = {
        "name": "demo", "description": "Demo facts. Use when testing.", "type": "domain-reference",
        "status": "ready", "profile": "wiki-first",
    }
    data.update(fields)
    for key in [k for k, v in data.items() if v is None]:
        del data[key]
    return "---\n" + yaml.safe_dump(data, allow_unicode=True, sort_keys=False) + "---\n" + body


@pytest.fixture
def write_pack(make_pack: Callable[..., Path]) -> Callable[..., Path]:
    """``write_pack("name", files={...}, body=..., status=...)``: a pack on disk whose name matches its folder."""

    def _write(name: str, files: dict[str, str] | None = None, body: str = "# Guide\n",
               parent: Path | None = None, **fields: Any) -> Path:
        return make_pack(name, knowledge_md(body, name=name, **fields), files or {}, parent=parent)

    return _write
