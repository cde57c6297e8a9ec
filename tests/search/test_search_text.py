"""Text preparation, query parsing and block cutting: invariants over any input, and the cases that matter."""

from __future__ import annotations

import re
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from studio.core.resolver.sections import heading_lines as resolver_heading_lines
from studio.core.search.blocks import heading_lines, markdown_blocks, text_blocks
from studio.core.search.engine import Engine
from studio.core.search.keywords import Folds, file_terms
from studio.core.search.snippets import make_snippet, safe_text
from studio.core.search.textprep import (
    _ASCII_TOKEN,
    _TOKEN,
    BOUNDARY,
    Highlighter,
    _spread_array,
    _spread_runs,
    engine_expression,
    index_text,
    parse_query,
)
from studio.core.text.terms import STOPWORDS, fold, raw_bag

_ENGINE = Engine(None, create=True)
_writer = _ENGINE.writer()
_writer.add(1, 1, 1, "guide", "KNOWLEDGE.md", "", "KNOWLEDGE.md", index_text("Refund window 退款窗口，阶段 café"))
_writer.commit()
_SEARCHER = _ENGINE.searcher()

_TEXT = st.text(alphabet=st.sampled_from(list('ab "*()-:^+\\\'AND OR NOT NEAR 品牌，。 \n\t\x1b\u202e\ua66e\ue000é_')),
                max_size=60) | st.text(max_size=40) | st.lists(st.sampled_from(
                    ["ж" * 32, "a" * 64, "İst", "İ*", "पाठ", "ไทย", "x*", '"', "ß", "ﬁ", "e\u0301", "\ud800", "品*"]),
                    max_size=4).map(" ".join)
"""Any text, and words the engine reads otherwise than Python (too long to index, dotted I, vowel signs)."""


def test_cjk_characters_become_tokens_and_punctuation_a_boundary() -> None:
    assert index_text("品牌语气，好").split() == ["品", "牌", "语", "气", BOUNDARY, "好"]
    assert index_text("plain ascii") == "plain ascii"
    assert BOUNDARY in index_text(f"x{BOUNDARY}y")  # forged boundaries stay boundaries, nothing more


_MIXED = st.text(alphabet=st.sampled_from(list("ab 品牌语气，。「」\ua66e\ue000\n\t_é")
                                          + ["\ud800", "\U00020000", "ｆ"]), max_size=300)


@given(_MIXED | st.text(max_size=200))
@settings(max_examples=300, deadline=None)
def test_long_and_short_text_are_spread_into_the_same_tokens(text: str) -> None:
    assert _spread_array(text).split() == _spread_runs(text).split()


@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=80))
@settings(max_examples=300, deadline=None)
def test_an_ascii_query_is_cut_into_the_words_the_unicode_pattern_finds(text: str) -> None:
    # English queries take the ASCII pattern (the Unicode one costs milliseconds to compile at each run).
    assert _ASCII_TOKEN.findall(text) == re.findall(_TOKEN, text)


@given(_TEXT)
@settings(max_examples=300, deadline=None)
def test_any_user_text_makes_a_query_the_engine_accepts(text: str) -> None:
    query = parse_query(text)
    for mode in ("all", "any"):
        expression = engine_expression(query, mode,
                                       lambda prefix: _ENGINE.completions(_SEARCHER, prefix), _ENGINE.tokens)
        if expression is not None:
            _ENGINE.top(_SEARCHER, _ENGINE.parse(expression), 5)  # raises EngineError if refused


def test_phrases_of_characters_stop_at_punctuation_and_diacritics_fold() -> None:
    def found(text: str) -> bool:
        expression = engine_expression(parse_query(text), "all", lambda p: _ENGINE.completions(_SEARCHER, p),
                                       _ENGINE.tokens)
        assert expression is not None
        return bool(_ENGINE.top(_SEARCHER, _ENGINE.parse(expression), 5))

    assert found("退款") and found("窗口") and found("阶段") and found('"退款窗口"')
    assert not found("口阶")  # the comma between them is a boundary
    assert found("cafe") and found("café") and found("Refund") and found("refunds") and found("wind*")
    assert not found("refundwindow")


@given(_TEXT, st.text(max_size=200))
@settings(max_examples=200, deadline=None)
def test_highlights_lie_inside_the_text(query: str, text: str) -> None:
    for a, b in Highlighter(parse_query(query)).spans(text):
        assert 0 <= a < b <= len(text)


def test_highlights_whole_words_only() -> None:
    spans = Highlighter(parse_query("fund")).spans("refund the fund, funds")
    assert spans == [(11, 15), (17, 22)]


def test_common_words_are_dropped_unless_nothing_else_is_left() -> None:
    assert [t.text for t in parse_query("how to set the tone").terms] == ["set", "tone"]
    assert [t.text for t in parse_query("the").terms] == ["the"]
    assert [t.text for t in parse_query('"the end"').terms] == ["the end"]


