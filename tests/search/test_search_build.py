"""Building the index: worker processes or a reading thread give the same index; updates after a fresh build
leave the engine holding exactly the sections SQLite knows; an interrupted build keeps whole packs only."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from search_packs import knowledge

from studio.core.search import SearchIndex
from studio.core.search import indexer as indexer_module
from studio.core.search.query import SearchHit

QUERIES = ["warranty", "citric acid", "外公", "语气", "kettle*", '"two years"', "descale month", "section"]


def _packs(make_pack: Callable[..., Path], tmp_path: Path, kettle: Path, teahouse: Path) -> list[Path]:
    roots = [kettle, teahouse]
    for n in range(6):
        pages = {f"wiki/page-{k}.md": f"# Page {k} of {n}\n\nSection {k} talks about warranty terms {n * k}.\n\n"
                                      f"## 品牌语气 {k}\n\n说话要具体，少用形容词。\n" for k in range(4)}
        roots.append(make_pack(f"extra-{n}", knowledge(f"extra-{n}"), pages, parent=tmp_path / "packs"))
    return roots


def _answers(index: SearchIndex) -> list[list[tuple[str, str, int, float]]]:
    return [[(h.pack, h.path, h.line, h.score) for h in index.search(q).hits] for q in QUERIES]


def test_a_build_with_a_reading_thread_gives_the_index_one_thread_gives(
        make_pack: Callable[..., Path], tmp_path: Path, kettle: Path, teahouse: Path) -> None:
    roots = _packs(make_pack, tmp_path, kettle, teahouse)
    built = {}
    for threaded in (True, False):
        index = SearchIndex.open(tmp_path / f"cache-{threaded}")
        report = indexer_module.refresh(index.store, roots, threaded=threaded)
        built[threaded] = (report.files, report.indexed, dict(report.skipped), index.info().sections,
                           _answers(index))
        index.close()
    assert built[True] == built[False]
    assert all(built[True][4][:3])  # English and Chinese queries found something


def test_updates_after_a_fresh_build_replace_a_files_rows(index: SearchIndex, kettle: Path, teahouse: Path) -> None:
    index.refresh([kettle, teahouse])
    assert index.store.engine.num_docs() == index.info().sections
    page = kettle / "wiki" / "concepts" / "descaling.md"
    page.write_text("# Descaling\n\nUse white vinegar.\n\n## Rinse\n\nTwice.\n", encoding="utf-8")
    st = page.stat()
    os.utime(page, ns=(st.st_atime_ns, st.st_mtime_ns + 2_000_000_000))
    index.update_paths([page])
    index.maintain()
    assert index.search("vinegar").hits and index.search("外公").hits and not index.search("citric").hits
    # The old rows are gone from the engine, not only hidden: it holds exactly the sections SQLite holds.
    assert index.store.engine.num_docs() == index.info().sections


def test_an_interrupted_build_keeps_whole_packs(index: SearchIndex, make_pack: Callable[..., Path],
                                                tmp_path: Path, kettle: Path, teahouse: Path) -> None:
    roots = _packs(make_pack, tmp_path, kettle, teahouse)
    seen: list[int] = []

    def progress(done: int, total: int) -> None:
        seen.append(done)

    report = index.refresh(roots, on_progress=progress, cancelled=lambda: len(seen) >= 3)
    assert report.cancelled
    info = index.info()
    assert 0 < info.packs < len(roots)
    with index.store.lock:
        per_pack = dict(index.store.conn.execute("SELECT p.root, count(*) FROM files f JOIN packs p "
                                                 "ON p.id = f.pack_id GROUP BY p.root").fetchall())
    for root, files in per_pack.items():
        assert files == len([p for p in Path(root).rglob("*.md") if "runs" not in p.parts]) + (
            1 if (Path(root) / "sources" / "interview.txt").exists() else 0)
    again = index.refresh(roots)  # the next refresh finishes the job
    assert not again.cancelled and index.info().packs == len(roots)


def test_filters_give_the_filtered_top_hits_not_a_filtered_top(
        index: SearchIndex, make_pack: Callable[..., Path], tmp_path: Path, kettle: Path, teahouse: Path) -> None:
    roots = _packs(make_pack, tmp_path, kettle, teahouse)
    index.refresh(roots)

    def key(hits: list[SearchHit]) -> list[tuple[str, str, int, float]]:
        return [(h.root, h.path, h.line, h.score) for h in hits]

    every = index.search("warranty", limit=1000).hits
    assert len({h.root for h in every}) > 3
    last = str(roots[-1])  # its hits rank anywhere in the whole list; filtered, they are the first five
    assert key(index.search("warranty", roots=[last], limit=5).hits) == key([h for h in every if h.root == last][:5])
    assert key(index.search("warranty", kinds=["compiled"], limit=3).hits) == key(
        [h for h in every if h.kind == "compiled"][:3])
    assert key(index.search("warranty", path_prefix="wiki/page-1", limit=4).hits) == key(
        [h for h in every if h.path.startswith("wiki/page-1")][:4])
