"""Completion and hover in the frontmatter: the right keys and values at each place, nothing elsewhere."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from studio.core.authoring.completion import complete, hover
from studio.core.model import PROFILES, STANDARD_TYPES, STATUSES

TEXT = ("---\nname: acme\nsta\nruntime:\n  mo\nmetadata:\n  primaryDocument: doc\n  pro\nstatus: re\n"
        "type: brand\nupdated: \n---\n\nBody: status\n")


def _labels(line: int, column: int, **kw: object) -> list[str]:
    result = complete(TEXT, line, column, **kw)  # type: ignore[arg-type]
    assert result is not None
    return [item.label for item in result.items]


def test_top_level_keys_leave_out_the_ones_already_written() -> None:
    labels = _labels(3, 3)
    assert "description" in labels and "profile" in labels
    assert not {"name", "status", "type", "runtime", "metadata"} & set(labels)


def test_nested_keys_follow_their_parent() -> None:
    assert _labels(5, 4) == ["mode"]
    assert _labels(8, 5) == ["primaryOntology", "primaryAnswers", "producedBy"]


def test_enumeration_values_with_their_meaning() -> None:
    result = complete(TEXT, 9, 10)
    assert result is not None and result.is_value and result.path == ("status",)
    assert [i.label for i in result.items] == list(STATUSES)
    assert (result.start, result.end, result.prefix) == (8, 10, "re")
    assert all(i.detail for i in result.items)
    assert _labels(10, 11) == [*STANDARD_TYPES, "custom:"]


def test_primary_document_offers_the_packs_documents(tmp_path: Path) -> None:
    (tmp_path / "documents" / "sub").mkdir(parents=True)
    for rel in ("documents/brief.md", "documents/sub/faq.md", "documents/data.json", "wiki/x.md"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x")
    assert _labels(7, 20, pack_root=tmp_path) == ["documents/brief.md", "documents/sub/faq.md"]


def test_a_mapping_key_inserts_its_block_and_updated_inserts_a_quoted_date() -> None:
    result = complete("---\nname: a\nrun\n---\n", 3, 3)
    assert result is not None
    runtime = next(i for i in result.items if i.label == "runtime")
    assert runtime.insert == "runtime:\n  "
    updated = complete(TEXT, 11, 9, today=date(2026, 5, 1))
    assert updated is not None and [i.insert for i in updated.items] == ['"2026-05-01"']


def test_nothing_outside_the_frontmatter_or_in_a_list() -> None:
    assert complete(TEXT, 14, 5) is None
    assert complete(TEXT, 1, 2) is None
    assert complete("no frontmatter\nname: x\n", 2, 3) is None
    assert complete("---\nmaintainers:\n  - a\n---\n", 3, 4) is None


def test_hover_explains_keys_and_values() -> None:
    text = "---\nprofile: hybrid\nruntime:\n  mode: persona\n---\n"
    key = hover(text, 2, 2)
    assert key is not None and key.title == "profile" and "documents/" in key.text and "one of:" in key.text
    assert (key.start, key.end) == (0, 7)
    value = hover(text, 4, 9)
    assert value is not None and value.title == "runtime.mode: persona"
    assert hover(text, 4, 3) is not None and hover(text, 4, 3).title == "runtime.mode"  # type: ignore[union-attr]
    assert hover(text, 5, 1) is None


def test_profile_values_are_offered_after_a_quote() -> None:
    result = complete("---\nprofile: \"wi\n---\n", 2, 12)
    assert result is not None and [i.label for i in result.items] == list(PROFILES)
    assert result.prefix == "wi" and result.start == 10


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300), st.integers(0, 20), st.integers(0, 80))
def test_any_text_and_position_answers_without_raising(text: str, line: int, column: int) -> None:
    result = complete(text, line, column)
    if result is not None:
        assert 0 <= result.start <= result.end
    hover(text, line, column)
