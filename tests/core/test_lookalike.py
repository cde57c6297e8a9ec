"""Lookalike pack names: TR39-style skeletons group names that differ only by confusables, invisible characters,
normalisation form or case (issue #12, cause 13)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from studio.core import lookalike
from studio.core.lookalike import LookalikePack, lookalike_findings, lookalike_groups, lookalike_pack_findings, skeleton


def test_unicodes_table_is_installed() -> None:
    assert lookalike.confusables_available()


@pytest.mark.parametrize(("a", "b"), [
    ("payments", "p\u0430yments"),  # Cyrillic a
    ("billing", "bilIing"),  # capital I for l
    ("model", "rnodel"),  # rn for m
    ("notes", "no\u00adtes"),  # soft hyphen
    ("notes", "no\u200btes"),  # zero-width space
    ("notes", "NOTES"),  # case
    ("caf\u00e9", "cafe\u0301"),  # NFC and NFD
    ("pack", "\uff50\uff41\uff43\uff4b"),  # fullwidth
    ("v0-notes", "vo-notes"),  # digit zero for o
])
def test_lookalike_names_share_a_skeleton(a: str, b: str) -> None:
    assert a != b and (skeleton(a) == skeleton(b) or skeleton(a, fold_case_first=True) == skeleton(b,
                                                                                              fold_case_first=True))
    assert lookalike_groups([a, b, "unrelated"]) == [sorted([a, b])]


@pytest.mark.parametrize(("a", "b"), [("alpha", "alphb"), ("notes-v1", "notes-v2"), ("café", "cafe")])
def test_different_names_do_not(a: str, b: str) -> None:
    assert lookalike_groups([a, b]) == []


def test_a_name_given_twice_is_not_its_own_lookalike() -> None:
    assert lookalike_groups(["notes", "notes", "other"]) == []
    assert lookalike_groups(["notes", "notes", "Notes"]) == [["Notes", "notes"]]


def test_findings_name_the_other_packs_visibly() -> None:
    group = [LookalikePack("payments", "/ws/a", 2, 7), LookalikePack("p\u0430yments", "/ws/b"),
             LookalikePack("p\u0430yments", "/ws/c")]
    findings = lookalike_findings(group)
    assert [(d.code, d.pack, d.line, d.column) for d in findings] == [
        ("lookalike-pack-names", "/ws/a", 2, 7), ("lookalike-pack-names", "/ws/b", 1, 1),
        ("lookalike-pack-names", "/ws/c", 1, 1)]
    assert "'p\\u0430yments' (/ws/b, /ws/c)" in findings[0].message
    assert lookalike_pack_findings([*group, LookalikePack("other", "/ws/d")]) == findings


def _confusable_sources() -> dict[str, list[str]]:
    """For each ASCII character, the characters whose prototype it is (from Unicode's table)."""
    table = lookalike._prototypes()
    sources: dict[str, list[str]] = {}
    for source, prototype in table.items():
        if len(prototype) == 1 and prototype.isascii():
            sources.setdefault(prototype, []).append(source)
    return sources


SOURCES = _confusable_sources()
INVISIBLE = ["\u00ad", "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u034f", "\ufe0f"]


@st.composite
def disguised(draw: st.DrawFn) -> tuple[str, str]:
    """An ASCII pack name and a disguise of it: confusables, invisible characters, case, NFD.

    A name may change case or use confusables that case-folding changes (capital ``I`` for ``l``), not both: ``AI``
    for ``al`` differs by case *and* by a lookalike, and is not reported.
    """
    name = draw(st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-", min_size=1, max_size=20))
    change_case = draw(st.booleans())
    out = []
    for ch in name:
        choice = draw(st.integers(0, 4))
        sources = [c for c in SOURCES.get(ch, []) if not change_case or c.casefold() == c]
        if choice == 0 and sources:
            out.append(draw(st.sampled_from(sources)))
        elif choice == 1:
            out.append(ch + draw(st.sampled_from(INVISIBLE)))
        elif choice == 2 and change_case:
            out.append(ch.upper())
        else:
            out.append(ch)
    disguise = "".join(out)
    if draw(st.booleans()):
        disguise = unicodedata.normalize("NFD", disguise)
    return name, disguise


@given(disguised())
def test_any_disguise_of_a_name_is_caught(pair: tuple[str, str]) -> None:
    name, disguise = pair
    assert lookalike_groups([name, disguise]) == ([] if name == disguise else [sorted([name, disguise])])


@given(st.lists(st.text(max_size=12), max_size=12))
def test_groups_partition_distinct_names(names: list[str]) -> None:
    groups = lookalike_groups(names)
    flat = [n for g in groups for n in g]
    assert len(flat) == len(set(flat))
    for group in groups:
        assert len(group) > 1


@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=40), st.booleans())
def test_the_ascii_fast_path_equals_the_full_skeleton(name: str, fold_first: bool) -> None:
    from studio.core.lookalike import _full_skeleton

    assert skeleton(name, fold_case_first=fold_first) == _full_skeleton(name, fold_first)
