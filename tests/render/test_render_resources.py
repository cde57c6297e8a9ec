"""Resource listing of the activation guide: kinds per profile, what is left out, symlink safety."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from studio.core.pack import load_pack
from studio.core.render import resources
from studio.core.render.resources import ResourceKind, classify_resources, scan_resources

LAYOUT = {
    "compiled/briefing.md": "b", "compiled/splits/brief/pricing.md": "p", "documents/brief.md": "d",
    "documents/notes.md": "n", "wiki/index.md": "i", "wiki/entities/acme.md": "a", "sources/call.md": "s",
    "indexes/source-map.json": "{}", "indexes/vector/x.bin": "v", "runs/compile-1.json": "{}",
    "evals/discovery.train.json": "[]", "schemas/claim.schema.json": "{}", "assets/logo.svg": "<svg/>",
    "scripts/build.sh": "echo", "ontology/ontology.json": "{}", "LICENSE": "MIT", ".hidden/x.md": "h",
    "documents/.DS_Store": "x",
}


def _kinds(root: Path) -> dict[str, str]:
    return {r.path: r.kind.value for r in classify_resources(load_pack(root))}


def test_document_first_pack(write_pack: Callable[..., Path]) -> None:
    root = write_pack("doc", LAYOUT, profile="document-first", metadata={"primaryDocument": "documents/brief.md"})
    assert _kinds(root) == {
        "compiled/briefing.md": "runtime", "compiled/splits/brief/pricing.md": "runtime",
        "ontology/ontology.json": "runtime", "documents/brief.md": "primary", "documents/notes.md": "primary",
        "wiki/entities/acme.md": "evidence", "wiki/index.md": "evidence", "indexes/source-map.json": "evidence",
        "sources/call.md": "evidence",
    }


def test_wiki_first_pack_lists_documents_as_evidence_and_wiki_index_first(write_pack: Callable[..., Path]) -> None:
    root = write_pack("wiki", LAYOUT, profile=None)  # no profile: wiki-first is implied
    listed = classify_resources(load_pack(root))
    kinds = {r.path: r.kind.value for r in listed}
    assert kinds["wiki/index.md"] == kinds["wiki/entities/acme.md"] == "primary"
    assert kinds["documents/brief.md"] == "evidence"
    primary = [r.path for r in listed if r.kind is ResourceKind.PRIMARY]
    assert primary[0] == "wiki/index.md"


def test_listing_order_is_runtime_primary_evidence_with_the_primary_document_first(
        write_pack: Callable[..., Path]) -> None:
    files = {"documents/a.md": "a", "documents/z-main.md": "z", "compiled/facts.md": "f", "sources/s.md": "s"}
    root = write_pack("hy", files, profile="hybrid", metadata={"primaryDocument": "documents/z-main.md"})
    assert [r.path for r in classify_resources(load_pack(root))] == [
        "compiled/facts.md", "documents/z-main.md", "documents/a.md", "sources/s.md"]


def test_audit_validation_and_asset_files_are_not_listed(write_pack: Callable[..., Path]) -> None:
    listed = _kinds(write_pack("hybrid", LAYOUT, profile="hybrid"))
    for left_out in ("runs/compile-1.json", "evals/discovery.train.json", "schemas/claim.schema.json",
                     "assets/logo.svg", "scripts/build.sh", "indexes/vector/x.bin", "LICENSE", ".hidden/x.md",
                     "documents/.DS_Store", "KNOWLEDGE.md"):
        assert left_out not in listed


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_symlinks_out_of_the_pack_are_neither_listed_nor_followed(write_pack: Callable[..., Path],
                                                                  tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    (outside / "deep").mkdir(parents=True)
    (outside / "secret.md").write_text("secret")
    (outside / "deep" / "x.md").write_text("x")
    root = write_pack("linky", {"compiled/real.md": "r", "wiki/page.md": "p"})
    os.symlink(outside / "secret.md", root / "compiled" / "leak.md")
    os.symlink(outside, root / "compiled" / "dir-link")
    os.symlink(outside, root / "sources")
    os.symlink(root / "wiki" / "page.md", root / "compiled" / "inside-link.md")
    os.symlink(root / "compiled", root / "compiled" / "loop")
    assert sorted(_kinds(root)) == ["compiled/inside-link.md", "compiled/real.md", "wiki/page.md"]


def test_a_huge_pack_is_cut_at_the_limit(write_pack: Callable[..., Path], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(resources, "MAX_RESOURCES", 5)
    root = write_pack("big", {f"compiled/f{i:02}.md": "x" for i in range(9)})
    scan = scan_resources(load_pack(root))
    assert scan.truncated and len(scan.resources) == 5
