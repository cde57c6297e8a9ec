"""The search index on real files and a real SQLite database: what it finds, where it lives, how it follows edits."""

from __future__ import annotations

import os
import shutil
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from search_packs import knowledge

from studio.core.search import IndexLocationError, SearchIndex
from studio.core.search import indexer as indexer_module
from studio.core.search.store import INDEX_FILE


def _bump(path: Path, text: str) -> None:
    """Rewrite a file and move its time forward (a test can run within one timestamp tick)."""
    path.write_text(text, encoding="utf-8")
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 2_000_000_000))


def test_finds_english_with_line_heading_score_and_highlighted_snippet(index: SearchIndex, kettle: Path) -> None:
    index.refresh([kettle])
    found = index.search("citric acid")
    assert found.matched == "all"
    hit = found.hits[0]
    assert (hit.pack, hit.path, hit.line, hit.heading, hit.kind) == ("kettle", "wiki/concepts/descaling.md", 4,
                                                                     "Descaling", "wiki")
    assert hit.score > 0
    marked = [hit.snippet[a:b].lower() for a, b in hit.highlights]
    assert marked == ["citric", "acid"]


def test_finds_chinese_words_inside_runs_of_text(index: SearchIndex, teahouse: Path) -> None:
    index.refresh([teahouse])
    found = index.search("外公")  # two characters in the middle of a clause
    assert [(h.path, h.line) for h in found.hits] == [("wiki/stories.md", 3)]
    hit = found.hits[0]
    assert [hit.snippet[a:b] for a, b in hit.highlights] == ["外公"]
    assert index.search("语气").hits[0].heading == "声音与语气"


def test_a_phrase_does_not_match_across_chinese_punctuation(index: SearchIndex, teahouse: Path) -> None:
    index.refresh([teahouse])
    assert index.search("阶段").hits == []  # the text has 阶，段
    assert [h.path for h in index.search("阶，段").hits] == ["compiled/voice.md"]


def test_headings_rank_above_body_text(index: SearchIndex, make_pack: Callable[..., Path], tmp_path: Path) -> None:
    root = make_pack("ranked", knowledge("ranked"), {
        "wiki/a.md": "# Notes\n\nThe espresso machine is loud. Other words fill this page out to length.\n",
        "wiki/b.md": "# Espresso\n\nOther words fill this page out to a similar length here.\n",
    })
    index.refresh([root])
    assert [h.path for h in index.search("espresso").hits][:2] == ["wiki/b.md", "wiki/a.md"]


def test_plural_forms_and_prefixes(index: SearchIndex, kettle: Path) -> None:
    index.refresh([kettle])
    assert "wiki/concepts/descaling.md" in {h.path for h in index.search("months").hits}
    assert "wiki/concepts/descaling.md" in {h.path for h in index.search("desca*").hits}


def test_any_word_when_no_section_has_every_word(index: SearchIndex, kettle: Path) -> None:
    index.refresh([kettle])
    found = index.search("citric warranty")
    assert found.matched == "any" and found.hits
    assert index.search("citric warranty", mode="all").hits == []


@pytest.mark.parametrize("text", ['"unclosed phrase', "AND OR NOT", "NEAR(kettle", "*", "kettle*  ^  -x",
                                  "col:kettle", "((", "\x1b[31mred", "'; DROP TABLE files; --", "a" * 5000])
def test_query_syntax_never_raises(index: SearchIndex, kettle: Path, text: str) -> None:
    index.refresh([kettle])
    found = index.search(text)
    assert found.problem == "" or "search" in found.problem.lower() or "letters" in found.problem
    assert index.info().files > 0  # and the database is intact


def test_index_lives_in_the_cache_folder_and_nothing_is_written_into_packs(
        cache_dir: Path, kettle: Path, tree_digest: Callable[[Path], dict[str, str]]) -> None:
    before = tree_digest(kettle)
    idx = SearchIndex.open(cache_dir)
    idx.refresh([kettle])
    idx.search("warranty")
    idx.close()
    assert (cache_dir / INDEX_FILE).is_file()
    assert tree_digest(kettle) == before


