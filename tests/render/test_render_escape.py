"""Escaping cannot be broken: hostile text never opens or closes a wrapper, and reads back unchanged."""

from __future__ import annotations

import re
import sys
import unicodedata
import xml.etree.ElementTree as ET

from hypothesis import given, settings
from hypothesis import strategies as st
from render_helpers import any_text

from studio.core.render.escape import (
    INVISIBLE,
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


def test_markup_is_escaped_readably_and_nothing_else_changes() -> None:
    text = "Use <b>bold</b> & 5 < 6 > 4; see <file> and `a && b` > quoted."
    assert neutralise(text) == "Use &lt;b>bold&lt;/b> &amp; 5 &lt; 6 > 4; see &lt;file> and `a &amp;&amp; b` > quoted."
    plain = "plain Markdown, 中文, > quotes, [links](x.md)"
    assert neutralise(plain) == plain


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
    assert neutralise(hostile) == "&lt;" + hostile[1:]
    assert find_fence_breaks(hostile) == []
    assert wrapper_tags(hostile, "warnings") == []
    assert time.perf_counter() - start < 2.0


_NAMES = ("knowledge_pack", "knowledge_pack_guide", "knowledge_resources", "available_knowledge_packs",
          "selected_files", "warnings")
_FORMAT_CHARS = "".join(chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Cf")
_INVISIBLE_RE = re.compile(rf"[\s{INVISIBLE}]")
_OTHER_IGNORABLE = "\u034f\ufe0f\u3164\u115f\uffa0\U000e0100"  # default-ignorable, not Cf
_HIDERS = st.sampled_from(["\u00ad", "\u180e", "\u2061", "\u2062", "\u2063", "\u2064", " ", "\n", "\u3000",
                           *_OTHER_IGNORABLE, *_FORMAT_CHARS])
_HIDDEN_RE = re.compile("[\\s" + re.escape(_FORMAT_CHARS + _OTHER_IGNORABLE) + "]")


def test_every_format_character_hides_nothing() -> None:
    assert len(_FORMAT_CHARS) > 150 and not _INVISIBLE_RE.sub("", _FORMAT_CHARS)  # all of Cf is in INVISIBLE
    for ch in _FORMAT_CHARS:
        for tag in (f"<{ch}/knowledge_pack>", f"</{ch}knowledge_pack>", f"<{ch}{ch}warnings>",
                    f"</know{ch}ledge_pack{ch}>"):
            assert neutralise(tag).startswith("&lt;"), ascii(tag)
            assert len(find_fence_breaks(tag)) == 1, ascii(tag)
    assert neutralise("<\u00ad/knowledge_pack>") == "&lt;\u00ad/knowledge_pack>"
    assert wrapper_tags("x <\u180e/knowledge_pack> y", "knowledge_pack") == ["<\u180e/knowledge_pack"]


@st.composite
def _hidden_tags(draw: st.DrawFn) -> str:
    """A wrapper tag with invisible characters (and blanks around the slash) in every place a reader skips."""
    name = draw(st.sampled_from(_NAMES))
    name = "".join(ch + draw(st.text(_HIDERS.filter(lambda c: not c.isspace()), max_size=2)) for ch in name)
    gap = st.text(_HIDERS, max_size=3)
    slash = draw(st.sampled_from(["", "/"]))
    tag = "<" + draw(gap) + slash + (draw(gap) if slash else "") + name + draw(st.sampled_from([">", " a='b'>"]))
    return "".join(c.upper() if draw(st.booleans()) else c for c in tag)


@given(st.lists(st.one_of(_hidden_tags(), any_text), max_size=4).map("".join))
@settings(max_examples=150, deadline=None)
def test_no_wrapper_tag_survives_once_invisible_characters_are_removed(text: str) -> None:
    safe = neutralise(text)
    visible = _HIDDEN_RE.sub("", safe).lower()
    for name in _NAMES:
        assert f"<{name}" not in visible and f"</{name}" not in visible
    assert unneutralise(safe) == strip_forbidden(text)
