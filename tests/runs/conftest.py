"""Fixtures for the runs/evidence/review tests: small packs with hand-made runs/ folders."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from runs_support import knowledge_text


@pytest.fixture
def runs_pack(make_pack: Callable[..., Path]) -> Callable[..., Path]:
    """``runs_pack({"runs/x.json": {...} or "raw text"}, extra_files)`` -> pack root."""

    def _make(records: dict[str, Any], files: dict[str, str | bytes] | None = None, name: str = "demo",
              knowledge: str | None = None) -> Path:
        payload: dict[str, str | bytes] = {
            "documents/brief.md": "# Brief\n\nThe widget is blue.\n",
            "compiled/facts.md": "- The widget is blue. [source: sources/notes.md#L2]\n",
            "sources/notes.md": "# Notes\nThe widget is blue.\nIt weighs 2 kg.\n",
        }
        for rel, value in records.items():
            payload[rel] = value if isinstance(value, str | bytes) else json.dumps(value, indent=2)
        payload.update(files or {})
        return make_pack(name, knowledge or knowledge_text(name), payload)

    return _make
