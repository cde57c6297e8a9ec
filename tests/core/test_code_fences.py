"""Fenced code blocks: one tracker, so the citation parser, the heading finder and the context-map check agree."""

from __future__ import annotations

from studio.core.checks.context_map import map_references
from studio.core.evidence.anchors import find_headings
from studio.core.evidence.citations import parse_citations
from studio.core.text.code_fences import CodeFences

TEXT = """# Guide

## Context map

- `wiki/real.md` [source: sources/a.md#L1]

~~~
## Not a heading
- `wiki/example.md` [source: sources/example.md]
```
still inside: a backtick fence does not close a tilde block
~~~

````text
    ```
## Inside a longer fence
````

- `wiki/after.md` [source: sources/b.md#L2]
"""


def test_lines_inside_a_fence_and_the_fence_lines_are_code() -> None:
    fences = CodeFences()
    kinds = [fences.is_code(line) for line in ["text", "   ~~~~", "```", "code", "~~~", "text", "    ```", "text"]]
    assert kinds == [False, True, True, True, True, False, False, False]  # four spaces: an indented line, no fence
    assert not fences.inside


def test_every_markdown_reader_skips_the_same_blocks() -> None:
    assert [c.target for c in parse_citations(TEXT, "wiki/x.md")] == ["sources/a.md", "sources/b.md"]
    assert [h.title for h in find_headings(TEXT.splitlines())] == ["Guide", "Context map"]
    assert [r.path for r in map_references(TEXT)] == ["wiki/real.md", "wiki/after.md"]


def test_an_unclosed_fence_runs_to_the_end() -> None:
    text = "# Top\n```\n# Hidden\n[source: sources/c.md]\n"
    assert [h.title for h in find_headings(text.splitlines())] == ["Top"]
    assert parse_citations(text, "wiki/x.md") == []