def test_default_cache_folder_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, kettle: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    idx = SearchIndex.open()
    idx.refresh([kettle])
    idx.close()
    assert (tmp_path / "xdg" / "knowledge-pack-studio" / INDEX_FILE).is_file()


def test_refuses_a_cache_folder_inside_a_pack(kettle: Path) -> None:
    idx = SearchIndex.open(kettle / "wiki" / ".cache")
    with pytest.raises(IndexLocationError):
        idx.refresh([kettle])
    idx.close()


def test_refresh_reads_only_what_changed(index: SearchIndex, kettle: Path) -> None:
    first = index.refresh([kettle])
    assert first.indexed == 5 and first.unchanged == 0
    again = index.refresh([kettle])
    assert (again.indexed, again.bytes_read) == (0, 0)
    page = kettle / "wiki" / "concepts" / "descaling.md"
    _bump(page, page.read_text(encoding="utf-8"))  # same bytes, new time: the digest says unchanged
    touched = index.refresh([kettle])
    assert touched.indexed == 0 and touched.bytes_read > 0
    _bump(page, "# Descaling\n\nUse white vinegar once a quarter.\n")
    changed = index.refresh([kettle])
    assert changed.indexed == 1
    assert index.search("vinegar").hits[0].path == "wiki/concepts/descaling.md"
    assert index.search("citric").hits == []


def test_update_paths_follows_one_file_a_deletion_and_a_new_file(index: SearchIndex, kettle: Path) -> None:
    index.refresh([kettle])
    facts = kettle / "compiled" / "facts.md"
    _bump(facts, "# Kettle facts\n\nCapacity is 1.5 litres of boiling water.\n")
    report = index.update_paths([facts])
    assert report.indexed == 1
    assert index.search("boiling").hits[0].path == "compiled/facts.md"
    (kettle / "wiki" / "concepts" / "descaling.md").unlink()
    index.update_paths([kettle / "wiki" / "concepts" / "descaling.md"])
    assert index.search("citric").hits == []
    (kettle / "wiki" / "new.md").write_text("# New page\n\nMarmalade.\n", encoding="utf-8")
    index.update_paths([kettle])  # a pack root: the whole pack is checked
    assert index.search("marmalade").hits[0].path == "wiki/new.md"
    assert index.update_paths(["/nowhere/else.md"]).skipped["not-in-the-index"] == 1


