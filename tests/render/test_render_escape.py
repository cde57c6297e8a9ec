"""Escaping cannot be broken: hostile text never opens or closes a wrapper, and reads back unchanged."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from hypothesis import given, settings
from render_helpers import any_text

from studio.core.render.escape import (
    find_fence_breaks,
    neutralise,
    strip_forbidden,
    unneutralise,
    wrapper_tags,
    xml_attr,
    xml_text,
)


@given(any_text)
@settings(max_examples=200)
def test_unneutralise_gives_back_the_original_text(text: str) -> None:
    assert unneutralise(neutralise(text)) == strip_forbidden(text)


@given(any_text)
@settings(max_examples=200)
def test_neutralised_text_contains_nothing_that_breaks_a_fence(text: str) -> None:
    safe = neutralise(text)
    assert find_fence_breaks(safe) == []
    for name in ("knowledge_pack", "knowledge_pack_guide", "knowledge_resources", "available_knowledge_packs",
                 "selected_files", "warnings"):
        assert wrapper_tags(safe, name) == []


@given(any_text)
def test_xml_text_and_attributes_parse_back_to_the_value(text: str) -> None:
    doc = ET.fromstring(f'<a v="{xml_attr(text)}">{xml_text(text)}</a>')
    expected = strip_forbidden(text)
    assert doc.get("v") == expected
    # XML parsers normalise CR and CRLF in element text to LF; attributes keep them as character references.
    assert (doc.text or "") == expected.replace("\r\n", "\n").replace("\r", "\n")


def test_a_closing_tag_stays_readable_to_a_human() -> None:
    assert neutralise("before </knowledge_pack> after") == "before &lt;/knowledge_pack> after"
    assert neutralise("x ]]> y <!-- z") == "x ]]&gt; y &lt;!-- z"


def test_every_spelling_of_a_wrapper_tag_is_neutralised() -> None:
    for tag in ("</KNOWLEDGE_PACK>", "< /knowledge_pack >", "<\n/ knowledge_pack>", "<knowledge_pack name='x'>",
                "</Knowledge_Pack_Guide>", "<available_knowledge_packs>", "</warnings  >", "<\u200bselected_files>"):
        assert neutralise(tag).startswith("&lt;"), tag


def test_ordinary_markdown_and_html_are_left_alone() -> None:
    text = "Use <b>bold</b> & 5 < 6 > 4; see <file> and `a && b`."
    assert neutralise(text) == text


def test_entities_already_in_the_text_survive_the_round_trip() -> None:
    assert neutralise("&lt;/knowledge_pack&gt;") == "&amp;lt;/knowledge_pack&amp;gt;"
    assert unneutralise(neutralise("&lt;/knowledge_pack&gt;")) == "&lt;/knowledge_pack&gt;"


def test_forbidden_control_characters_are_dropped_everywhere() -> None:
    assert xml_text("a\x00b\x1bc") == "abc"
    assert neutralise("a\x08b\ud800") == "ab"
    assert xml_attr("tab\there") == "tab&#9;here"


def test_long_runs_of_blanks_after_a_bracket_stay_fast() -> None:
    import time

    hostile = "<" + " \u200b" * 200_000 + "/" + " " * 200_000 + "x"
    start = time.perf_counter()
    assert neutralise(hostile) == hostile
    assert find_fence_breaks(hostile) == []
    assert wrapper_tags(hostile, "warnings") == []
    assert time.perf_counter() - start < 2.0
