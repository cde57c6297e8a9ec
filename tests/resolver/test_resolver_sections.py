"""Heading sections: line ranges, slugs, and the line scan agreeing with markdown-it-py."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from resolver_packs import knowledge

from studio.core.model import Pack
from studio.core.resolver import ResolveRequest, ResolverSession
from studio.core.resolver.sections import _parser, heading_lines, is_simple, slugify, split_sections


def _markdown_it_headings(text: str) -> list[tuple[int, int, str]]:
    tokens = _parser().parse(text)
    return [(t.map[0], int(t.tag[1]), tokens[i + 1].content.strip())
            for i, t in enumerate(tokens) if t.type == "heading_open" and t.map is not None]


_TITLES = ["", " a", " b c", "\ttab", "x", " ## ", " a #", " a#", " 林悦", " \\#", "  spaced  "]
_CLOSERS = ["", " #", " ##  ", "#", " \\#", "\t#"]
_LINES = st.one_of(
    st.builds(lambda level, pad, title, close: " " * pad + "#" * level + title + close,
              st.integers(1, 8), st.integers(0, 5), st.sampled_from(_TITLES), st.sampled_from(_CLOSERS)),
    st.sampled_from(["", "text", "- item", "1. item", "  - nested", "    code", "```", "~~~", "---", "===",
                     "> quote", "<div>", "* star", "- # h", "\t# tab", "    # code", "para # hash", "***"]),
)


@settings(max_examples=120, deadline=None)
@given(st.lists(_LINES, max_size=12))
def test_line_scan_finds_what_markdown_it_finds(lines: list[str]) -> None:
    text = "\n".join(lines)
    assert heading_lines(text) == _markdown_it_headings(text)


_SIMPLE_LINES = st.one_of(
    st.builds(lambda level, pad, title, close: " " * pad + "#" * level + title + close,
              st.integers(1, 7), st.integers(0, 3), st.sampled_from(_TITLES), st.sampled_from(_CLOSERS)),
    st.sampled_from(["", "text", "- item", "1. item", "  - nested", "* star", "para # hash", "***", "2) two"]),
)


@settings(max_examples=120, deadline=None)
@given(st.lists(_SIMPLE_LINES, max_size=12))
def test_line_scan_on_plain_documents(lines: list[str]) -> None:
    text = "\n".join(lines)
    if is_simple(text):  # nearly always; this is the path the fast scan takes
        assert heading_lines(text) == _markdown_it_headings(text)


def test_the_line_scan_is_used_for_plain_documents() -> None:
    text = "# Brief\n\nIntro.\n\n## Pricing ##\n\n- 89 euros\n- matte black\n\n### 保修\n\n两年。\n"
    assert is_simple(text)
    assert heading_lines(text) == _markdown_it_headings(text) == [(0, 1, "Brief"), (4, 2, "Pricing"),
                                                                  (9, 3, "保修")]


def test_sections_keep_line_ranges_and_skip_code_fences() -> None:
    text = "Preamble line\n\n# One\nbody\n```\n# not a heading\n```\n\n## Two\nmore\n\n"
    sections = split_sections(text)
    assert [(s.title, s.start_line, s.end_line) for s in sections] == [
        (None, 1, 1), ("One", 3, 7), ("Two", 9, 10)]
    assert sections[1].text.endswith("```")


def test_repeated_headings_get_unique_slugs() -> None:
    slugs = [s.slug for s in split_sections("# FAQ\na\n# FAQ\nb\n# Tone & Voice!\nc\n")]
    assert slugs == ["faq", "faq-1", "tone--voice"]
    assert slugify("声音与语气") == "声音与语气"


_WIDE = 200_000


@pytest.mark.timeout(10)
def test_a_heading_with_a_huge_blank_run_is_parsed_in_linear_time() -> None:
    # A closing-sequence regex tried at every blank took quadratic time here (minutes, not milliseconds).
    text = "intro\n\n# a" + " " * _WIDE + "b\n\nbody\n\n## c" + " " * _WIDE + "##\n\nmore\n\n### " + " " * _WIDE + "\n"
    started = time.perf_counter()
    heads = heading_lines(text)
    sections = split_sections(text)
    assert time.perf_counter() - started < 2
    assert heads == [(2, 1, "a" + " " * _WIDE + "b"), (6, 2, "c"), (10, 3, "")]
    assert [(s.title, s.level, s.start_line) for s in sections][1:] == [(h[2], h[1], h[0] + 1) for h in heads]
    fenced = split_sections("```\n# not a heading\n```\n" + text)  # the markdown-it path
    assert [s.title for s in fenced] == [None] + [h[2] for h in heads]
    small = "# a" + " " * 50 + "b\n## c  ##\n### \n"
    assert heading_lines(small) == _markdown_it_headings(small)


@pytest.mark.timeout(10)
def test_a_huge_blank_heading_line_resolves_quickly(pack_at: Callable[..., Pack]) -> None:
    pack = pack_at("wide", knowledge("wide", primary="documents/x.md"), {
        "documents/x.md": "# Warranty\n\nTwo years.\n\n# a" + " " * _WIDE + "b\n\nwarranty b\n"})
    started = time.perf_counter()
    result = ResolverSession().resolve(ResolveRequest("warranty", [pack], budget=2000))
    assert time.perf_counter() - started < 5
    assert "Two years." in result.fenced_text
