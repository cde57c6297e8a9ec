"""Hostile and unusual text in packs and queries, through a real index in a temp cache folder: every script is
found by its own words, and every query answers or says why not (never an error from the engine's parser)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from search_packs import knowledge

from studio.core.search import SearchIndex


@pytest.fixture
def scripts(make_pack: Callable[..., Path], tmp_path: Path) -> Path:
    return make_pack("scripts", knowledge("scripts"), {
        "wiki/hindi.md": "# हिंदी\n\nयह हिंदी पाठ है, नमस्ते। मैंने कहा कि वह आएगा।\n",
        "wiki/letter.md": "# अक्षर\n\nक वर्णमाला का पहला व्यंजन है।\n",
        "wiki/thai.md": "# ไทย\n\nสวัสดีครับ\n",
        "wiki/turkish.md": "# Şehir\n\nİstanbul büyük bir şehir.\n",
        "wiki/decomposed.md": "# Schools\n\nL'e\u0301cole du village.\n",
        "wiki/long.md": "# Long\n\n" + "ж" * 40 + " kettle\n",
    }, parent=tmp_path / "packs")


def _paths(index: SearchIndex, text: str) -> list[str]:
    result = index.search(text, limit=20)
    assert not result.problem, (text, result.problem)
    return sorted(h.path for h in result.hits)


@pytest.mark.parametrize(("text", "path"), [
    ("हिंदी", "wiki/hindi.md"), ("पाठ", "wiki/hindi.md"), ("नमस्ते", "wiki/hindi.md"),  # vowel signs inside words
    ("कि", "wiki/hindi.md"),  # not the letter क alone, which Python's \w makes of it
    ("สวัสดีครับ", "wiki/thai.md"),
    ("İstanbul", "wiki/turkish.md"), ("istanbul", "wiki/turkish.md"), ("ISTANBUL", "wiki/turkish.md"),
    ("İst*", "wiki/turkish.md"),
    ("école", "wiki/decomposed.md"), ("ecole", "wiki/decomposed.md"), ("e\u0301cole", "wiki/decomposed.md"),
])
def test_words_of_every_script_and_form_find_their_page(index: SearchIndex, scripts: Path, text: str,
                                                         path: str) -> None:
    index.refresh([scripts])
    assert _paths(index, text) == [path]


def test_a_word_too_long_for_the_index_is_said_so_and_the_rest_is_searched(index: SearchIndex,
                                                                           scripts: Path) -> None:
    index.refresh([scripts])
    alone = index.search("ж" * 40)
    assert alone.hits == [] and "64 bytes" in alone.problem
    assert _paths(index, "ж" * 40 + " kettle") == ["wiki/long.md"]
    assert index.search("a" * 64).problem.startswith("Nothing to search for")


@pytest.fixture
def awkward(make_pack: Callable[..., Path], tmp_path: Path) -> Path:
    """File and folder names that are not plain: regex characters, a line break, a path past a regex's size."""
    deep = "/".join(["é" * 120, "d" * 250, "e" * 250, "f" * 200])  # 1,144 bytes
    files = {f"wiki/{name}/page.md": f"# {name}\n\nkettle in {name}\n"
             for name in ("a+b", "x(1)", "[draft]", "dot.", "ünï", "a\nb")}
    files[f"wiki/{deep}/page.md"] = "# Deep\n\nkettle deep down\n"
    files["wiki/plain.md"] = "# Plain\n\nkettle plain\n"
    return make_pack("awkward (1)", knowledge("awkward"), files, parent=tmp_path / "pä cks [x]+")


def test_the_folder_filter_takes_any_folder_name_literally(index: SearchIndex, awkward: Path) -> None:
    index.refresh([awkward])
    everything = {h.path for h in index.search("kettle", limit=50).hits}
    assert len(everything) == 8
    assert {h.path for h in index.search("kettle", path_prefix="wiki/", limit=50).hits} == everything
    assert {h.path for h in index.search("kettle", roots=[awkward], limit=50).hits} == everything
    for path in everything:
        assert [h.path for h in index.search("kettle", path_prefix=path, limit=50).hits] == [path], path
        folder = path.rsplit("/", 1)[0] + "/"
        if folder != "wiki/":
            assert [h.path for h in index.search("kettle", path_prefix=folder, limit=50).hits] == [path], folder


def test_undecodable_names_are_skipped_and_never_stop_a_refresh_or_a_search(
        index: SearchIndex, kettle: Path, tmp_path: Path) -> None:
    bad_file = os.path.join(os.fsencode(kettle / "wiki"), b"bad\xffname.md")
    Path(os.fsdecode(bad_file)).write_text("# Bad\n\nkettle badname\n", encoding="utf-8")
    bad_root = os.fsdecode(os.path.join(os.fsencode(tmp_path / "packs"), b"pack\xfe"))
    os.makedirs(os.path.join(bad_root, "wiki"))
    Path(bad_root, "KNOWLEDGE.md").write_text(knowledge("undecodable"), encoding="utf-8")
    report = index.refresh([kettle, bad_root])
    assert report.skipped["undecodable-name"] == 2
    assert {h.path for h in index.search("descale").hits} == {"wiki/concepts/descaling.md"}
    assert index.update_paths([os.fsdecode(bad_file)]).skipped["undecodable-name"] == 1
    for text in ("\ud800descale", "descale\udcff"):
        assert [h.path for h in index.search(text).hits] == ["wiki/concepts/descaling.md"]
    assert index.search("\udcff").problem.startswith("Nothing to search for")
    assert index.search("descale", path_prefix="wiki/\udcff").hits == []
    assert index.search("descale", kinds=["\ud800"]).hits == []
    assert [h.path for h in index.search("descale", kinds=["wiki", "\ud800"]).hits] == ["wiki/concepts/descaling.md"]
