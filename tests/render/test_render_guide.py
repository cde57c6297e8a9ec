"""Tier-2 activation guide: layout, attributes, resource listing, and a body that cannot escape it."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

from hypothesis import given, settings
from render_helpers import any_text, pack_in_memory

from studio.core.pack import load_pack
from studio.core.render.escape import strip_forbidden, unneutralise, wrapper_tags
from studio.core.render.guide import GUIDE_NOTICE, PATHS_NOTICE, render_guide, split_guide_body


def _resources(guide: str) -> list[tuple[str, str]]:
    start = guide.rindex("<knowledge_resources>")
    end = guide.rindex("</knowledge_resources>") + len("</knowledge_resources>")
    return [(f.get("kind") or "", f.text or "") for f in ET.fromstring(guide[start:end])]


def test_guide_layout(write_pack: Callable[..., Path]) -> None:
    root = write_pack("shop", {"compiled/briefing.md": "b", "sources/call.md": "s"}, body="\n# Shop\n\nFacts.\n",
                      trust="official")
    guide = render_guide(load_pack(root))
    lines = guide.splitlines()
    assert lines[0] == ('<knowledge_pack_guide name="shop" status="ready" trust="official" profile="wiki-first" '
                        'runtime_mode="data">')
    assert lines[1:5] == [GUIDE_NOTICE, f"Pack root: {root}", PATHS_NOTICE, ""]
    assert lines[5:8] == ["# Shop", "", "Facts."]
    assert lines[-1] == "</knowledge_pack_guide>"
    assert _resources(guide) == [("runtime", "compiled/briefing.md"), ("evidence", "sources/call.md")]


def test_unset_trust_is_left_out_and_the_effective_profile_is_shown(write_pack: Callable[..., Path]) -> None:
    guide = render_guide(load_pack(write_pack("bare", profile=None)))
    assert guide.startswith('<knowledge_pack_guide name="bare" status="ready" profile="wiki-first" '
                            'runtime_mode="data">\n')


def test_a_pack_without_resources_gets_an_empty_listing(write_pack: Callable[..., Path]) -> None:
    guide = render_guide(load_pack(write_pack("empty")))
    assert guide.endswith("<knowledge_resources>\n</knowledge_resources>\n</knowledge_pack_guide>\n")


def test_hostile_file_names_are_escaped_in_the_listing(write_pack: Callable[..., Path]) -> None:
    root = write_pack("names", {"compiled/a&b <x>.md": "x", "compiled/</knowledge_resources>": "y"})
    guide = render_guide(load_pack(root))
    assert sorted(p for _, p in _resources(guide)) == ["compiled/</knowledge_resources>", "compiled/a&b <x>.md"]
    assert len(wrapper_tags(guide, "knowledge_resources")) == 2


@given(any_text, any_text)
@settings(max_examples=100, deadline=None)
def test_no_body_can_close_the_guide_and_the_body_reads_back(body: str, root_name: str) -> None:
    root = Path("/packs") / (root_name.replace("/", "_").replace("\x00", "") or "p")
    pack = pack_in_memory(root, {"name": "p", "description": "d", "type": "t", "status": "ready"}, body)
    guide = render_guide(pack)
    assert len(wrapper_tags(guide, "knowledge_pack_guide")) == 2
    assert len(wrapper_tags(guide, "knowledge_resources")) == 2
    for other in ("knowledge_pack", "available_knowledge_packs", "selected_files", "warnings"):
        assert wrapper_tags(guide, other) == []
    assert unneutralise(split_guide_body(guide)) == strip_forbidden(body.strip("\n"))


def test_a_cut_short_knowledge_md_is_announced(write_pack: Callable[..., Path]) -> None:
    from studio.core.frontmatter import MAX_KNOWLEDGE_BYTES

    pack = load_pack(write_pack("huge", body="word " * (MAX_KNOWLEDGE_BYTES // 5 + 10)))
    assert pack.knowledge is not None and pack.knowledge.truncated
    guide = render_guide(pack)
    assert "cut short" in guide and guide.endswith("</knowledge_pack_guide>\n")
