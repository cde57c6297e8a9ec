"""Tier-3 runtime fence: attribute variants, preambles, persona-first order, structure that cannot break."""

from __future__ import annotations

import time
import xml.etree.ElementTree as ET
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from render_helpers import any_text, pack_in_memory

from studio.core.render.escape import strip_forbidden, unneutralise, wrapper_tags
from studio.core.render.fence import (
    DATA_PREAMBLE,
    PERSONA_PREAMBLE,
    FenceItem,
    FencePack,
    FenceVariant,
    render_fence,
    render_pack_fence,
    split_fence_content,
)

BASE = {"description": "d", "type": "t", "status": "ready"}


def _pack(name: str, **fields: object) -> FencePack:
    return FencePack(pack_in_memory(Path("/p") / name, {"name": name, **BASE, **fields}), [])


def _block(fence: str, tag: str) -> ET.Element:
    start, end = fence.rindex(f"<{tag}>"), fence.rindex(f"</{tag}>") + len(tag) + 3
    return ET.fromstring(fence[start:end])


def test_superset_carries_every_field_and_omits_unset_ones() -> None:
    full = _pack("full", trust="official", grounding="required", profile="document-first",
                 runtime={"mode": "persona"})
    assert render_pack_fence(full).splitlines()[0] == (
        '<knowledge_pack name="full" status="ready" trust="official" grounding="required" '
        'profile="document-first" runtime_mode="persona" mode="persona">')
    bare = render_pack_fence(_pack("bare"))
    assert bare.splitlines()[0] == '<knowledge_pack name="bare" status="ready" profile="wiki-first" ' \
                                   'runtime_mode="data" mode="data">'


def test_the_two_standard_attribute_sets() -> None:
    fp = _pack("x", trust="official", grounding="none", profile="hybrid")
    assert render_pack_fence(fp, FenceVariant.SPEC).splitlines()[0] == \
        '<knowledge_pack name="x" status="ready" grounding="none" mode="data">'
    assert render_pack_fence(fp, FenceVariant.ADDING_SUPPORT).splitlines()[0] == \
        '<knowledge_pack name="x" status="ready" grounding="none" profile="hybrid" runtime_mode="data">'


def test_preamble_follows_the_runtime_mode() -> None:
    assert DATA_PREAMBLE in render_pack_fence(_pack("d"))
    persona = render_pack_fence(_pack("p", runtime={"mode": "persona"}))
    assert PERSONA_PREAMBLE in persona and DATA_PREAMBLE not in persona


def test_items_are_marked_and_selected_paths_and_warnings_are_structured() -> None:
    fp = _pack("x")
    fp.items = [FenceItem("compiled/facts.md", "Fact one.\n"),
                FenceItem("documents/brief.md", "## Price\n\n999", section="Price", lines=(40, 43))]
    fp.warnings = ["Pack status is <stale> & old."]
    fence = render_pack_fence(fp)
    assert "[file: compiled/facts.md]\nFact one.\n\n" in fence
    assert "[file: documents/brief.md | section: Price | lines 40-43]\n## Price\n\n999\n\n" in fence
    files = _block(fence, "selected_files")
    assert [(f.text, f.get("section"), f.get("lines")) for f in files] == [
        ("compiled/facts.md", None, None), ("documents/brief.md", "Price", "40-43")]
    assert [w.text for w in _block(fence, "warnings")] == ["Pack status is <stale> & old."]
    assert fence.endswith("</warnings>\n</knowledge_pack>\n")


def test_persona_wrappers_come_first_and_data_order_is_kept() -> None:
    packs = [_pack("data-b"), _pack("persona", runtime={"mode": "persona"}), _pack("data-a")]
    fence = render_fence(packs)
    names = [line.split('"')[1] for line in fence.splitlines() if line.startswith("<knowledge_pack ")]
    assert names == ["persona", "data-b", "data-a"]
    assert render_fence([]) == ""


def test_rendering_is_cheap_enough_for_a_budget_loop() -> None:
    fp = _pack("big")
    fp.items = [FenceItem(f"compiled/splits/doc/{i}.md", "Some text </knowledge_pack> here.\n" * 400)
                for i in range(40)]
    render_pack_fence(fp)
    start = time.perf_counter()
    for _ in range(50):
        render_pack_fence(fp)
    assert time.perf_counter() - start < 1.0


@given(st.lists(st.tuples(any_text, any_text, any_text), max_size=3), st.lists(any_text, max_size=3))
@settings(max_examples=150, deadline=None)
def test_hostile_content_never_adds_or_removes_a_wrapper(items: list[tuple[str, str, str]],
                                                         warnings: list[str]) -> None:
    persona = _pack("persona", runtime={"mode": "persona"})
    data = _pack("data")
    for fp in (persona, data):
        fp.items = [FenceItem(f"compiled/{p}", t, section=s or None) for p, t, s in items]
        fp.warnings = list(warnings)
    fence = render_fence([data, persona])
    assert len(wrapper_tags(fence, "knowledge_pack")) == 4
    assert len(wrapper_tags(fence, "selected_files")) == (4 if items else 0)
    assert len(wrapper_tags(fence, "warnings")) == (4 if warnings else 0)
    if items:
        paths = [f.text or "" for f in _block(render_pack_fence(data), "selected_files")]
        assert paths == [strip_forbidden(f"compiled/{p}").replace("\r\n", "\n").replace("\r", "\n")
                         for p, _, _ in items]


@given(any_text)
@settings(max_examples=200, deadline=None)
def test_a_single_item_reads_back_after_unescaping(text: str) -> None:
    fp = _pack("x")
    fp.items = [FenceItem("compiled/a.md", text)]
    content = split_fence_content(render_pack_fence(fp))
    marker, _, body = content.partition("\n")
    assert marker == "[file: compiled/a.md]"
    assert unneutralise(body) == strip_forbidden(text.strip("\n"))


def test_an_item_with_a_list_for_lines_still_renders() -> None:
    fp = _pack("x")
    fp.items = [FenceItem("documents/a.md", "text", lines=[3, 4])]  # type: ignore[arg-type]
    assert "[file: documents/a.md | lines 3-4]\ntext\n" in render_pack_fence(fp)
