"""The `search` command on an index damaged between two runs (issue #35, item 3): a real process, a real SQLite
file with a table dropped by hand. The index's own healing on every path, and processes building one index at
once, are covered in ``test_index_heals.py``."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from search_packs import knowledge

from studio.core.search import SearchIndex
from studio.core.search.store import INDEX_FILE


@pytest.fixture
def many_packs(make_pack: Callable[..., Path], tmp_path: Path) -> list[Path]:
    return [make_pack(f"pack-{i}", knowledge(f"pack-{i}", f"Pack number {i} about kettles."), {
        f"wiki/page-{j}.md": f"# Page {j}\n\nKettle fact {i}-{j}: boil water.\n" for j in range(6)
    }, parent=tmp_path / "packs") for i in range(24)]


def _built(cache: Path, packs: list[Path]) -> None:
    index = SearchIndex.open(cache)
    index.refresh(packs)
    index.close()


def test_the_cli_search_survives_a_dropped_table(many_packs: list[Path], tmp_path: Path) -> None:
    cache = tmp_path / "cli-cache"
    _built(cache, many_packs)
    conn = sqlite3.connect(cache / INDEX_FILE)
    conn.execute("DROP TABLE sections")
    conn.commit()
    conn.close()
    proc = subprocess.run([sys.executable, "-m", "studio", "search", "boil", str(tmp_path / "packs"),
                           "--cache-dir", str(cache), "--no-cache"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "search-index-rebuilt" in proc.stderr or "was not usable" in proc.stderr
    assert "page-" in proc.stdout
