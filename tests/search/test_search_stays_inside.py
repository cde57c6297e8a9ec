"""The search stack reads a pack only through its ``PackFS``: nothing outside the pack reaches the index, a
snippet, the L0 index or a token count, also when a file or folder is swapped for a symlink after it was listed.

Real files under ``tmp_path``. The secret lives OUTSIDE the pack and holds a word found nowhere else (and the word
the pack's own page is indexed under, so that a read through the swapped link would show it in a snippet). Where
a swap has to land between two steps of one operation, the module's own step is wrapped so the swap happens right
after it (only the moment is arranged; the reads are real).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from race_support import after_first_call, swap_for_link
from search_packs import knowledge

from studio.cli import main
from studio.core.pack import load_pack
from studio.core.search import SearchIndex
from studio.core.search import changes as changes_module
from studio.core.search.compressed import build_compressed_index, compressed_preview, exact_tokens
from studio.core.search.files import list_pack_files
from studio.core.search.layers import simulate_layers
from studio.core.search.store import INDEX_FILE
from studio.core.tokens import get_tokenizer

SECRET = "quetzalsecret"
"""Only in the outside file."""
SHARED = "descaling"
"""In the pack's own page and in the secret: a snippet cut through a swapped link would show the secret."""


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.md").write_text(f"# {SECRET} heading\n\nThe {SHARED} password is {SECRET}.\n",
                                      encoding="utf-8")
    return folder


@pytest.fixture
def pack(make_pack: Callable[..., Path], tmp_path: Path) -> Path:
    return make_pack("kettle", knowledge("kettle", "Kettle facts."), {
        "wiki/care.md": f"# Care\n\nRegular {SHARED} keeps the kettle working.\n",
        "compiled/facts.md": "# Facts\n\nCapacity is 1.7 litres.\n",
    }, parent=tmp_path / "packs")



def _nothing_secret(index: SearchIndex) -> None:
    for text in (SECRET, "password", f"{SECRET} heading"):
        results = index.search(text)
        assert results.hits == [], text
    for hit in index.search(SHARED).hits:
        assert SECRET not in repr(hit) and "password" not in hit.snippet


# -- a symlinked file leading out ------------------------------------------------------------------------------


def test_a_file_linked_out_is_neither_indexed_nor_shown(pack: Path, outside: Path, index: SearchIndex) -> None:
    (pack / "wiki" / "leak.md").symlink_to(outside / "secret.md")
    (pack / "compiled" / "leak.md").symlink_to(outside / "secret.md")
    report = index.refresh([pack])
    assert report.skipped["symlink-escape"] == 2
    _nothing_secret(index)
    hits = index.search(SHARED).hits
    assert [h.path for h in hits] == ["wiki/care.md"] and "«" not in hits[0].snippet
    assert SHARED in hits[0].snippet.lower() and not hits[0].unread
    # A one-file update of the link (what the watcher reports) refuses it too.
    assert index.update_paths([pack / "wiki" / "leak.md"]).skipped["symlink-escape"] == 1
    _nothing_secret(index)


def test_the_l0_index_and_the_layers_never_show_a_file_linked_out(
        pack: Path, outside: Path, index: SearchIndex, cache_dir: Path) -> None:
    (pack / "wiki" / "leak.md").symlink_to(outside / "secret.md")
    compressed = build_compressed_index([load_pack(pack)], cache_dir=cache_dir)
    assert [e.path for e in compressed.entries] == ["KNOWLEDGE.md", "compiled/facts.md", "wiki/care.md"]
    assert compressed.skipped["symlink-escape"] == 1 and SECRET not in compressed.text
    index.refresh([pack])
    result = simulate_layers(f"{SHARED} kettle", [load_pack(pack)], index)
    assert result.decision == "search" and [f.path for f in result.l2] == ["wiki/care.md"]
    assert SECRET not in json.dumps(result.to_json())


