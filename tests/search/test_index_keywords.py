"""The compressed index's keywords read as words: no folded fragments ("indexe"), no topic-less words."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from studio.core.pack import load_pack
from studio.core.search.compressed import build_compressed_index

GUIDE = ("---\nname: {name}\ndescription: Facts.\ntype: domain-reference\nstatus: ready\nprofile: wiki-first\n---\n"
         "# Guide\n\n{body}\n")


def test_keywords_are_words_a_reader_knows(make_pack: Callable[..., Path], tmp_path: Path) -> None:
    body = ("Build the indexes ad hoc, one at a time; read the indexes and the statuses before the indexes "
            "are used. Ad hoc indexes, one statuses list, ad hoc again, one more: kettles kettles.")
    packs = [load_pack(make_pack("alpha", GUIDE.format(name="alpha", body=body))),
             load_pack(make_pack("beta", GUIDE.format(name="beta", body="Warranty terms and refunds.")))]
    index = build_compressed_index(packs, cache_dir=tmp_path / "cache")
    keywords = next(e.keywords for e in index.entries if e.pack == "alpha")
    assert "indexes" in keywords and "statuses" in keywords and "kettles" in keywords, keywords
    assert not {"indexe", "statuse", "kettle", "hoc", "one", "read", "used"} & set(keywords), keywords
