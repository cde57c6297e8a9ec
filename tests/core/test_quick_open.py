"""Quick Open's index and matcher: what gets listed, what matches, and in which order a user sees it."""

from __future__ import annotations

import builtins
import io
import os
from collections.abc import Callable
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from studio.core import quick_open as qo
from studio.core.model import Pack
from studio.core.pack import load_pack
from studio.core.quick_open import (
    Entry,
    EntryKind,
    HitCache,
    Index,
    build_index,
    list_files,
    listing,
    match,
    scoring,
    search,
)
from studio.core.quick_open.listing import PackListing

ROOT = Path("/ws/acme")


def texts(results: list[qo.Match]) -> list[str]:
    return [m.entry.text for m in results]


def files(*rels: str, pack: str = "acme") -> list[Entry]:
    return [Entry.for_file(pack, ROOT, rel) for rel in rels]


def write(root: Path, rels: list[str]) -> None:
    for rel in rels:
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("x", encoding="utf-8")


# -- listing -----------------------------------------------------------------------------------------------


def test_lists_files_sorted_skipping_hidden_and_tool_folders(tmp_path: Path) -> None:
    write(tmp_path, ["KNOWLEDGE.md", "documents/faq.md", "wiki/concepts/a.md", ".git/config", ".hidden.md",
                     "wiki/.draft.md", "node_modules/x/index.js", "wiki/__pycache__/m.pyc"])
    assert list_files(tmp_path) == (["KNOWLEDGE.md", "documents/faq.md", "wiki/concepts/a.md"], False)


def test_symlinks_never_lead_out_of_the_pack(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    write(outside, ["secret.md", "dir/inner.md"])
    pack = tmp_path / "pack"
    write(pack, ["KNOWLEDGE.md", "documents/real.md"])
    (pack / "documents" / "escape.md").symlink_to(outside / "secret.md")
    (pack / "escape-dir").symlink_to(outside / "dir", target_is_directory=True)
    (pack / "documents" / "alias.md").symlink_to(pack / "documents" / "real.md")  # stays inside: listed
    (pack / "loop").symlink_to(pack, target_is_directory=True)  # inside, but folders are never entered
    (pack / "dangling.md").symlink_to(pack / "missing.md")
    listed, truncated = list_files(pack)
    assert listed == ["KNOWLEDGE.md", "documents/alias.md", "documents/real.md"]
    assert not truncated


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_special_files_are_left_out(tmp_path: Path) -> None:
    write(tmp_path, ["a.md"])
    os.mkfifo(tmp_path / "pipe")
    assert list_files(tmp_path)[0] == ["a.md"]


def test_listing_reads_names_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, ["KNOWLEDGE.md", "documents/faq.md"])
    (tmp_path / "documents" / "faq.md").chmod(0)  # unreadable, yet listed: its name is all that is needed

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("list_files opened a file")

    real_open = os.open

    def folders_only(path: str, flags: int, *args: object, **kwargs: object) -> int:
        # The walk holds folders open (by descriptor, so none can be swapped for a link); files stay closed.
        if not flags & os.O_DIRECTORY:
            refuse()
        return real_open(path, flags, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", folders_only)
    monkeypatch.setattr(builtins, "open", refuse)
    monkeypatch.setattr(io, "open", refuse)
    assert list_files(tmp_path)[0] == ["KNOWLEDGE.md", "documents/faq.md"]


def test_limits_cap_a_runaway_pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, [f"f{i:02}.md" for i in range(12)] + ["/".join("d" * 10) + "/deep.md"])
    listed, truncated = list_files(tmp_path, limit=5)
    assert truncated and len(listed) == 5
    monkeypatch.setattr(listing, "MAX_DEPTH", 3)
    assert not any(rel.endswith("deep.md") for rel in list_files(tmp_path)[0])


def test_unreadable_or_missing_root_lists_nothing(tmp_path: Path) -> None:
    assert list_files(tmp_path / "gone") == ([], False)


def test_index_holds_packs_by_name_and_files_under_the_pack_name(tmp_path: Path,
                                                               make_pack: Callable[..., Path]) -> None:
    make_pack("acme-dir", "---\nname: acme\ndescription: d\n---\n", {"documents/faq.md": "q"})
    make_pack("beta", "---\nname: beta\ndescription: d\n---\n")
    packs: list[Pack] = [load_pack(tmp_path / "acme-dir"), load_pack(tmp_path / "beta")]
    index = build_index(packs)
    assert isinstance(index, Index)
    assert [(e.kind, e.text) for e in index] == [
        (EntryKind.PACK, "acme"), (EntryKind.PACK, "beta"), (EntryKind.FILE, "acme/KNOWLEDGE.md"),
        (EntryKind.FILE, "beta/KNOWLEDGE.md"), (EntryKind.FILE, "acme/documents/faq.md"),
    ]
    faq = index[-1]
    assert faq.path == tmp_path / "acme-dir" / "documents" / "faq.md"
    assert faq.text[faq.base:] == "faq.md"
    assert index[0].path == tmp_path / "acme-dir"


