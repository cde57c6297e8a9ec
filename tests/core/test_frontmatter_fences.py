"""The frontmatter fences: the parser, the editor's completion and the byte-exact edits find the same block."""

from __future__ import annotations

import pytest

from studio.core.authoring.completion import frontmatter_span
from studio.core.frontmatter import read_knowledge_bytes
from studio.core.frontmatter_edit import EditError, FrontmatterLines

CLOSED = [
    "---\nname: a\n---\nbody\n",
    "---  \nname: a\ndescription: b\n---\t\n",
    "---\r\nname: a\r\n---\r\nbody\r\n",
    "\ufeff---\nname: a\n---\n",
    "---\nname: a\n----\nb: 1\n---\n",  # four dashes are not a fence (the YAML is then invalid)
    "---\nname: a\n...\nb: 1\n---\n",  # nor is a YAML document end
]


@pytest.mark.parametrize("text", CLOSED)
def test_all_three_readers_close_the_block_on_the_same_line(text: str) -> None:
    knowledge, _diags = read_knowledge_bytes(text.encode("utf-8"))
    closing = knowledge.body_start_line - 2  # the body starts on the line after the closing fence (1-based)
    assert closing > 0
    assert frontmatter_span(text) == (0, closing)
    assert FrontmatterLines.of(text).close == closing


@pytest.mark.parametrize("text", ["name: a\n---\n", " ---\nname: a\n---\n", "---\nname: a\n", "---"])
def test_none_of_them_sees_a_block_where_the_parser_sees_none(text: str) -> None:
    knowledge, diags = read_knowledge_bytes(text.encode("utf-8"))
    assert knowledge.frontmatter is None
    assert {d.code for d in diags} & {"missing-frontmatter", "unclosed-frontmatter"}
    assert frontmatter_span(text) is None
    with pytest.raises(EditError):
        FrontmatterLines.of(text)
