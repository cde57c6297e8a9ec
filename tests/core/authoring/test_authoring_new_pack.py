"""New packs: every template x profile x runtime mode validates with no error and no warning under full
validation, holds exactly the files its profile expects, and creation is all-or-nothing and never overwrites."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import pytest
from authoring_support import tree_digest
from hypothesis import given, settings
from hypothesis import strategies as st

from studio.core.authoring.create import create_pack, preview_findings
from studio.core.authoring.new_pack import NewPackError, NewPackRequest, plan_new_pack
from studio.core.authoring.templates import load_templates
from studio.core.checks.context_map import map_references
from studio.core.diagnostics import Severity
from studio.core.frontmatter import read_knowledge_bytes
from studio.core.model import PROFILES, RUNTIME_MODES, STANDARD_TYPES
from studio.core.pack import load_pack

TEMPLATES = load_templates(user_dir=None)
COMBOS = list(itertools.product([t.id for t in TEMPLATES.templates], PROFILES, RUNTIME_MODES))


def _files(root: Path) -> set[str]:
    out = set()
    for dirpath, dirnames, filenames in os.walk(root):
        rel = Path(dirpath).relative_to(root).as_posix()
        out.update(f"{rel}/{d}/".lstrip("./") for d in dirnames)
        out.update(f"{rel}/{f}".lstrip("./") for f in filenames)
    return out


def _request(name: str, into: Path, template_id: str = "blank", **kw: object) -> NewPackRequest:
    template = TEMPLATES.get(template_id)
    assert template is not None
    return NewPackRequest(name, into, template, **kw)  # type: ignore[arg-type]


def test_every_standard_type_has_a_template() -> None:
    assert not TEMPLATES.problems
    assert {t.type for t in TEMPLATES.templates if t.id != "blank"} == set(STANDARD_TYPES)


@pytest.mark.parametrize(("template_id", "profile", "mode"), COMBOS)
def test_each_template_profile_and_mode_makes_a_clean_pack(template_id: str, profile: str, mode: str,
                                                           tmp_path: Path) -> None:
    plan = plan_new_pack(_request("new-pack", tmp_path, template_id, profile=profile, mode=mode), TEMPLATES)
    created = create_pack(plan)
    pack = load_pack(created.root, content=True)
    noisy = [d for d in pack.diagnostics if d.severity is not Severity.INFO]
    assert noisy == [], [(d.code, d.message) for d in noisy]
    assert [d.code for d in pack.diagnostics] == ["status-draft"]
    assert pack.profile == profile and pack.runtime_mode == mode and not pack.profile_is_implied
    template = TEMPLATES.get(template_id)
    assert template is not None
    expected = {"KNOWLEDGE.md", "compiled/"}
    if profile in ("document-first", "hybrid"):
        expected |= {"documents/", f"documents/{template.primary_document}.md"}
    if profile in ("wiki-first", "hybrid"):
        expected |= {"wiki/", "wiki/index.md"}
    if mode == "persona":
        expected.add("compiled/boundaries.md")
    if template.type == "content-ontology":
        expected |= {"ontology/", "ontology/ontology.json"}
    assert _files(created.root) == expected
    assert not [p for p in os.listdir(tmp_path) if p.startswith(".")], "no staging folder is left behind"
    body = pack.body
    for heading in ("## When to use", "## Context map", "## Runtime boundaries"):
        assert heading in body
    named = {ref.path for ref in map_references(body)}
    assert named == {f for f in expected if not f.endswith("/") and f != "KNOWLEDGE.md"}


@pytest.mark.parametrize("pack_type", [*STANDARD_TYPES, "custom:acme.internal"])
def test_any_type_from_the_blank_template_is_clean(pack_type: str, tmp_path: Path) -> None:
    created = create_pack(plan_new_pack(_request("typed", tmp_path, type=pack_type), TEMPLATES))
    codes = {d.code for d in load_pack(created.root, content=True).diagnostics}
    assert codes <= {"status-draft", "custom-type"}


def test_the_plan_is_what_gets_written_and_the_preview_agrees(tmp_path: Path) -> None:
    plan = plan_new_pack(_request("preview-me", tmp_path, "brand-product", profile="hybrid"), TEMPLATES)
    assert [d.code for d in preview_findings(plan)] == ["status-draft"]
    assert not (tmp_path / "preview-me").exists(), "planning and previewing write nothing"
    root = create_pack(plan).root
    for rel, text in plan.files.items():
        assert (root / rel).read_text("utf-8") == text
    assert plan.tree().splitlines()[:2] == ["preview-me/", "    KNOWLEDGE.md"]


@pytest.mark.parametrize("name", ["", "Acme", "has space", "-lead", "trail-", "dou--ble", "x" * 65, "café",
                                  "a/b", "..", "\x1b[31mred"])
def test_bad_names_are_refused_and_nothing_is_written(name: str, tmp_path: Path) -> None:
    into = tmp_path / "missing" / "knowledge"
    with pytest.raises(NewPackError) as info:
        create_pack(plan_new_pack(_request(name, into), TEMPLATES))
    assert info.value.kind == "invalid"
    assert not (tmp_path / "missing").exists()


def test_an_existing_target_is_never_overwritten(tmp_path: Path) -> None:
    (tmp_path / "acme").mkdir()
    (tmp_path / "acme" / "notes.md").write_text("mine\n")
    before = tree_digest(tmp_path)
    with pytest.raises(NewPackError) as info:
        plan_new_pack(_request("acme", tmp_path), TEMPLATES)
    assert info.value.kind == "exists"
    plan = plan_new_pack(_request("other", tmp_path), TEMPLATES)
    (tmp_path / "other").mkdir()  # appears between the preview and Create
    with pytest.raises(NewPackError):
        create_pack(plan)
    (tmp_path / "other").rmdir()
    assert tree_digest(tmp_path) == before


@pytest.mark.parametrize(("existing", "name"), [("Acme", "acme"), ("ACME", "acme"), ("ａｃｍｅ", "acme"),
                                               ("\ufb01le-notes", "file-notes"), ("\u212aelvin", "kelvin")])
def test_names_differing_only_by_case_or_unicode_form_collide(existing: str, name: str, tmp_path: Path) -> None:
    (tmp_path / existing).mkdir()
    with pytest.raises(NewPackError, match="only by case or Unicode form"):
        plan_new_pack(_request(name, tmp_path), TEMPLATES)


def test_a_known_pack_name_collides_whatever_its_folder(tmp_path: Path) -> None:
    elsewhere = tmp_path / "user" / "Acme-Pack"
    with pytest.raises(NewPackError, match="already the name of the pack"):
        plan_new_pack(_request("acme-pack", tmp_path / "project", known=(("ACME-PACK", elsewhere),)), TEMPLATES)


def test_a_target_inside_another_pack_is_refused(tmp_path: Path) -> None:
    outer = tmp_path / "outer"
    (outer / "wiki").mkdir(parents=True)
    (outer / "KNOWLEDGE.md").write_text("---\nname: outer\n---\n")
    with pytest.raises(NewPackError, match="inside the pack"):
        plan_new_pack(_request("inner", outer / "wiki" / "deeper"), TEMPLATES)
    assert not (outer / "wiki" / "deeper").exists()


def test_a_file_in_place_of_the_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "knowledge").write_text("not a folder")
    with pytest.raises(NewPackError) as info:
        plan_new_pack(_request("acme", tmp_path / "knowledge"), TEMPLATES)
    assert info.value.kind == "environment"


@pytest.mark.skipif(os.geteuid() == 0 if hasattr(os, "geteuid") else True,
                    reason="running as root: permissions are not enforced")
def test_a_read_only_folder_is_refused(tmp_path: Path) -> None:
    tmp_path.chmod(0o555)
    try:
        with pytest.raises(NewPackError, match="read-only"):
            plan_new_pack(_request("acme", tmp_path), TEMPLATES)
    finally:
        tmp_path.chmod(0o755)


def test_a_failed_build_leaves_nothing_behind_not_even_the_folders_it_made(tmp_path: Path) -> None:
    user = tmp_path / "templates" / "broken-json"
    (user / "ontology").mkdir(parents=True)
    (user / "template.toml").write_text('title = "Broken"\ntype = "content-ontology"\nprofile = "wiki-first"\n')
    (user / "ontology" / "ontology.json").write_text("{ not json")
    templates = load_templates(tmp_path / "templates")
    template = templates.get("broken-json")
    assert template is not None
    into = tmp_path / "project" / ".agents" / "knowledge"
    plan = plan_new_pack(NewPackRequest("onto", into, template), templates)
    with pytest.raises(NewPackError, match="would not validate"):
        create_pack(plan)
    assert not (tmp_path / "project").exists()


def test_the_default_folder_is_created_when_missing(tmp_path: Path) -> None:
    into = tmp_path / ".agents" / "knowledge"
    root = create_pack(plan_new_pack(_request("fresh", into), TEMPLATES)).root
    assert root == into / "fresh" and (root / "KNOWLEDGE.md").is_file()


@settings(max_examples=150, deadline=None)
@given(st.text(min_size=1, max_size=200).filter(lambda s: s.strip()))
def test_any_description_round_trips_or_is_refused(text: str) -> None:
    try:
        plan = plan_new_pack(_request("desc", Path("/nonexistent-studio-test"), description=text), TEMPLATES)
    except NewPackError as exc:
        assert exc.kind in ("invalid", "environment")
        return
    knowledge, diags = read_knowledge_bytes(plan.knowledge.encode("utf-8"))
    assert knowledge.frontmatter is not None, diags
    assert knowledge.frontmatter.data["description"] == " ".join(text.split())


def test_bad_type_language_and_description_are_refused(tmp_path: Path) -> None:
    for kw in ({"type": "not-a-type"}, {"type": "custom:"}, {"language": "english please"},
               {"description": "bell \x07"}, {"description": "x" * 1100}, {"profile": "wiki"}, {"mode": "voice"}):
        with pytest.raises(NewPackError):
            plan_new_pack(_request("acme", tmp_path, **kw), TEMPLATES)
    assert os.listdir(tmp_path) == []


def test_a_pack_beside_the_target_is_read_by_its_name(tmp_path: Path) -> None:
    (tmp_path / "acme-old").mkdir()
    (tmp_path / "acme-old" / "KNOWLEDGE.md").write_text("---\nname: Acme\ndescription: d\n---\n")
    with pytest.raises(NewPackError, match="already the name of the pack"):
        plan_new_pack(_request("acme", tmp_path), TEMPLATES)
