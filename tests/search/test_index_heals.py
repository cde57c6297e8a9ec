"""The index shared by processes that start at once, and an index damaged after it was made (issue #35, 2 and 3).

Real processes build one empty index at the same moment and must leave exactly the index one process leaves
alone; an index whose header is intact but whose pages are bad, or which lost a table, is rebuilt with a notice
on whichever call meets the damage first (open, refresh, update, search, info), never a traceback.
"""

from __future__ import annotations

import os
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

PROCESSES = 4
PACKS = 12
PAGES = 60

_BUILD = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from studio.core.search import SearchIndex
    cache, start, *roots = sys.argv[1:]
    while not Path(start).exists():  # every process waits here, then all build at once
        time.sleep(0.002)
    index = SearchIndex.open(cache)
    report = index.refresh(roots)
    assert index.search("kettle").hits
    index.close()
    print(report.packs)
""")


@pytest.fixture
def workspace(make_pack: Callable[..., Path], tmp_path: Path) -> list[Path]:
    """Twelve packs of 60 pages each: enough rows that the processes' transactions overlap."""
    packs = []
    for p in range(PACKS):
        pages = {f"wiki/page{n:02d}.md": f"# Page {n} of pack {p}\n\nThe kettle boils water number {n}.\n\n"
                                          f"## Detail\n\n{'descaling citric ' * 40}\n" for n in range(PAGES)}
        pages["compiled/voice.md"] = "# 声音\n\n林悦小时候跟着外公在茶山上跑。\n"
        packs.append(make_pack(f"pack{p}", knowledge(f"pack{p}", "A kettle pack."), pages,
                               parent=tmp_path / "packs"))
    return packs


def _contents(cache: Path) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    """What an index holds, without its row ids (which depend on who wrote first)."""
    conn = sqlite3.connect(cache / INDEX_FILE)
    try:
        files = sorted(conn.execute("SELECT p.root, f.path, f.layer, f.size, f.digest FROM files f "
                                    "JOIN packs p ON p.id = f.pack_id"))
        sections = sorted(conn.execute("SELECT p.root, f.path, s.kind, s.heading, s.start_line, s.end_line "
                                       "FROM sections s JOIN files f ON f.id = s.file_id "
                                       "JOIN packs p ON p.id = s.pack_id"))
    finally:
        conn.close()
    return files, sections


def _hits(cache: Path, query: str) -> list[tuple[str, str, int]]:
    index = SearchIndex.open(cache)
    try:
        return sorted((h.root, h.path, h.line) for h in index.search(query, limit=1000).hits)
    finally:
        index.close()


