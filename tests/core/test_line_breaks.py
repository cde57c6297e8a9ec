"""Saving an edited text changes only what was edited (issue #35 item 7): property tests of ``merge_edit``."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from studio.core.text.line_breaks import merge_edit, shown, split_breaks

_BREAKS = st.sampled_from(["\n", "\r\n", "\r", "\u2029"])
_LINE = st.text(st.sampled_from("ab {}\":,\u00a0\u2028\t中"), max_size=8)


@st.composite
def _texts(draw: st.DrawFn) -> str:
    lines = draw(st.lists(_LINE, min_size=1, max_size=12))
    breaks = [draw(_BREAKS) for _ in lines[:-1]]
    return "".join(line + brk for line, brk in zip(lines, [*breaks, ""], strict=True))


@given(_texts())
@example("a\r\nb\nc\rd\u2029e")
@example("{\"x\": \"a\u2028b\"}\r\n")
def test_an_untouched_text_comes_back_byte_for_byte(original: str) -> None:
    assert merge_edit(original, shown(original)) == original


@given(_texts(), st.data())
def test_typing_on_one_line_changes_that_line_only(original: str, data: st.DataObject) -> None:
    lines = shown(original).split("\n")
    k = data.draw(st.integers(0, len(lines) - 1))
    typed = data.draw(st.text(st.sampled_from("xyz \u00a0"), min_size=1, max_size=3))
    at = data.draw(st.integers(0, len(lines[k])))
    lines[k] = lines[k][:at] + typed + lines[k][at:]
    merged = merge_edit(original, "\n".join(lines))
    old_lines, old_breaks = split_breaks(original)
    new_lines, new_breaks = split_breaks(merged)
    assert new_breaks == old_breaks  # every break as it was: CRLF, LF, lone CR, U+2029
    assert [i for i, (a, b) in enumerate(zip(old_lines, new_lines, strict=True)) if a != b] == [k]


@given(_texts(), st.data())
def test_new_lines_get_the_files_usual_break_and_old_ones_keep_theirs(original: str, data: st.DataObject) -> None:
    lines = shown(original).split("\n")
    k = data.draw(st.integers(0, len(lines)))
    edited = "\n".join([*lines[:k], "NEW LINE", *lines[k:]])
    merged = merge_edit(original, edited, "\r\n")
    assert shown(merged) == edited
    kept = [brk for brk in split_breaks(original)[1]]
    got = split_breaks(merged)[1]
    assert sorted(kept + ["\r\n"]) == sorted(got)  # one break more, the new one; none of the others changed
