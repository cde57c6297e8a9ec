"""V59 ``context-map-missing-file``: the context map names files; a name that leads nowhere is a positioned warning."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from studio.core.pack import load_pack

HEAD = """---
name: mapped
description: A pack with a context map. Use in tests.
type: domain-reference
status: ready
profile: wiki-first
---
"""
BODY = """# Guide

Mentions `compiled/gone.md` outside the map: not checked.

## Context map

- Start with `compiled/briefing.md`, then `compiled/missing.md`.
- Pages: [index](wiki/index.md), [gone](./wiki/gone.md#top) and the folder `sources/`.
- Not paths: `--budget 4000`, `https://example.com/a.md`, `/etc/passwd`, `../x.md`, `wiki/*.md`, `a b/c.md`.

```text
`compiled/in-a-code-block.md`
```

| Task | Use |
| --- | --- |
| Escape | `compiled/splits/doc/missing-split.md` |

## Runtime boundaries

- `compiled/after-the-map.md` is not in the map.
"""


def _at(needle: str) -> tuple[int, int]:
    """(line, column) of ``needle`` in the whole KNOWLEDGE.md, 1-based."""
    for number, line in enumerate((HEAD + BODY).split("\n"), start=1):
        if needle in line:
            return number, line.index(needle) + 1
    raise AssertionError(needle)


def _findings(root: Path) -> list[tuple[int, int, str]]:
    return [(d.line, d.column, d.message) for d in load_pack(root, content=True).diagnostics
            if d.code == "context-map-missing-file"]


def test_missing_names_in_the_context_map_are_warnings_on_their_line(make_pack: Callable[..., Path]) -> None:
    root = make_pack("mapped", HEAD + BODY, {"compiled/briefing.md": "# B\n", "wiki/index.md": "# I\n"})
    found = _findings(root)
    assert [(line, column) for line, column, _ in found] == [
        _at("compiled/missing.md"), _at("./wiki/gone.md"), _at("sources/`"), _at("compiled/splits/doc/missing")]
    assert "compiled/missing.md" in found[0][2] and "sources/" in found[2][2]
    assert all(d.severity.value == "warning" and d.rule == "V59" for d in load_pack(root, content=True).diagnostics
               if d.code == "context-map-missing-file")


def test_a_complete_map_is_quiet_and_links_out_of_the_pack_count_as_missing(make_pack: Callable[..., Path],
                                                                            tmp_path: Path) -> None:
    body = "## Context map\n\n- `compiled/briefing.md` and `wiki/`\n- `sources/linked.md`\n"
    root = make_pack("mapped", HEAD + body, {"compiled/briefing.md": "# B\n", "wiki/index.md": "# I\n"})
    (root / "sources").mkdir()
    outside = tmp_path / "outside.md"
    outside.write_text("secret")
    (root / "sources" / "linked.md").symlink_to(outside)
    assert [message for _, _, message in _findings(root)] == [
        "The context map names 'sources/linked.md', but that file is not in the pack"]
    (root / "sources" / "linked.md").unlink()
    (root / "sources" / "linked.md").write_text("inside")
    assert _findings(root) == []