def test_the_cli_search_and_index_print_nothing_of_a_file_linked_out(
        pack: Path, outside: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (pack / "documents").symlink_to(outside, target_is_directory=True)
    (pack / "wiki" / "leak.md").symlink_to(outside / "secret.md")
    cache = str(tmp_path / "cache")
    assert main(["search", SECRET, str(pack), "--cache-dir", cache, "--format", "json"]) == 1
    found = json.loads(capsys.readouterr().out)
    assert found["results"] == [] and found["refresh"]["skipped"]["symlink-escape"] == 2  # documents/, the page
    assert main(["search", SHARED, str(pack), "--cache-dir", cache, "--format", "json"]) == 0
    assert main(["index", str(pack), "--cache-dir", cache]) == 0
    out, err = capsys.readouterr()
    assert SECRET not in out + err and "password" not in out + err


# -- a symlinked folder ----------------------------------------------------------------------------------------


def test_a_symlinked_folder_is_never_walked(pack: Path, outside: Path, index: SearchIndex) -> None:
    (pack / "wiki" / "linked").symlink_to(outside, target_is_directory=True)
    (pack / "wiki" / "again").symlink_to(pack / "compiled", target_is_directory=True)  # inside, still not walked
    listing = list_pack_files(pack)
    assert [f.path for f in listing.files] == ["KNOWLEDGE.md", "compiled/facts.md", "wiki/care.md"]
    assert listing.skipped["symlink-escape"] == 1 and listing.skipped["symlinked-folder"] == 1
    index.refresh([pack])
    _nothing_secret(index)
    assert [h.path for h in index.search("litres").hits] == ["compiled/facts.md"]  # once, not twice
    # Files named through either link, as a watcher may report them, are refused one by one too.
    report = index.update_paths([pack / "wiki" / "linked" / "secret.md", pack / "wiki" / "again" / "facts.md"])
    assert report.skipped["symlink-escape"] == 1 and report.skipped["symlinked-folder"] == 1
    _nothing_secret(index)
    assert [h.path for h in index.search("litres").hits] == ["compiled/facts.md"]


def test_a_folder_swapped_for_a_link_after_the_listing_is_not_read(
        pack: Path, outside: Path, index: SearchIndex, monkeypatch: pytest.MonkeyPatch) -> None:
    (outside / "care.md").write_text(f"# Care\n\n{SECRET} {SHARED}\n", encoding="utf-8")  # the name the walk saw
    after_first_call(changes_module, "list_pack_files", lambda: swap_for_link(pack / "wiki", outside), monkeypatch)
    report = index.refresh([pack])
    assert report.skipped["symlink-escape"] == 1  # wiki/care.md, now reached only through the link
    _nothing_secret(index)


# -- a file swapped for a link after it was indexed ------------------------------------------------------------


def test_a_file_swapped_for_a_link_after_indexing_gives_no_snippet_and_says_why(
        pack: Path, outside: Path, index: SearchIndex) -> None:
    index.refresh([pack])
    before = index.search(SHARED).hits
    assert [h.path for h in before] == ["wiki/care.md"] and SHARED in before[0].snippet.lower()
    swap_for_link(pack / "wiki" / "care.md", outside / "secret.md")  # the index has not seen this yet
    hits = index.search(SHARED).hits
    assert [h.path for h in hits] == ["wiki/care.md"]
    hit = hits[0]
    assert hit.snippet == "" and hit.highlights == ()
    assert hit.unread == "the file is now a symlink leading outside the pack"
    assert hit.to_json()["unread"] == hit.unread
    assert SECRET not in repr(hit) and SECRET not in json.dumps(hit.to_json())


def test_the_cli_says_why_a_hit_has_no_snippet(
        pack: Path, outside: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from studio.core.search import indexer

    cache = str(tmp_path / "cache")
    assert main(["search", SHARED, str(pack), "--cache-dir", cache]) == 0
    capsys.readouterr()
    # The CLI refreshes first; the swap lands right after that refresh, before the snippets are cut.
    after_first_call(indexer, "refresh", lambda: swap_for_link(pack / "wiki" / "care.md", outside / "secret.md"),
                      monkeypatch)
    assert main(["search", SHARED, str(pack), "--cache-dir", cache]) == 0
    out = capsys.readouterr().out
    assert "wiki/care.md" in out and "no snippet: the file is now a symlink leading outside the pack" in out
    assert SECRET not in out and "password" not in out


def test_a_file_swapped_between_its_stat_and_its_read_is_not_indexed(
        pack: Path, outside: Path, index: SearchIndex, monkeypatch: pytest.MonkeyPatch) -> None:
    index.refresh([pack])
    page = pack / "wiki" / "care.md"
    page.write_text(f"# Care\n\nNew {SHARED} advice.\n", encoding="utf-8")
    after_first_call(changes_module, "stamp_file", lambda: swap_for_link(page, outside / "secret.md"),
                      monkeypatch)
    report = index.update_paths([page])
    assert report.skipped["symlink-escape"] == 1 and report.indexed == 0
    _nothing_secret(index)
    assert index.search("advice").hits == []
    assert index.search(SHARED).hits == []  # the page's old rows left with it


def test_an_exact_token_count_never_reads_a_file_swapped_for_a_link(pack: Path, outside: Path) -> None:
    tok = get_tokenizer()
    compressed = build_compressed_index([load_pack(pack)], tokenizer=tok, count_budget=0)  # lower bounds only
    entry = next(e for e in compressed.entries if e.path == "wiki/care.md")
    assert entry.estimated and exact_tokens(entry, tok) is not None
    swap_for_link(pack / "wiki" / "care.md", outside / "secret.md")
    assert exact_tokens(entry, tok) is None


def test_the_catalog_preview_keeps_its_token_counts_in_the_cache_folder(pack: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    text = compressed_preview([load_pack(pack)], cache_dir=cache)
    assert "wiki/care.md" in text
    conn = sqlite3.connect(cache / INDEX_FILE)
    try:
        stored = conn.execute("SELECT count(*) FROM token_counts").fetchone()[0]
    finally:
        conn.close()
    assert stored == 3  # KNOWLEDGE.md's body, compiled/facts.md, wiki/care.md
