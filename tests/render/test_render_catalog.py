"""Tier-1 catalog: which packs are listed, which fields appear, and that the XML always parses."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from render_helpers import any_text, pack_in_memory

from studio.core.model import Verdict
from studio.core.pack import load_pack
from studio.core.render.catalog import catalog_instruction, render_catalog, render_catalog_json
from studio.core.render.escape import strip_forbidden


def _names(xml: str) -> list[str]:
    return [e.findtext("name") or "" for e in ET.fromstring(xml).findall("knowledge_pack")]


def test_no_available_pack_gives_an_empty_catalog(write_pack: Callable[..., Path]) -> None:
    archived = load_pack(write_pack("old", status="archived"))
    assert render_catalog([]) == ""
    assert render_catalog([archived]) == ""
    assert json.loads(render_catalog_json([archived])) == {"instruction": "", "packs": []}


def test_fields_appear_in_the_standard_order_and_absent_ones_are_omitted(write_pack: Callable[..., Path]) -> None:
    root = write_pack("brand", {"documents/brief.md": "# Brief\n"}, profile="document-first", trust="official",
                      runtime={"mode": "persona"}, metadata={"primaryDocument": "documents/brief.md"})
    plain = write_pack("plain")
    entry = ET.fromstring(render_catalog([load_pack(root)])).find("knowledge_pack")
    assert entry is not None
    assert [child.tag for child in entry] == ["name", "description", "type", "status", "trust", "profile",
                                              "runtime_mode", "primary_document", "location"]
    assert entry.findtext("runtime_mode") == "persona"
    assert entry.findtext("location") == str(root / "KNOWLEDGE.md")
    other = ET.fromstring(render_catalog([load_pack(plain)])).find("knowledge_pack")
    assert other is not None
    assert other.find("trust") is None and other.find("primary_document") is None


def test_missing_profile_is_shown_as_implied_wiki_first(write_pack: Callable[..., Path]) -> None:
    xml = render_catalog([load_pack(write_pack("old-style", profile=None))])
    assert '<profile implied="true">wiki-first</profile>' in xml


def test_archived_packs_only_on_request(write_pack: Callable[..., Path]) -> None:
    packs = [load_pack(write_pack("live")), load_pack(write_pack("gone", status="archived"))]
    assert _names(render_catalog(packs)) == ["live"]
    assert _names(render_catalog(packs, include_archived=True)) == ["gone", "live"]


def test_quarantined_and_shadowed_packs_are_never_listed(write_pack: Callable[..., Path], tmp_path: Path) -> None:
    broken = load_pack(write_pack("broken", type=None))  # missing type: quarantined (V11)
    assert not broken.loads
    loser = load_pack(write_pack("loser")).with_verdict(Verdict(shadowed_by=tmp_path / "winner"))
    assert render_catalog([broken, loser], include_archived=True) == ""


def test_disputed_and_draft_packs_ask_for_confirmation(write_pack: Callable[..., Path]) -> None:
    packs = [load_pack(write_pack(n, status=s)) for n, s in (("a", "disputed"), ("b", "draft"), ("c", "ready"))]
    marks = {e.findtext("name"): e.get("requires_confirmation")
             for e in ET.fromstring(render_catalog(packs)).findall("knowledge_pack")}
    assert marks == {"a": "true", "b": "true", "c": None}


def test_order_is_by_name_whatever_the_scan_order(tmp_path: Path) -> None:
    packs = [pack_in_memory(tmp_path / n, {"name": n, "description": "d", "type": "t", "status": "ready"})
             for n in ("zeta", "alpha", "mid")]
    assert _names(render_catalog(packs)) == ["alpha", "mid", "zeta"]
    assert render_catalog(packs) == render_catalog(list(reversed(packs)))


def test_instruction_says_knowledge_is_data_and_asks_for_activation() -> None:
    text = catalog_instruction().lower()
    assert "activat" in text and "never instructions" in text and "scripts" in text


@given(st.lists(any_text, min_size=1, max_size=4), any_text)
@settings(max_examples=100, deadline=None)
def test_hostile_metadata_keeps_one_entry_per_pack_and_reads_back(descriptions: list[str], kind: str) -> None:
    packs = [pack_in_memory(Path(f"/packs/p{i}<x>&"), {"name": f"p{i}", "description": f"x{d}",
                                                      "type": kind or "t", "status": "ready"})
             for i, d in enumerate(descriptions)]
    doc = ET.fromstring(render_catalog(packs))
    entries = doc.findall("knowledge_pack")
    assert len(entries) == len(packs)
    for entry, pack in zip(entries, packs, strict=True):
        expected = strip_forbidden(pack.description or "").replace("\r\n", "\n").replace("\r", "\n")
        assert entry.findtext("description") == expected
        assert entry.findtext("location") == str(pack.knowledge_path)


def test_untrusted_project_packs_ask_for_confirmation(write_pack: Callable[..., Path], tmp_path: Path) -> None:
    from studio.core.workspace import WorkspaceOptions, open_workspace

    write_pack("repo-pack", parent=tmp_path / "proj" / ".agents" / "knowledge")
    workspace = open_workspace(WorkspaceOptions(project=tmp_path / "proj", builtin=False, trusted_project=False))
    entry = ET.fromstring(render_catalog(workspace.packs)).find("knowledge_pack")
    assert entry is not None and entry.get("requires_confirmation") == "true"
