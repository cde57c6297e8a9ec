"""The search index shared by several processes, and damaged after it was opened (issue #35, items 2 and 3).

Both are real: real processes building one empty index at once, and a real SQLite file whose tables or pages
are broken by hand between two runs.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from search_packs import knowledge

from studio.core.search import SearchIndex
from studio.core.search.store import INDEX_FILE

_BUILD = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from studio.core.search import SearchIndex
    cache, go, *roots = sys.argv[1:]
    while not Path(go).exists():  # every process starts its refresh at the same moment
        time.sleep(0.005)
    index = SearchIndex.open(cache)
    index.refresh(roots)
    print(index.info().files)
    index.close()
""")


def _content(cache: Path) -> tuple[list[tuple[str, str, bytes]], int]:
    """What the index holds: (pack root, path, digest) of every file, and the number of sections."""
    conn = sqlite3.connect(cache / INDEX_FILE)
    files = sorted(conn.execute("SELECT p.root, f.path, f.digest FROM files f JOIN packs p ON p.id = f.pack_id"))
    sections = conn.execute("SELECT count(*) FROM sections").fetchone()[0]
    conn.close()
    return files, sections


@pytest.fixture
def many_packs(make_pack: Callable[..., Path], tmp_path: Path) -> list[Path]:
    packs = []
    for i in range(24):
        packs.append(make_pack(f"pack-{i}", knowledge(f"pack-{i}", f"Pack number {i} about kettles."), {
            f"wiki/page-{j}.md": f"# Page {j}\n\nKettle fact {i}-{j}: boil water.\n" for j in range(6)
        }, parent=tmp_path / "packs"))
    return packs


def test_processes_building_one_empty_index_at_once_all_succeed_and_agree(
        many_packs: list[Path], tmp_path: Path) -> None:
    cache, go = tmp_path / "shared-cache", tmp_path / "go"
    roots = [str(p) for p in many_packs]
    procs = [subprocess.Popen([sys.executable, "-c", _BUILD, str(cache), str(go), *roots],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(4)]
    go.touch()
    outcomes = [p.communicate(timeout=120) for p in procs]
    for proc, (out, err) in zip(procs, outcomes, strict=True):
        assert proc.returncode == 0, err
        assert "Traceback" not in err
        assert int(out.strip()) == len(roots) * 7  # each process sees the whole index once it is done
    shared = _content(cache)

    alone = tmp_path / "alone-cache"
    index = SearchIndex.open(alone)
    index.refresh(roots)
    index.close()
    assert shared == _content(alone)  # the same files, digests and sections as one process alone makes


def _built(cache: Path, packs: list[Path]) -> None:
    index = SearchIndex.open(cache)
    index.refresh(packs)
    index.close()


@pytest.mark.parametrize("damage", ["sections table dropped", "files table dropped", "pages overwritten"])
def test_an_index_damaged_after_opening_is_rebuilt_at_refresh_with_a_notice(
        many_packs: list[Path], cache_dir: Path, damage: str) -> None:
    _built(cache_dir, many_packs)
    path = cache_dir / INDEX_FILE
    if damage == "pages overwritten":
        conn = sqlite3.connect(path)
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page = conn.execute("PRAGMA page_size").fetchone()[0]
        conn.close()
        data = bytearray(path.read_bytes())
        for start in range(2 * page, len(data) - page, 3 * page):  # the header page stays intact
            data[start:start + page] = b"\xa5" * page
        path.write_bytes(bytes(data))
    else:
        conn = sqlite3.connect(path)
        conn.execute(f"DROP TABLE {damage.split()[0]}")
        conn.commit()
        conn.close()

    index = SearchIndex.open(cache_dir)
    report = index.refresh(many_packs)  # no traceback: the damage is found on the way and the index made again
    assert "search-index-rebuilt" in {n.code for n in index.notices}
    assert report.indexed == len(many_packs) * 7
    hits = index.search("boil").hits
    assert hits and all(h.line >= 1 for h in hits)
    assert index.info().files == len(many_packs) * 7
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
