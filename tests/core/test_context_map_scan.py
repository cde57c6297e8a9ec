"""The context-map check's fast scan finds exactly what a plain line-by-line reading finds.

The check skips the lines above the first map title and stops after the last map section (10,000 guides a
validation); a straightforward reading of every line, written here as the reference, must agree on any guide.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from studio.core.checks.context_map import _HEADING, _REFERENCE, _as_path, _references

_TITLE = re.compile(r"context[ -]?map|上下文|内容地图", re.IGNORECASE)
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")


def reference_scan(body: str) -> list[tuple[int, int, str]]:
    found = []
    level = 0
    fence: str | None = None
    for number, line in enumerate(body.split("\n"), start=1):
        if (match := _FENCE.match(line)) is not None:
            if fence is None:
                fence = match[1][0] * 3
            elif match[1].startswith(fence):
                fence = None
            continue
        if fence is not None:
            continue
        heading = _HEADING.match(line)
        if heading is not None:
            if _TITLE.search(heading[2]):
                level = len(heading[1])
            elif level and len(heading[1]) <= level:
                level = 0
            continue
        if level:
            for match in _REFERENCE.finditer(line):
                raw = match[2] if match[2] is not None else match[3]
                path = _as_path(raw.strip())
                if path is not None:
                    found.append((number, (match.start(2) if match[2] is not None else match.start(3)) + 1, path))
    return found


LINES = ["## Context map", "# Context Map", "### 上下文", "## 内容地图", "#### context-map", "## CONTEXT MAP", "```",
         "~~~", "````", "    ```", "- `wiki/a.md`", "- [x](documents/b.md)", "- `README.md` and `v1.2`", "## Other",
         "# Top", "plain text about the context map", "`compiled/briefing.md`", "", "- `sources/x.md#part`"]


@settings(max_examples=2000)
@given(st.lists(st.sampled_from(LINES) | st.text(max_size=20), max_size=30))
def test_fast_scan_matches_a_line_by_line_reading(lines: list[str]) -> None:
    body = "\n".join(lines)
    assert list(_references(body)) == reference_scan(body)
