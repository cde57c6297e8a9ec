"""Hostile and unusual text in packs and queries, through a real index in a temp cache folder: every script is
found by its own words, and every query answers or says why not (never an error from the engine's parser)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from search_packs import knowledge

from studio.core.search import SearchIndex


@pytest.fixture
def scripts(make_pack: Callable[..., Path], tmp_path: Path) -> Path:
    return make_pack("scripts", knowledge("scripts"), {
        "wiki/hindi.md": "# हिंदी\n\nयह हिंदी पाठ है, नमस्ते।\n",
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