@pytest.mark.parametrize("attempt", range(3))
def test_processes_building_one_empty_index_at_once_all_succeed_and_agree(
        workspace: list[Path], tmp_path: Path, attempt: int) -> None:
    alone = tmp_path / "alone"
    index = SearchIndex.open(alone)
    index.refresh(workspace)
    index.close()
    shared = tmp_path / "shared"
    start = tmp_path / "start"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    procs = [subprocess.Popen([sys.executable, "-c", _BUILD, str(shared), str(start), *map(str, workspace)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
             for _ in range(PROCESSES)]
    start.touch()
    outcomes = [(*p.communicate(timeout=120), p.returncode) for p in procs]  # reads and closes both pipes
    for out, err, code in outcomes:
        assert code == 0, err
        assert "Traceback" not in err
        assert int(out) == PACKS
    assert _contents(shared) == _contents(alone)
    for query in ("kettle", "外公", '"water number 7"'):
        assert _hits(shared, query) == _hits(alone, query)


def _damage_pages(path: Path) -> None:
    """Overwrite every page after the first (the header, application id and version stay intact)."""
    size = path.stat().st_size
    page = 4096
    with open(path, "r+b") as f:
        for offset in range(page, size, page):
            f.seek(offset)
            f.write(b"\xa5" * page)


def _drop_table(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE sections")
    conn.commit()
    conn.close()


def _built(cache: Path, roots: list[Path]) -> Path:
    index = SearchIndex.open(cache)
    index.refresh(roots)
    index.store.checkpoint()
    index.close()
    return cache / INDEX_FILE


@pytest.mark.parametrize("damage", [_damage_pages, _drop_table], ids=["bad-pages", "missing-table"])
@pytest.mark.parametrize("call", ["open-then-refresh", "refresh-of-an-open-index", "update", "search", "info"])
def test_a_damaged_index_is_rebuilt_with_a_notice_on_every_path(
        workspace: list[Path], cache_dir: Path, damage: Callable[[Path], None], call: str) -> None:
    roots = workspace[:2]
    path = _built(cache_dir, roots)
    held = SearchIndex.open(cache_dir) if call != "open-then-refresh" else None
    damage(path)
    index = held or SearchIndex.open(cache_dir)
    try:
        if call in ("open-then-refresh", "refresh-of-an-open-index"):
            index.refresh(roots)
        elif call == "update":
            index.update_paths([roots[0] / "wiki" / "page03.md"])
        elif call == "search":
            index.search("kettle")
        else:
            index.info()
        assert "search-index-rebuilt" in [n.code for n in index.notices]
        index.refresh(roots)  # once rebuilt, the index works as if new
        hits = index.search("外公").hits
        assert {(h.root, h.path, h.line) for h in hits} == {(str(r), "compiled/voice.md", 3) for r in roots}
        assert index.info().files == 2 * (PAGES + 2)
    finally:
        index.close()


@pytest.mark.parametrize("call", ["search", "refresh"])
def test_what_looks_like_damage_while_another_process_commits_is_not_taken_for_it(
        workspace: list[Path], cache_dir: Path, monkeypatch: pytest.MonkeyPatch, call: str) -> None:
    """A reload that meets a file another process's commit has just removed fails like damage. Checked again
    under the write lock the index is whole: it is kept (other processes go on using it) and the call is made
    again, instead of everyone's index being deleted."""
    from studio.core.search import engine
    from studio.core.search.engine import Engine

    roots = workspace[:2]
    path = _built(cache_dir, roots)
    index = SearchIndex.open(cache_dir)
    engine_folder = index.store.engine.folder
    real = Engine.searcher
    failures = iter([engine.NotOurs("its full-text part is damaged (FileDoesNotExist: a segment of a commit "
                                    "under way)")])

    def searcher_meeting_a_commit(self: Engine) -> object:
        failure = next(failures, None)  # the first reload only, as a commit in another process would
        if failure is not None:
            raise failure
        return real(self)

    monkeypatch.setattr(Engine, "searcher", searcher_meeting_a_commit)
    try:
        if call == "search":
            hits = index.search("外公").hits
            assert {(h.root, h.path) for h in hits} == {(str(r), "compiled/voice.md") for r in roots}
        else:
            index.refresh(roots, quick=False)
        assert "search-index-rebuilt" not in [n.code for n in index.notices]
        assert engine_folder is not None and engine_folder.is_dir()
        assert index.info().files == 2 * (PAGES + 2)
        assert path.stat().st_size > 0
    finally:
        index.close()


def test_damage_the_look_under_the_lock_misses_is_still_healed_when_met_again(
        workspace: list[Path], cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The look under the lock reads the schema and the engine, not every page: a failure met a second time is
    taken for damage and the index is rebuilt, as before."""
    from studio.core.search import engine
    from studio.core.search.engine import Engine
    from studio.core.search.store import Store

    _built(cache_dir, workspace[:2])
    index = SearchIndex.open(cache_dir)
    real = Engine.searcher
    failures = iter([engine.NotOurs("damaged (a page the look does not read)")] * 2)

    def failing_twice(self: Engine) -> object:
        failure = next(failures, None)
        if failure is not None:
            raise failure
        return real(self)

    monkeypatch.setattr(Engine, "searcher", failing_twice)
    monkeypatch.setattr(Store, "_damaged_under_lock", lambda self: False)
    try:
        result = index.search("kettle")
        assert "search-index-rebuilt" in [n.code for n in index.notices]
        assert result.problem and "cleared" in result.problem
    finally:
        index.close()
