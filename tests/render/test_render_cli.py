"""``pack-studio catalog | guide | fence``: artefact on stdout byte for byte, costs and problems on stderr."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest

from studio.cli import main
from studio.core.pack import load_pack
from studio.core.render.catalog import catalog_instruction, render_catalog
from studio.core.render.guide import render_guide


@pytest.fixture
def two_packs(write_pack: Callable[..., Path], tmp_path: Path) -> Path:
    write_pack("tea", {"compiled/briefing.md": "Tea briefing.\n", "sources/s.md": "src\n"},
               parent=tmp_path / "ws", runtime={"mode": "persona"})
    write_pack("old", parent=tmp_path / "ws", status="archived")
    return tmp_path / "ws"


def test_catalog_prints_instruction_then_xml(two_packs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["catalog", str(two_packs)]) == 0
    out, err = capsys.readouterr()
    packs = [load_pack(two_packs / "tea"), load_pack(two_packs / "old")]
    assert out == catalog_instruction() + "\n" + render_catalog(packs)
    assert "tea: " in err and "tokens (cl100k_base)" in err


def test_catalog_xml_alone_and_archived_on_request(two_packs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["catalog", str(two_packs), "--no-instruction", "--include-archived"]) == 0
    doc = ET.fromstring(capsys.readouterr().out)
    assert [e.findtext("name") for e in doc] == ["old", "tea"]


def test_catalog_json_carries_the_token_costs(two_packs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["catalog", str(two_packs), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [p["name"] for p in doc["packs"]] == ["tea"]
    assert doc["packs"][0]["runtime_mode"] == "persona"
    assert isinstance(doc["tokens"]["per_pack"]["tea"]["tokens"], int)


def test_empty_catalog_prints_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["catalog", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert out == "" and "catalog is empty" in err


def test_guide_prints_the_rendered_guide(two_packs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["guide", str(two_packs / "tea")]) == 0
    out, err = capsys.readouterr()
    assert out == render_guide(load_pack(two_packs / "tea"))
    assert err.startswith("tokens: ")


def test_guide_of_a_directory_without_knowledge_md_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["guide", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "missing-knowledge-md" in err


def test_fence_defaults_to_runtime_resources(two_packs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fence", str(two_packs / "tea")]) == 0
    out = capsys.readouterr().out
    assert out.startswith('<knowledge_pack name="tea" status="ready" profile="wiki-first" runtime_mode="persona" '
                          'mode="persona">\n')
    assert "[file: compiled/briefing.md]\nTea briefing.\n" in out
    assert "sources/s.md" not in out


def test_fence_with_files_variant_and_a_bad_path(two_packs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["fence", str(two_packs / "old"), "--files", "../tea/KNOWLEDGE.md", "KNOWLEDGE.md",
                 "--variant", "spec"])
    out, err = capsys.readouterr()
    assert code == 1
    assert "../tea/KNOWLEDGE.md: not a path inside the pack" in err
    assert out.startswith('<knowledge_pack name="old" status="archived" mode="data">\n')
    assert "<warning>Pack status is archived.</warning>" in out


def test_catalog_of_a_missing_path_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["catalog", str(tmp_path / "nope")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and str(tmp_path / "nope") in err
