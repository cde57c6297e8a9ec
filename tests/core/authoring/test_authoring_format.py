"""Format on request: BOM, line endings and frontmatter indentation change; values and body text never do."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from studio.core.authoring.formatting import format_knowledge, tabs_to_spaces
from studio.core.frontmatter_edit import parsed


def test_bom_crlf_and_indentation_are_normalised_and_the_body_kept() -> None:
    text = ("\ufeff---\r\nname: a\r\nmetadata:\r\n    primaryDocument: documents/x.md\r\n    producedBy:\r\n"
            "        kind: tool   \r\n---\r\nBody   keeps   its spaces\r\n    and indentation\r\n")
    result = format_knowledge(text)
    assert result.new_text == ("---\nname: a\nmetadata:\n  primaryDocument: documents/x.md\n  producedBy:\n"
                               "    kind: tool\n---\nBody   keeps   its spaces\n    and indentation\n")
    assert len(result.changes) == 3
    assert format_knowledge(result.new_text).changes == ()


def test_line_endings_may_be_kept() -> None:
    text = "---\r\nname: a\r\n---\r\nbody\r\n"
    assert format_knowledge(text, line_endings=False).new_text == text


def test_a_block_scalar_keeps_its_value_or_is_left_as_written() -> None:
    text = "---\nname: a\ndescription: |\n    indented text\n      more\n---\nbody\n"
    result = format_knowledge(text)
    assert result.new_text == "---\nname: a\ndescription: |\n  indented text\n    more\n---\nbody\n"
    assert parsed(result.new_text) == parsed(text)
    trailing = "---\nname: a\ndescription: |\n    keeps trailing blanks   \n---\nbody\n"
    assert format_knowledge(trailing).new_text == trailing  # stripping them would change the value


def test_tabs_take_the_width_of_the_space_indented_lines() -> None:
    text = "---\nmetadata:\n    primaryDocument: x.md\n\tproducedBy:\n\t    kind: tool\n---\n"
    assert tabs_to_spaces(text) == ("---\nmetadata:\n    primaryDocument: x.md\n    producedBy:\n"
                                    "        kind: tool\n---\n")


_VALUE = st.text(st.characters(codec="utf-8", exclude_characters="\r\n"), max_size=12)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["name", "runtime", "metadata", "x-y"]), st.integers(0, 3), _VALUE),
                max_size=8), st.booleans(), st.booleans())
def test_formatting_never_changes_values_or_body(entries: list[tuple[str, int, str]], crlf: bool, bom: bool) -> None:
    lines = [f"{' ' * indent}{key}: {value}" for key, indent, value in entries]
    text = "---\n" + "\n".join(lines) + "\n---\nThe body.\n"
    if crlf:
        text = text.replace("\n", "\r\n")
    if bom:
        text = "\ufeff" + text
    before = parsed(text)
    result = format_knowledge(text)
    after = parsed(result.new_text)
    if before[0] is not None:
        assert after[0] == before[0]
        assert after[1] == before[1]