def test_index_without_a_pack_keeps_the_rest_in_order() -> None:
    other = Path("/ws/beta")
    index = Index([qo.PackListing(ROOT, "acme", ["a.md", "b/c.md"]), qo.PackListing(other, "beta", ["a.md"])])
    smaller = index.without([ROOT])
    assert [e.text for e in smaller] == ["beta", "beta/a.md"]
    assert smaller.roots == [other] and smaller[1].path == other / "a.md"
    assert len(index) == 5  # the original is untouched


def test_list_packs_stops_when_cancelled(tmp_path: Path, make_pack: Callable[..., Path]) -> None:
    packs = [load_pack(make_pack(f"p{i}", "---\nname: p\ndescription: d\n---\n")) for i in range(3)]
    calls = iter([False, True])
    assert len(qo.list_packs(packs, cancelled=lambda: next(calls))) == 1


# -- folding -------------------------------------------------------------------------------------------------


def test_folding_keeps_positions_for_characters_that_lower_to_two() -> None:
    assert "İ".lower() != "i" and len("İ".lower()) == 2
    assert qo.fold("İstanbul/FAQ.md") == "İstanbul/faq.md"
    assert qo.normalise_query(" North  FAQ ") == "northfaq"


# -- ranking a user would notice -------------------------------------------------------------------------------


def test_contiguous_run_beats_scattered_initials() -> None:
    entries = files("documents/frequently-asked-questions.md", "documents/faq.md")
    assert texts(match("faq", entries))[0] == "acme/documents/faq.md"


def test_shorter_path_first_when_equally_good() -> None:
    entries = files("compiled/splits/product-brief/faq.md", "documents/faq.md")
    assert texts(match("faq", entries)) == ["acme/documents/faq.md", "acme/compiled/splits/product-brief/faq.md"]


def test_basename_match_beats_a_shorter_folder_match() -> None:
    entries = files("faq/a.md", "documents/faq.md")
    assert texts(match("faq", entries))[0] == "acme/documents/faq.md"


def test_word_starts_beat_a_mid_word_run() -> None:
    entries = files("maps.md", "product-specs.md")
    assert texts(match("ps", entries))[0] == "acme/product-specs.md"


def test_camel_case_humps_count_as_word_starts() -> None:
    entries = files("proud-tab.md", "productBrief.md")
    result = match("pb", entries)
    assert texts(result)[0] == "acme/productBrief.md"
    assert result[0].positions == (5, 12)


def test_pack_name_comes_above_its_own_files() -> None:
    entries = [Entry.for_pack("northwind", ROOT), *files("KNOWLEDGE.md", "documents/brief.md", pack="northwind")]
    assert texts(match("north", entries))[0] == "northwind"


def test_packs_go_above_files_on_a_full_tie() -> None:
    pack, file = Entry.for_pack("ab-cd", ROOT), Entry.for_file("ab", ROOT, "cd")
    assert len(pack.text) == len(file.text)
    assert qo.tie_order(pack) < qo.tie_order(file)
    assert list(Index.of([file, pack])) == [pack, file]


def test_a_query_can_span_pack_name_folders_and_file() -> None:
    entries = [*files("compiled/facts.md", pack="northwind-espresso"), *files("compiled/facts.md", pack="orbit")]
    result = match("nwfacts", entries)
    assert texts(result) == ["northwind-espresso/compiled/facts.md"]
    assert "".join(result[0].entry.text[p] for p in result[0].positions) == "nwfacts"


def test_case_and_spaces_are_ignored_and_positions_point_at_the_text() -> None:
    entries = files("KNOWLEDGE.md", "documents/know-how.md")
    result = match("know ledge", entries)
    assert texts(result) == ["acme/KNOWLEDGE.md"]
    assert result[0].positions == tuple(range(5, 14))


def test_no_match_and_empty_query() -> None:
    entries = [Entry.for_pack("zeta", ROOT), Entry.for_pack("Alpha", ROOT), *files("a.md")]
    assert match("xyz", entries) == []
    assert texts(match("", entries)) == ["Alpha", "zeta"]  # packs by name; files would only be noise
    assert texts(match("  ", entries, limit=1)) == ["Alpha"]


def test_limit_keeps_the_best() -> None:
    entries = files(*(f"{'x' * i}faq.md" for i in range(10)))
    assert texts(match("faq", entries, limit=3)) == ["acme/faq.md", "acme/xfaq.md", "acme/xxfaq.md"]


def test_early_stop_never_hides_a_better_longer_entry() -> None:
    # "a/b" is shorter and nearly perfect (its "a" starts a segment but not the basename); "zz/a" is perfect.
    entries = [Entry.for_file("p", ROOT, "a/b"), Entry.for_file("p", ROOT, "zz/a")]
    assert texts(match("a", entries, limit=1)) == ["p/zz/a"]


def test_search_can_be_cancelled() -> None:
    assert search("a", files("a.md", "b/a.md"), cancelled=lambda: True) is None