def test_skips_what_the_resolver_would_not_read_and_counts_it(
        index: SearchIndex, make_pack: Callable[..., Path], tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("# Secret\n\nzebracorn password\n", encoding="utf-8")
    root = make_pack("hostile", knowledge("hostile"), {
        "wiki/binary.md": b"# Bin\n\x00\x01zebracorn",
        "wiki/huge.md": "# Huge\n\nzebracorn " + "x" * 1_100_000,
        "wiki/latin1.md": "# Café zebracorn\n".encode("latin-1"),
        "runs/context.json": '{"zebracorn": 1}',
        "wiki/ok.md": "# Fine\n\nordinary text\n",
    })
    (root / "wiki" / "escape.md").symlink_to(outside / "secret.md")
    (root / "documents").symlink_to(outside, target_is_directory=True)
    report = index.refresh([root])
    assert report.skipped["binary"] == 1
    assert report.skipped["too-large"] == 1
    assert report.skipped["undecodable"] == 1
    assert report.skipped["symlink-escape"] == 2  # the file and the folder
    assert report.skipped["not-a-runtime-surface"] >= 1  # runs/
    assert index.search("zebracorn").hits == []
    assert index.search("password").hits == []
    assert index.search("ordinary").hits[0].path == "wiki/ok.md"


def test_an_update_never_reads_through_a_symlinked_folder(index: SearchIndex, kettle: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "leak.md").write_text("# Leak\n\nplatypus secret\n", encoding="utf-8")
    index.refresh([kettle])
    (kettle / "wiki" / "linked").symlink_to(outside, target_is_directory=True)
    report = index.update_paths([kettle / "wiki" / "linked" / "leak.md"])
    assert report.skipped["symlink-escape"] == 1
    index.update_paths([kettle])
    assert index.search("platypus").hits == []


def test_a_corrupt_file_is_rebuilt_with_a_notice(cache_dir: Path, kettle: Path) -> None:
    cache_dir.mkdir(parents=True)
    (cache_dir / INDEX_FILE).write_bytes(b"this is not a database" * 100)
    idx = SearchIndex.open(cache_dir)
    assert [n.code for n in idx.notices] == ["search-index-rebuilt"]
    idx.refresh([kettle])
    assert idx.search("warranty").hits
    idx.close()


@pytest.mark.parametrize("setup", ["foreign", "old-version"])
def test_a_foreign_or_outdated_database_is_never_trusted(cache_dir: Path, kettle: Path, setup: str) -> None:
    cache_dir.mkdir(parents=True)
    if setup == "foreign":
        conn = sqlite3.connect(cache_dir / INDEX_FILE)
        conn.execute("CREATE TABLE files(id, path)")
        conn.execute("INSERT INTO files VALUES (1, '/etc/passwd')")
    else:
        SearchIndex.open(cache_dir).close()
        conn = sqlite3.connect(cache_dir / INDEX_FILE)
        conn.execute("PRAGMA user_version = 999")
    conn.commit()
    conn.close()
    idx = SearchIndex.open(cache_dir)
    assert [n.code for n in idx.notices] == ["search-index-rebuilt"]
    assert idx.info().files == 0
    idx.close()


def test_the_fts5_index_of_an_earlier_studio_is_deleted_with_a_notice(cache_dir: Path, kettle: Path) -> None:
    cache_dir.mkdir(parents=True)
    earlier = cache_dir / "search-index.sqlite3"
    conn = sqlite3.connect(earlier)
    conn.execute("CREATE VIRTUAL TABLE fts USING fts5(heading, path, body, content='')")
    conn.execute("PRAGMA user_version = 1")
    conn.close()
    (cache_dir / "search-index.sqlite3-wal").write_bytes(b"")
    idx = SearchIndex.open(cache_dir)
    assert [n.code for n in idx.notices] == ["search-index-rebuilt"]
    assert "earlier studio" in idx.notices[0].message
    assert not earlier.exists() and not (cache_dir / "search-index.sqlite3-wal").exists()
    idx.refresh([kettle])
    assert idx.search("warranty").hits
    idx.close()
    assert [n.code for n in SearchIndex.open(cache_dir).notices] == []  # told once


def test_a_missing_or_damaged_engine_folder_rebuilds_the_index_with_a_notice(cache_dir: Path, kettle: Path) -> None:
    idx = SearchIndex.open(cache_dir)
    idx.refresh([kettle])
    folder = idx.store.engine.folder
    idx.close()
    assert folder is not None
    for damage in ("remove", "garble"):
        if damage == "remove":
            shutil.rmtree(folder)
        else:
            (folder / "meta.json").write_text("{ not json", encoding="utf-8")
        idx = SearchIndex.open(cache_dir)
        assert [n.code for n in idx.notices] == ["search-index-rebuilt"], damage
        assert idx.info().files == 0
        idx.refresh([kettle])
        assert idx.search("warranty").hits
        folder = idx.store.engine.folder
        assert folder is not None
        idx.close()


def test_two_studios_share_one_index(cache_dir: Path, kettle: Path, teahouse: Path) -> None:
    one, two = SearchIndex.open(cache_dir), SearchIndex.open(cache_dir)
    one.refresh([kettle])
    two.refresh([teahouse])
    assert one.search("外公").hits and two.search("citric").hits
    assert one.search("citric", roots=[teahouse]).hits == []
    one.close()
    two.close()


def test_filters_by_pack_kind_and_folder(index: SearchIndex, kettle: Path, teahouse: Path) -> None:
    index.refresh([kettle, teahouse])
    assert {h.kind for h in index.search("warranty").hits} >= {"compiled", "document", "source"}
    assert {h.kind for h in index.search("warranty", kinds=["source"]).hits} == {"source"}
    assert {h.path for h in index.search("warranty", path_prefix="documents/").hits} == {"documents/brief.md"}
    assert index.search("warranty", roots=[teahouse]).hits == []
    assert index.search("kettle", kinds=["frontmatter"]).hits[0].line == 2


def test_vanished_packs_leave_the_index(index: SearchIndex, kettle: Path, teahouse: Path) -> None:
    index.refresh([kettle, teahouse])
    for path in sorted(teahouse.rglob("*"), reverse=True):
        path.unlink() if path.is_file() else path.rmdir()
    teahouse.rmdir()
    report = index.refresh([kettle])
    assert report.removed >= 3
    assert index.search("外公").hits == []


def test_engine_rows_sqlite_does_not_know_are_never_shown_and_are_compacted(
        index: SearchIndex, kettle: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # What a crash between the engine's commit and SQLite's leaves: engine rows under section ids SQLite never
    # stored, or under a real section id but another file's id.
    index.refresh([kettle])
    real_sid = index.store.conn.execute("SELECT id, file_id FROM sections LIMIT 1").fetchone()
    with index.store.write_all() as (_, engine):
        for n in range(40):
            engine.add(10_000 + n, 9_000, 1, "wiki", "wiki/ghost.md", "Ghost", "wiki/ghost.md", "zebracorn ghost")
        engine.add(real_sid[0], real_sid[1] + 77, 1, "wiki", "wiki/ghost.md", "Ghost", "wiki/ghost.md",
                   "zebracorn ghost")
    assert index.search("zebracorn").hits == []
    monkeypatch.setattr(indexer_module, "COMPACT_MIN_STRAYS", 3)
    report = index.refresh([kettle], quick=False)  # compaction is looked at when some pack is walked
    assert report.compacted
    assert index.store.engine.num_docs() == index.info().sections
    assert index.search("citric").hits and not index.search("zebracorn").hits


def test_one_changed_file_is_reindexed_quickly_enough_to_follow_typing(index: SearchIndex, kettle: Path) -> None:
    # Not a benchmark (bench/bench_search.py measures): a guard against an update re-reading the workspace.
    index.refresh([kettle])
    page = kettle / "wiki" / "concepts" / "descaling.md"
    _bump(page, "# Descaling\n\nQuick edit.\n")
    started = time.perf_counter()
    report = index.update_paths([page])
    assert report.indexed == 1 and report.files == 1
    assert time.perf_counter() - started < 5


def test_a_word_in_every_section_still_gets_readable_scores(index: SearchIndex, make_pack: Callable[..., Path],
                                                           tmp_path: Path) -> None:
    # bm25 of a word in nearly every row is tiny (about 1e-6): rounded to three decimals it showed 0.000 for all.
    pages = {f"wiki/page{n:02d}.md": f"# Page {n}\n\nwater {'kettle ' * n}\n" for n in range(40)}
    index.refresh([make_pack("common", knowledge("common"), pages, parent=tmp_path / "packs")])
    hits = index.search("water", limit=20).hits
    assert len(hits) == 20
    assert all(h.score > 0 for h in hits)
    assert hits[0].relevance == 1.0 and all(0 < h.relevance <= 1.0 for h in hits)
    assert [h.relevance for h in hits] == sorted((h.relevance for h in hits), reverse=True)
    assert len(index.search("water").hits) == 5  # L1 answers with five unless asked for more
