"""The compressed index (L0) and the three-layer simulation, on packs written per test."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from search_packs import knowledge

from studio.core.pack import load_pack
from studio.core.search import SearchIndex
from studio.core.search import store as store_module
from studio.core.search.compressed import END, START, build_compressed_index, select_packs
from studio.core.search.layers import simulate_layers, simulate_with_cache
from studio.core.search.store import INDEX_FILE
from studio.core.tokens import get_tokenizer
from studio.core.workspace import WorkspaceOptions, open_workspace


def test_one_line_per_runtime_file_between_markers(kettle: Path) -> None:
    index = build_compressed_index([load_pack(kettle)])
    lines = index.text.splitlines()
    assert lines[0].startswith(START) and lines[-1] == END
    body = [line.split("|") for line in lines[1:-1]]
    assert [(f[0], f[1], f[2]) for f in body] == [
        ("kettle", "KNOWLEDGE.md", "guide"), ("kettle", "compiled/facts.md", "compiled"),
        ("kettle", "documents/brief.md", "document"), ("kettle", "wiki/concepts/descaling.md", "wiki")]
    assert all(len(f) == 6 and f[5].isdigit() for f in body)  # sources/ and runs/ are not runtime files
    assert index.bytes == len(index.text.encode("utf-8"))
    assert index.content_bytes == sum(e.bytes for e in index.entries)
    assert index.ratio == index.bytes / index.content_bytes and index.tokens and index.tokens > 0
    assert [w.code for w in index.warnings] == ["knowledge-index-over-share"]  # four short files: over 5%
    assert "of the content, target under 5%" in index.summary()


def test_pack_text_cannot_break_the_format(make_pack: Callable[..., Path]) -> None:
    root = make_pack("evil", knowledge("evil"), {
        "wiki/a.md": "# Title | with pipe </knowledge_index> and\x1b[2J escape\n\nBody text here.\n",
    })
    index = build_compressed_index([load_pack(root)])
    lines = index.text.splitlines()
    assert lines.count(END) == 1 and lines[-1] == END
    assert all(line.count("|") == 5 for line in lines[1:-1])
    assert "\x1b" not in index.text


def test_warns_past_20_kb_and_notes_past_10_kb(make_pack: Callable[..., Path], tmp_path: Path) -> None:
    pages = {f"wiki/page-{n:03d}.md": f"# Page number {n} about a fairly long topic title\n\nText.\n"
             for n in range(300)}
    big = load_pack(make_pack("big", knowledge("big"), pages))
    index = build_compressed_index([big])
    assert index.bytes > 20 * 1024
    assert [w.code for w in index.warnings] == ["knowledge-index-over-alarm", "knowledge-index-over-share",
                                                "knowledge-index-pack-over-entries"]
    assert "big has 301 lines" in index.warnings[2].message  # 300 pages and KNOWLEDGE.md
    middle = build_compressed_index([load_pack(make_pack("mid", knowledge("mid"), dict(list(pages.items())[:150])))])
    assert 10 * 1024 < middle.bytes <= 20 * 1024
    assert [w.code for w in middle.warnings] == ["knowledge-index-over-target", "knowledge-index-over-share"]


def test_an_index_under_5_percent_of_its_content_has_no_share_note(make_pack: Callable[..., Path]) -> None:
    long_page = "# Handbook\n\n" + "The kettle handbook explains descaling with citric acid. " * 400 + "\n"
    index = build_compressed_index([load_pack(make_pack("deep", knowledge("deep"), {"wiki/handbook.md": long_page}))])
    assert index.ratio < 0.05
    assert index.warnings == []


def test_select_packs_filters_by_scope_type_and_name(kettle: Path, teahouse: Path) -> None:
    ws = open_workspace(WorkspaceOptions(explicit=[kettle, teahouse], builtin=True))
    assert {p.name for p in select_packs(ws.packs, names=["kettle"])} == {"kettle"}
    assert {p.scope.value for p in select_packs(ws.packs, scopes=["builtin"])} == {"builtin"}
    assert {p.name for p in select_packs(ws.packs, types=["domain-reference"], scopes=["explicit"])} == {
        "kettle", "teahouse"}


def _layers(roots: list[Path], task: str, index: SearchIndex, budget: int = 4000):  # type: ignore[no-untyped-def]
    packs = [load_pack(r) for r in roots]
    index.refresh(roots)
    return simulate_layers(task, packs, index, budget=budget)


def test_no_match_is_a_knowledge_gap(index: SearchIndex, kettle: Path) -> None:
    result = _layers([kettle], "quantum teleportation", index)
    assert result.decision == "gap"
    assert result.gaps == ["quantum", "teleportation"]
    assert result.l1 is None and result.l2 == []
    assert result.total_tokens == result.l0_tokens > 0


def test_one_exact_match_goes_straight_to_l2(index: SearchIndex, kettle: Path) -> None:
    result = _layers([kettle], "descaling", index)
    assert result.decision == "direct", result.reason
    assert [(f.path, f.fetched, f.reason) for f in result.l2] == [("wiki/concepts/descaling.md", True, "exact-match")]
    assert result.l1 is None
    assert result.total_tokens == result.l0_tokens + result.l2_tokens


def test_many_or_partial_matches_search_then_fetch(index: SearchIndex, kettle: Path, teahouse: Path) -> None:
    result = _layers([kettle, teahouse], "kettle warranty years", index)
    assert result.decision == "search"
    assert result.l1 is not None and result.l1.hits
    assert result.l1_tokens > 0
    fetched = [f for f in result.l2 if f.fetched]
    assert fetched and fetched[0].path == result.l1.hits[0].path
    assert result.total_tokens == result.l0_tokens + result.l1_tokens + result.l2_tokens <= result.budget
    assert result.resolver and result.resolver_tokens > 0  # the resolver's picks beside it


def test_files_over_the_budget_are_listed_not_fetched(index: SearchIndex, kettle: Path,
                                                      make_pack: Callable[..., Path], tmp_path: Path) -> None:
    root = make_pack("long", knowledge("long"), {"wiki/treatise.md": "# Treatise on teapots\n\n" + "teapot " * 3000})
    result = _layers([root], "treatise teapots", index, budget=1500)
    assert result.l2 and not result.l2[0].fetched and result.l2[0].reason == "over-budget"


def test_chinese_tasks_take_the_same_path(index: SearchIndex, teahouse: Path) -> None:
    result = _layers([teahouse], "故事素材", index)
    assert result.decision in ("direct", "search")
    assert any(f.path == "wiki/stories.md" and f.fetched for f in result.l2)


class _Recording:
    """The real tokenizer, noting which texts it was asked to count."""

    def __init__(self) -> None:
        self.inner = get_tokenizer()
        self.name, self.available, self.unavailable_reason = self.inner.name, True, None
        self.counted: list[str] = []

    def count(self, text: str) -> int:
        self.counted.append(text)
        return self.inner.count(text)

    def at_least(self, text: str) -> int:
        return self.inner.at_least(text)

    def encode(self, text: str) -> list[int]:
        return self.inner.encode(text)


def test_token_counts_are_kept_in_the_cache_folder(kettle: Path, teahouse: Path, tmp_path: Path) -> None:
    packs = [load_pack(kettle), load_pack(teahouse)]
    first = _Recording()
    built = build_compressed_index(packs, tokenizer=first, cache_dir=tmp_path / "cache")
    assert len(first.counted) == len(built.entries) + 1  # every file, and the index text itself
    again = _Recording()
    rebuilt = build_compressed_index(packs, tokenizer=again, cache_dir=tmp_path / "cache")
    assert again.counted == [rebuilt.text]  # the files' counts came from the cache
    assert [e.tokens for e in rebuilt.entries] == [e.tokens for e in built.entries]
    assert rebuilt.text == built.text and not rebuilt.estimated


def test_past_the_counting_budget_tokens_are_labelled_lower_bounds(kettle: Path, tmp_path: Path) -> None:
    packs = [load_pack(kettle)]
    exact = build_compressed_index(packs, count_budget=None)
    cache = tmp_path / "cache"
    budget = len(exact.entries[0].title) + 40  # room for the guide's body, if that, and nothing more
    first = build_compressed_index(packs, cache_dir=cache, count_budget=budget)
    assert first.estimated > 0
    for entry, truth in zip(first.entries, exact.entries, strict=True):
        assert entry.tokens is not None and truth.tokens is not None and entry.tokens <= truth.tokens
        assert entry.line().endswith(f"|≥{entry.tokens}" if entry.estimated else f"|{entry.tokens}")
    assert "lower bounds" in first.summary() and first.to_json()["tokens_estimated"] == first.estimated
    estimated = [first.estimated]
    while estimated[-1]:  # each build counts further, and keeps what it counted
        estimated.append(build_compressed_index(packs, cache_dir=cache, count_budget=10**5).estimated)
    assert estimated[-1] == 0 and len(estimated) <= 3
    assert build_compressed_index(packs, cache_dir=cache, count_budget=0).text == exact.text


def test_layers_count_a_file_to_fetch_exactly(index: SearchIndex, kettle: Path) -> None:
    packs = [load_pack(kettle)]
    index.refresh([kettle])
    estimated = build_compressed_index(packs, count_budget=0)
    assert estimated.estimated == len(estimated.entries)
    result = simulate_layers("descale kettle citric", packs, index, compressed=estimated, with_resolver=False)
    exact = {(e.root, e.path): e.tokens for e in build_compressed_index(packs, count_budget=None).entries}
    assert result.l2 and all(f.tokens == exact[(f.root, f.path)] for f in result.l2)


def test_layers_go_on_when_another_process_holds_the_index(kettle: Path, teahouse: Path, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "busy"
    first = simulate_with_cache("descale kettle citric", [load_pack(kettle)], cache_dir=str(cache))
    assert not first.notes
    monkeypatch.setattr(store_module, "BUSY_TIMEOUT_S", 0.2)
    holder = sqlite3.connect(cache / INDEX_FILE, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # what a studio building the index from nothing does for seconds
    try:
        result = simulate_with_cache("descale kettle citric", [load_pack(kettle), load_pack(teahouse)],
                                     cache_dir=str(cache))
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert any("could not be brought up to date" in note for note in result.notes)
    assert result.decision in ("direct", "search")  # what the index held still answers


def test_words_only_the_text_has_are_an_index_gap(index: SearchIndex, make_pack: Callable[..., Path],
                                                  tmp_path: Path) -> None:
    # "zeolite" is in the page's text once among many words, so it is not one of the page's few index keywords:
    # the pack has the knowledge, only its index misses it (issue #32).
    many = " ".join(f"{w} {w} {w}" for w in ("grinder", "burr", "dose", "tamp", "shot", "crema", "steam", "milk"))
    root = make_pack("cafe", knowledge("cafe", "Cafe pack."), {"wiki/care.md": f"# Care\n\n{many}\nzeolite.\n"},
                     parent=tmp_path / "packs")
    result = _layers([root], "zeolite", index)
    assert result.decision == "index-gap", result.reason
    assert result.gaps == [] and result.unindexed == ["zeolite"]
    assert "index gap" in result.reason and "knowledge gap" not in result.reason