def test_snippet_is_safe_and_keeps_highlight_offsets() -> None:
    lines = ["# Title", "before \x1b[31m evil \u202e text the refund window goes here and on and on " + "x" * 80]
    snip = make_snippet(lines, 1, 2, Highlighter(parse_query("refund")))
    assert snip.line == 2
    assert "\x1b" not in snip.text and "\u202e" not in snip.text
    assert [snip.text[a:b] for a, b in snip.highlights] == ["refund"]
    assert len(snip.text) <= 2 * 50 + len("refund") + 2
    assert safe_text("a\nb\tc") == "a b c"


def test_the_snippet_line_has_the_most_distinct_terms_and_phrases_stay_within_a_line() -> None:
    lines = ["# Refunds", "A refund is due.", "Tenant", "isolation matters; the Refund WINDOW is short.",
             "the refund window, refund windows and tenant isolation"]
    pattern = Highlighter(parse_query("refund window"))
    assert make_snippet(lines, 1, 5, pattern).line == 5  # refund, window, windows: three distinct forms
    assert make_snippet(lines, 1, 4, pattern).line == 4  # the first line with both words, whatever the case
    phrase = Highlighter(parse_query('"tenant isolation"'))
    assert make_snippet(lines, 1, 4, phrase).highlights == ()  # "Tenant" and "isolation" are on two lines
    assert make_snippet(lines, 1, 5, phrase).line == 5


@given(st.lists(st.text(alphabet=st.sampled_from(list("ab AB,\u0130\u017f品牌")), max_size=30), max_size=6),
       st.sampled_from(["ab", "a b", '"b a"', "品牌", "b*", "Ab"]))
@settings(max_examples=200, deadline=None)
def test_a_section_searched_at_once_finds_what_each_line_finds(lines: list[str], query: str) -> None:
    pattern = Highlighter(parse_query(query))
    per_line = [(n, span) for n, line in enumerate(lines) for span in pattern.spans(line)]
    best = max((len({lines[n][a:b].lower() for m, (a, b) in per_line if m == n}), -n) for n, _ in per_line) \
        if per_line else None
    snip = make_snippet(lines, 1, len(lines), pattern)
    if best is None:
        assert snip.highlights == ()
    else:
        assert snip.line == 1 - best[1]


def test_headings_inside_code_fences_are_not_headings() -> None:
    text = "intro\n# One\n```\n# not a heading\n```\n~~~~\n## nor this\n~~~\n~~~~\n## Two ##\ntext\n"
    assert [(n, level, title) for n, level, title, _ in heading_lines(text)] == [(1, 1, "One"), (9, 2, "Two")]
    blocks = markdown_blocks(text)
    assert [(b.heading, b.start_line, b.end_line) for b in blocks] == [(None, 1, 1), ("One", 2, 9), ("Two", 10, 12)]
    assert "".join(text[b.start:b.end] for b in blocks) == text


_LINE = st.sampled_from(["", "text", "more words", "# H1", "## H2 ##", "### h3", "#nohash", "  ## indented",
                         "####### seven", "- item", "```", "~~~", "```py", "# 中文标题", "#", "## "])


@given(st.lists(_LINE, max_size=30))
@settings(max_examples=300, deadline=None)
def test_heading_scan_agrees_with_the_resolvers_markdown_parser(lines: list[str]) -> None:
    text = "\n".join(lines)
    assert [(n, level, title) for n, level, title, _ in heading_lines(text)] == resolver_heading_lines(text)


@given(st.text(alphabet=st.sampled_from(list("ab\n")), max_size=900))
@settings(max_examples=200, deadline=None)
def test_text_blocks_cover_every_line_once(text: str) -> None:
    blocks = text_blocks(text, lines=7)
    assert "".join(text[b.start:b.end] for b in blocks) == text
    for before, after in zip(blocks, blocks[1:], strict=False):
        assert after.start_line == before.end_line + 1


def _reference_terms(text: str) -> Counter[str]:
    """Keyword candidates as the resolver's terms give them: every raw term, then the candidates kept."""
    out: Counter[str] = Counter()
    for term, tf in raw_bag(text).items():
        word = term.decode("utf-8", "replace")
        if re.fullmatch(r"[a-z]{3,}", word):
            if word not in STOPWORDS:
                out[fold(word)] += tf
        elif len(word) == 2 and not word.isascii() and word.isalpha():
            out[word] += tf
    return out


_WORDY = st.text(alphabet=st.sampled_from(list("abcdeABC 123_-—“”.\n品牌语气，・ーカナéÉİΣσſK\u0301")), max_size=120)


@given(_WORDY | st.text(max_size=80))
@settings(max_examples=400, deadline=None)
def test_keyword_candidates_are_the_resolvers_terms(text: str) -> None:
    assert file_terms(text, Folds()) == _reference_terms(text)
