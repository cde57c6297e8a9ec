"""A process that dies between the engine's commit and SQLite's (simulated by raising right after the engine
commits): searches never show what SQLite does not hold, and the next refresh gives the index one uninterrupted
run would have left."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.core.search import SearchIndex
from studio.core.search import indexer as indexer_module
from studio.core.search.engine import EngineWriter


class Crash(BaseException):
    """The process ending (a ``BaseException``, as a KeyboardInterrupt or SystemExit is)."""


@contextlib.contextmanager
def dying_after_the_engine_commits(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every engine commit is followed by the process's end, until the block is left (which must end by it)."""
    committed = EngineWriter.commit

    def commit_then_die(self: EngineWriter) -> None:
        committed(self)
        raise Crash

    monkeypatch.setattr(EngineWriter, "commit", commit_then_die)
    try:
        with pytest.raises(Crash):
            yield
    finally:
        monkeypatch.setattr(EngineWriter, "commit", committed)


def _bump(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 2_000_000_000))


def _found(cache_dir: Path, text: str) -> set[tuple[str, int, str]]:
    index = SearchIndex.open(cache_dir)
    try:
        return {(h.path, h.line, h.snippet) for h in index.search(text, limit=50).hits}
    finally:
        index.close()


def test_a_crash_while_updating_files_never_shows_stale_sections_and_the_next_refresh_heals(
        cache_dir: Path, kettle: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    index = SearchIndex.open(cache_dir)
    index.refresh([kettle])
    page = kettle / "wiki" / "concepts" / "descaling.md"
    _bump(page, "# Descaling\n\nZebracorn descaling, new text.\n")
    (kettle / "wiki" / "new.md").write_text("# New\n\nZebracorn arrives.\n", encoding="utf-8")
    with dying_after_the_engine_commits(monkeypatch):
        index.update_paths([page, kettle / "wiki" / "new.md"])
    index.close()
    assert _found(cache_dir, "zebracorn") == set()  # SQLite never stored those sections
    index = SearchIndex.open(cache_dir)
    index.refresh([kettle])
    index.close()
    assert {path for path, _, _ in _found(cache_dir, "zebracorn")} == {"wiki/concepts/descaling.md", "wiki/new.md"}
    assert {path for path, _, _ in _found(cache_dir, "citric")} == set()
    assert {path for path, _, _ in _found(cache_dir, "warranty")} >= {"compiled/facts.md", "documents/brief.md"}


def test_a_crash_while_the_index_is_emptied_for_compaction_is_healed_by_the_next_refresh(
        cache_dir: Path, kettle: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    index = SearchIndex.open(cache_dir)
    index.refresh([kettle])
    before = _found(cache_dir, "warranty")
    assert before
    with dying_after_the_engine_commits(monkeypatch):
        indexer_module.clear(index.store)  # what a refresh does when stray rows pile up
    index.close()
    index = SearchIndex.open(cache_dir)
    index.refresh([kettle])
    index.close()
    assert _found(cache_dir, "warranty") == before


def test_a_build_seen_between_its_two_commits_is_not_taken_for_strays(
        cache_dir: Path, kettle: Path, teahouse: Path) -> None:
    # One studio is between the engine's commit and SQLite's (its rows visible to the engine, not yet to SQLite)
    # when another starts a refresh: that one must not empty the index the first has just built.
    import threading

    from studio.core.search.changes import RefreshReport, produce
    from studio.core.search.writes import Writer, known_files

    first, second = SearchIndex.open(cache_dir), SearchIndex.open(cache_dir)
    report = RefreshReport()
    writer = Writer(first.store, report, limit=1 << 62, fresh=True)
    for work in produce([str(kettle)], known_files(first.store, [str(kettle)]), report, lambda: False):
        if not isinstance(work, int):
            writer.add(work)
    assert writer._engine is not None
    writer._engine.commit()
    other = threading.Thread(target=lambda: second.refresh([teahouse]))
    other.start()
    other.join(timeout=0.5)  # it waits for the write lock the first studio still holds
    first.store.conn.execute("COMMIT")
    writer._end()
    other.join(timeout=60)
    assert {h.path for h in first.search("warranty", limit=20).hits} >= {"compiled/facts.md", "documents/brief.md"}
    assert second.search("外公").hits
    first.close()
    second.close()