def test_hit_cache_narrows_to_earlier_hits_and_returns_repeated_queries() -> None:
    index = Index.of(files("documents/faq.md", "wiki/index.md", "documents/fees.md"))
    cache = HitCache(index, size=2)
    assert cache.among("faq") is None
    first = search("f", index)
    assert first is not None
    cache.remember(first)
    assert cache.among("fq") == first.hits  # "f" is a subsequence of "fq": only its hits can match
    assert cache.among("q") is None
    narrowed = search("fq", index, among=cache.among("fq"))
    assert narrowed is not None and texts(narrowed.results) == ["acme/documents/faq.md"]
    cache.remember(narrowed)
    assert cache.among("fqm") == narrowed.hits  # the smallest list wins
    assert cache.get("F q") is narrowed
    empty = search("", index)
    assert empty is not None
    cache.remember(empty)
    assert cache.get("f") is None  # evicted: the cache keeps the two most recent
    assert cache.among("x") is None  # the empty query lists packs only; it never narrows a search


# -- properties --------------------------------------------------------------------------------------------------

names = st.text(alphabet="ab-/.Xyz", min_size=1, max_size=12)
queries = st.text(alphabet="abyX/", min_size=1, max_size=4)


def _reference_score(query: str, entry: Entry) -> int | None:
    """The best score by trying every alignment: slow and obviously right."""
    key, text = entry.key, entry.text
    best: int | None = None
    for places in combinations(range(len(key)), len(query)):
        if any(key[p] != c for p, c in zip(places, query, strict=True)):
            continue
        total = 0
        for i, p in enumerate(places):
            total += scoring.SCORE_MATCH + (scoring.BONUS_BASENAME if p >= entry.base else 0)
            bonus = scoring._bonus(text, p)
            if i == 0:
                total += scoring.FIRST_CHAR_MULTIPLIER * bonus
            elif places[i - 1] == p - 1:
                total += max(bonus, scoring.BONUS_CONSECUTIVE)
            else:
                total += bonus + scoring.GAP_START + scoring.GAP_EXTEND * (p - places[i - 1] - 2)
        best = total if best is None else max(best, total)
    return best


@settings(max_examples=300, deadline=None)
@given(query=queries, pack=names, rel=names, is_pack=st.booleans())
def test_score_is_the_best_alignment(query: str, pack: str, rel: str, is_pack: bool) -> None:
    entry = Entry.for_pack(pack, ROOT) if is_pack else Entry.for_file(pack, ROOT, rel)
    q = qo.normalise_query(query)
    found = qo.score(q, entry)
    expected = _reference_score(q, entry)
    assert (found[0] if found else None) == expected
    if found is not None:
        assert "".join(entry.key[p] for p in found[1]) == q


@settings(max_examples=200, deadline=None)
@given(query=st.text(alphabet="abyXİ /", max_size=4),
       rows=st.lists(st.tuples(st.booleans(), names, names), max_size=25),
       limit=st.integers(min_value=1, max_value=6))
def test_results_are_real_subsequence_matches_ranked_like_a_full_sort(
        query: str, rows: list[tuple[bool, str, str]], limit: int) -> None:
    entries = [Entry.for_pack(a, ROOT) if is_pack else Entry.for_file(a, ROOT, b) for is_pack, a, b in rows]
    q = qo.normalise_query(query)
    results = match(query, entries, limit)
    for result in results:
        positions = result.positions
        assert list(positions) == sorted(set(positions))
        assert all(0 <= p < len(result.entry.text) for p in positions)
        assert "".join(qo.fold(result.entry.text[p]) for p in positions) == q
    if not q:
        return
    # The early stop must not change anything: compare with scoring every entry and sorting.
    full = sorted((-s[0], qo.tie_order(e)) for e in entries if (s := qo.score(q, e)) is not None)
    assert [(-m.score, qo.tie_order(m.entry)) for m in results] == full[:limit]
    assert len(results) == min(limit, sum(qo.is_subsequence(q, e.key) for e in entries))


def test_same_name_packs_are_told_apart_and_found_by_their_telling_folder() -> None:
    listings = [PackListing(Path(f"/ws/{version}/acme"), "acme", ["KNOWLEDGE.md"])
                for version in ("v0.4.0", "v0.6.1", "v0.7.2")]
    listings.append(PackListing(Path("/ws/other"), "other", ["KNOWLEDGE.md"]))
    index = Index(listings)
    packs = sorted(e.text for e in index if e.kind is EntryKind.PACK)
    assert packs == ["other", "v0.4.0/acme", "v0.6.1/acme", "v0.7.2/acme"], "six identical rows no more"
    found = match("v072", index)
    assert found and found[0].entry.root == Path("/ws/v0.7.2/acme"), "the telling folder finds the copy"
    assert texts(match("v072know", index)) == ["v0.7.2/acme/KNOWLEDGE.md"]
    assert set(texts(match("acme", index))[:3]) == {"v0.4.0/acme", "v0.6.1/acme", "v0.7.2/acme"}
