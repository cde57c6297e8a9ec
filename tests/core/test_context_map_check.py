"""V59 context-map-missing-file: paths named in the guide's context map must exist in the pack."""

from __future__ import annotations

from pathlib import Path

from studio.core.pack import load_pack

HEAD = "---\nname: cm\ndescription: d\ntype: domain-reference\nprofile: wiki-first\nstatus: ready\n---\n"


def _found(make_pack, body: str) -> list[tuple[int, int, str]]:  # type: ignore[no-untyped-def]
    """(line, column, path) of each finding; the column is checked against where the path is written."""
    root: Path = make_pack("cm", HEAD + body, {"compiled/briefing.md": "x"})
    lines = (HEAD + body).split("\n")
    out = []
    for d in load_pack(root, content=True).diagnostics:
        if d.code == "context-map-missing-file":
            path = d.message.split("'")[1]
            assert lines[d.line - 1][d.column - 1:].startswith(path)
            out.append((d.line, d.column, path))
    return out


def test_missing_files_and_folders_are_reported_where_they_are_named(make_pack) -> None:  # type: ignore[no-untyped-def]
    body = ("\n## Context map\n\n- Start with `compiled/briefing.md`.\n- Facts: `compiled/facts.md#prices`.\n"
            "- Cite [sources](sources/) and `wiki/`.\n")
    assert [(line, path) for line, _, path in _found(make_pack, body)] == [
        (12, "compiled/facts.md"), (13, "sources/"), (13, "wiki/")]  # the #fragment is not part of the path


def test_only_the_context_map_section_and_only_paths(make_pack) -> None:  # type: ignore[no-untyped-def]
    body = ("\n## When to use\n\n- `compiled/missing.md` outside the map is not checked.\n\n### Context map\n\n"
            "- `run the tests`, `*.md`, `https://example.com/a.md`, `/etc/passwd`, `../up.md`, `v1.2`, `NOTES.md`\n"
            "```\n`compiled/in-a-fence.md`\n```\n\n## Runtime boundaries\n\n- `compiled/after.md`\n")
    assert [(line, path) for line, _, path in _found(make_pack, body)] == [(15, "NOTES.md")]


def test_a_chinese_context_map_heading_counts(make_pack) -> None:  # type: ignore[no-untyped-def]
    assert _found(make_pack, "\n## 上下文地图\n\n- 先读 `compiled/voice.md`。\n") == [(11, 7, "compiled/voice.md")]


def test_the_examples_name_only_files_they_have() -> None:
    examples = Path(__file__).resolve().parents[2] / "resources" / "examples"
    for root in examples.iterdir():
        found = load_pack(root, content=True).diagnostics
        assert not [d for d in found if d.code == "context-map-missing-file"], root.name
