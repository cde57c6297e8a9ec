"""The frontmatter parser: positions, coercions and every kind of bad input become diagnostics."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from studio.core.diagnostics import Severity
from studio.core.frontmatter import MAX_KNOWLEDGE_BYTES, read_knowledge_bytes


def codes(data: bytes) -> list[tuple[int, int, str]]:
    _, diags = read_knowledge_bytes(data)
    return [(d.line, d.column, d.code) for d in diags]


def test_positions_of_keys_and_values_are_one_based() -> None:
    kf, diags = read_knowledge_bytes(b"---\nname: acme\nmetadata:\n  primaryDocument: documents/a.md\n---\n# Guide\n")
    assert diags == []
    fm = kf.frontmatter
    assert fm is not None
    assert fm.position("name").line == 2 and fm.position("name").value_column == 7
    pos = fm.position("metadata", "primaryDocument")
    assert (pos.line, pos.column, pos.value_column) == (4, 3, 20)
    assert kf.body == "# Guide\n" and kf.body_start_line == 6


def test_yaml_11_coercions_keep_the_written_text() -> None:
    kf, diags = read_knowledge_bytes(b"---\nversion: 1.10\nlanguage: no\nupdated: 2026-05-01\n---\n")
    assert kf.frontmatter is not None
    assert kf.frontmatter.data == {"version": "1.10", "language": "no", "updated": "2026-05-01"}
    assert [(d.line, d.code) for d in diags] == [(2, "yaml-coercion"), (3, "yaml-coercion")]


def test_bom_and_crlf_are_tolerated_and_reported() -> None:
    kf, diags = read_knowledge_bytes(b"\xef\xbb\xbf---\r\nname: acme\r\n---\r\nbody\r\n")
    assert kf.frontmatter is not None and kf.frontmatter.data == {"name": "acme"}
    assert {d.code for d in diags} == {"utf8-bom", "crlf-line-endings"}
    assert all(d.severity == "info" for d in diags)


def test_missing_and_unclosed_frontmatter() -> None:
    assert codes(b"# just markdown\n") == [(1, 1, "missing-frontmatter")]
    assert codes(b"---\nname: a\n") == [(1, 1, "unclosed-frontmatter")]
    assert codes(b"") == [(1, 1, "missing-frontmatter")]


def test_invalid_yaml_points_at_the_problem() -> None:
    assert codes(b"---\nname: acme\ndescription: [unclosed\n---\n") == [(4, 1, "invalid-yaml")]


def test_tabs_duplicates_and_non_mappings() -> None:
    assert codes(b"---\nruntime:\n\tmode: data\n---\n") == [(3, 1, "tab-indentation")]
    assert codes(b"---\nname: a\nname: b\n---\n") == [(3, 1, "duplicate-key")]
    assert codes(b"---\n- a\n- b\n---\n") == [(2, 1, "frontmatter-not-mapping")]
    assert codes(b"---\njust a string\n---\n") == [(2, 1, "frontmatter-not-mapping")]
    assert codes(b"---\n---\n") == [(2, 1, "frontmatter-not-mapping")]


def test_alias_bomb_is_refused_before_expansion() -> None:
    # The "billion laughs" shape: each level repeats the previous one nine times (9**9 leaves if expanded).
    lines = ["---", 'l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, 10):
        lines.append(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]")
    lines.append("---")
    kf, diags = read_knowledge_bytes("\n".join(lines).encode())
    assert kf.frontmatter is None
    assert [(d.line, d.column, d.code) for d in diags] == [(2, 5, "yaml-anchor-alias")]


def test_undecodable_bytes_report_the_byte_offset() -> None:
    _, diags = read_knowledge_bytes(b"---\nname: caf\xe9\n---\n")
    bad = [d for d in diags if d.code == "invalid-encoding"]
    assert len(bad) == 1 and "offset 13" in bad[0].message and (bad[0].line, bad[0].column) == (2, 10)


def test_oversized_file_is_truncated_with_a_warning() -> None:
    data = b"---\nname: big\n---\n" + b"x" * (MAX_KNOWLEDGE_BYTES + 10)
    kf, diags = read_knowledge_bytes(data[: MAX_KNOWLEDGE_BYTES + 1], size=len(data))
    assert kf.truncated and kf.frontmatter is not None
    assert [d.code for d in diags] == ["knowledge-too-large"]


def _spans_inside(data: bytes) -> None:
    kf, diags = read_knowledge_bytes(data)
    lines = kf.text.split("\n")
    for d in diags:
        assert 1 <= d.line <= max(len(lines), 1)
        assert d.column >= 1
    if kf.frontmatter:
        for pos in kf.frontmatter.positions.values():
            assert 1 <= pos.line <= len(lines) and 1 <= pos.value_line <= len(lines)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_any_bytes_never_raise(data: bytes) -> None:
    _spans_inside(data)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("---\n: -[]{}&*!|>'\"#\tab1 名\r")), max_size=200))
def test_yaml_like_text_never_raises(text: str) -> None:
    _spans_inside(("---\n" + text + "\n---\nbody").encode("utf-8"))


@pytest.mark.parametrize("value", [
    "[" * 30000 + "]" * 30000,  # flow lists: libyaml's own scanner limit trips before any event on some releases
    "{a: " * 3000 + "1" + "}" * 3000,
    "\n" + "".join("  " * i + f"k{i}:\n" for i in range(1, 60)) + "  " * 60 + "v: 1\n" + "# pad\n" * 500,
])
def test_deep_nesting_is_refused_before_the_composer_recurses(value: str) -> None:
    """30,000 nested lists once overflowed the C stack of the composer and killed the process.

    Whatever parser refuses it first, the user sees one error naming the nesting, where the nesting is.
    """
    raw = "---\nname: deep\nx: " + value + "\n---\n"
    kf, diags = read_knowledge_bytes(raw.encode())
    assert kf.frontmatter is None
    assert len(diags) == 1 and diags[0].severity is Severity.ERROR
    assert diags[0].code == "frontmatter-too-complex"
    assert 3 <= diags[0].line <= 3 + 33


def test_complex_keys_are_named_by_position() -> None:
    kf, _ = read_knowledge_bytes(b"---\nname: a\n? [x, y]\n: 1\n---\n")
    assert kf.frontmatter is not None and "<complex key at line 3>" in kf.frontmatter.data


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["---", "--- ", "----", "a: 1", "", "# T", "body", "b: [1"]), max_size=8),
       st.booleans())
def test_body_and_fence_lines_point_at_the_right_lines(lines: list[str], trailing_newline: bool) -> None:
    """The editor maps diagnostics through these numbers: body and frontmatter must sit where they claim."""
    text = "\n".join(lines) + ("\n" if trailing_newline else "")
    kf, _ = read_knowledge_bytes(text.encode())
    file_lines = text.split("\n")
    if kf.body_start_line > 1:
        assert kf.body == "\n".join(file_lines[kf.body_start_line - 1:])
        assert file_lines[kf.body_start_line - 2].rstrip(" \t") == "---"
    else:
        assert kf.body == text
    if kf.frontmatter is not None:
        fm = kf.frontmatter
        assert fm.raw == "\n".join(file_lines[1:fm.end_line - 1])
        assert fm.end_line == kf.body_start_line - 1
