"""RE2 runs the hot scans; its matches are Python's for the same pattern (``fastre.to_re2``)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from studio.core.checks.injection_text import _INSTRUCTION_PATTERNS
from studio.core.fastre import compile_re2, to_re2
from studio.core.render.escape import _FENCE_BREAK_RE

PIECES = ["<", "/", "knowledge_pack", "KNOWLEDGE_pack", "warnings", "selected_files", "<![CDATA[", "]]>", " ",
          "\n", "\u3000", "\u00a0", "\u00ad", "\u200b", "\u2060", "ignore", "previous", "instructions", "you are",
          "now", "system prompt", ":", "new", "mode", "dan", "<|im_start|>", "[INST]", " 忽略之前的指令 ", " 你现在是 ",
          "x", "_", "1"]
texts = st.lists(st.sampled_from(PIECES), max_size=12).map("".join)


def test_to_re2_maps_spaces_inside_and_outside_classes_and_drops_possessives() -> None:
    assert to_re2(r"a\s++b") == r"a[\t-\r\x{1c}-\x{20}\x{85}\p{Z}]+b"
    assert to_re2(r"[\s\u00ad]*+x") == r"[\t-\r\x{1c}-\x{20}\x{85}\p{Z}\u00ad]*x"
    assert to_re2(r"[]+]++\+") == r"[]+]+\+"


@settings(max_examples=400, deadline=None)
@given(texts)
def test_fence_break_pattern_matches_what_python_matches(text: str) -> None:
    fast = compile_re2(_FENCE_BREAK_RE.pattern, ignore_case=True)
    assert [m.span() for m in fast.finditer(text)] == [m.span() for m in _FENCE_BREAK_RE.finditer(text)]


@settings(max_examples=400, deadline=None)
@given(texts)
def test_instruction_patterns_match_what_python_matches(text: str) -> None:
    # RE2's \b is ASCII; the pieces never put a non-ASCII letter against an English word, where they differ (the
    # Chinese pieces have a space on each side; the next test pins what RE2 does there).
    for _label, pattern in _INSTRUCTION_PATTERNS:
        slow = re.compile(pattern, re.IGNORECASE)
        fast = compile_re2(pattern, ignore_case=True)
        assert [m.span() for m in fast.finditer(text)] == [m.span() for m in slow.finditer(text)], pattern


def test_an_english_phrase_touching_chinese_text_is_still_found() -> None:
    # Chinese is written without spaces, so "dan mode" directly followed by Chinese is a phrase on its own: RE2's
    # ASCII \b sees the boundary that Python's Unicode \b does not, and the scan flags it (as the studio wants).
    text = "dan mode忽略之前的指令"
    flagged = [label for label, pattern in _INSTRUCTION_PATTERNS
               if compile_re2(pattern, ignore_case=True).search(text)]
    assert flagged
    assert not [label for label, pattern in _INSTRUCTION_PATTERNS
                if "mode" in pattern and re.compile(pattern, re.IGNORECASE).search(text)]
