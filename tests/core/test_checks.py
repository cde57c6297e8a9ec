"""Every validation rule: a frontmatter snippet next to the (line, column, code, severity) it must produce."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from studio.core.diagnostics import Behavior
from studio.core.pack import load_pack, validate_text

VALID = """---
name: demo
description: Demo pack used by the tests.
type: brand-product
status: ready
profile: wiki-first
---
# Demo
"""
FILES = {"compiled/briefing.md": "# Briefing\n"}


def findings(make_pack: Callable[..., Path], knowledge: str, files: dict[str, str] | None = None,
             name: str = "demo") -> list[tuple[int, int, str, str]]:
    pack = load_pack(make_pack(name, knowledge, {**FILES, **(files or {})}))
    return [(d.line, d.column, d.code, d.severity.value) for d in pack.diagnostics]


def with_lines(*extra: str, drop: str = "") -> str:
    lines = [line for line in VALID.split("\n") if not (drop and line.startswith(drop + ":"))]
    return "\n".join(lines[:6 - (1 if drop else 0)] + list(extra) + lines[6 - (1 if drop else 0):])


def test_valid_pack_has_no_findings(make_pack: Callable[..., Path]) -> None:
    assert findings(make_pack, VALID) == []


CASES = [
    # (id, knowledge text, expected findings)
    ("V06 missing description", with_lines(drop="description"), [(1, 1, "missing-description", "error")]),
    ("V06 empty description", VALID.replace("Demo pack used by the tests.", '""'),
     [(3, 14, "missing-description", "error")]),
    ("V07 long description", VALID.replace("Demo pack used by the tests.", "x" * 1025),
     [(3, 14, "description-too-long", "error")]),
    ("V08 missing name", with_lines(drop="name"), [(1, 1, "missing-name", "error")]),
    ("V09 bad name", VALID.replace("name: demo", "name: Demo_Pack"),
     [(2, 7, "invalid-name", "error"), (2, 7, "name-directory-mismatch", "warning")]),
    ("V11 missing type", with_lines(drop="type"), [(1, 1, "missing-type", "error")]),
    ("V12 custom type", VALID.replace("type: brand-product", "type: custom:acme-playbook"),
     [(4, 7, "custom-type", "info")]),
    ("V13 unknown type", VALID.replace("type: brand-product", "type: brand-produkt"),
     [(4, 7, "unknown-type", "warning")]),
    ("V14 empty namespace", VALID.replace("type: brand-product", "type: 'custom:'"),
     [(4, 7, "custom-type-empty-namespace", "warning")]),
    ("V15 missing status", with_lines(drop="status"), [(1, 1, "missing-status", "error")]),
    ("V16 bad status", VALID.replace("status: ready", "status: publishd"), [(5, 9, "invalid-status", "error")]),
    ("V17 missing profile", with_lines(drop="profile"), [(1, 1, "missing-profile", "warning")]),
    ("V18 bad profile", VALID.replace("profile: wiki-first", "profile: wiki"), [(6, 10, "invalid-profile", "warning")]),
    ("V19 runtime scalar", with_lines("runtime: persona"), [(7, 10, "invalid-runtime-mode", "warning")]),
    ("V19 bad mode", with_lines("runtime:", "  mode: narrator"), [(8, 9, "invalid-runtime-mode", "warning")]),
    ("V41 bad trust", with_lines("trust: verified"), [(7, 8, "invalid-trust", "warning")]),
    ("V42 bad grounding", with_lines("grounding: strict"), [(7, 12, "invalid-grounding", "warning")]),
    ("V43 compatibility", with_lines("compatibility: " + "c" * 500), [(7, 16, "compatibility-too-long", "warning")]),
    ("V44 updated", with_lines("updated: last tuesday"), [(7, 10, "invalid-updated-date", "warning")]),
    ("V45 version", with_lines("version: v2"), [(7, 10, "version-not-semver", "info")]),
    ("V48 unknown key", with_lines("tags: [a, b]"), [(7, 1, "unknown-key", "info")]),
    ("V50 draft", VALID.replace("status: ready", "status: draft"), [(5, 9, "status-draft", "info")]),
    ("V51 needs-review", VALID.replace("status: ready", "status: needs-review"),
     [(5, 9, "status-needs-review", "warning")]),
    ("V52 stale", VALID.replace("status: ready", "status: stale"), [(5, 9, "status-stale", "warning")]),
    ("V53 disputed", VALID.replace("status: ready", "status: disputed"), [(5, 9, "status-disputed", "warning")]),
    ("V54 archived", VALID.replace("status: ready", "status: archived"), [(5, 9, "status-archived", "info")]),
    ("V23 absolute pointer", with_lines("metadata:", "  primaryDocument: /etc/passwd"),
     [(8, 20, "unsafe-pointer", "error")]),
    ("V23 escaping pointer", with_lines("metadata:", "  primaryDocument: ../../secret.md"),
     [(8, 20, "unsafe-pointer", "error")]),
    ("V22 missing primary", with_lines("metadata:", "  primaryDocument: documents/nope.md"),
     [(8, 20, "primary-document-missing", "warning")]),
    ("V46/V47 producedBy", with_lines("metadata:", "  producedBy:", "    kind: robot", "    name: builder"),
     [(8, 3, "produced-by", "info"), (9, 11, "produced-by-unknown-kind", "info")]),
]


@pytest.mark.parametrize(("knowledge", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_rule(make_pack: Callable[..., Path], knowledge: str, expected: list[tuple[int, int, str, str]]) -> None:
    assert findings(make_pack, knowledge) == expected


def test_v10_name_differs_from_directory(make_pack: Callable[..., Path]) -> None:
    assert findings(make_pack, VALID, name="other-dir") == [(2, 7, "name-directory-mismatch", "warning")]


def test_v20_v21_document_first_gaps(make_pack: Callable[..., Path]) -> None:
    text = VALID.replace("profile: wiki-first", "profile: document-first")
    assert findings(make_pack, text) == [
        (6, 10, "document-first-without-documents", "warning"),
        (6, 10, "document-first-without-primary-document", "warning"),
    ]


def test_v24_hybrid_needs_primary_or_context_map(make_pack: Callable[..., Path]) -> None:
    text = VALID.replace("profile: wiki-first", "profile: hybrid")
    assert findings(make_pack, text) == [(6, 10, "hybrid-without-primary", "warning")]
    assert findings(make_pack, text + "\n## Context map\n- facts: compiled/facts.md\n", name="demo2") == [
        (2, 7, "name-directory-mismatch", "warning")]


def test_v25_wiki_first_without_wiki_or_compiled(make_pack: Callable[..., Path], tmp_path: Path) -> None:
    root = make_pack("demo", VALID, parent=tmp_path / "bare")
    assert [(d.code, d.rule) for d in load_pack(root).diagnostics] == [("wiki-first-without-wiki", "V25")]


def test_v26_persona_boundaries(make_pack: Callable[..., Path]) -> None:
    persona = with_lines("runtime:", "  mode: persona")
    assert findings(make_pack, persona) == [(8, 9, "persona-without-boundaries", "warning")]
    assert findings(make_pack, persona + "\n## 边界\n- 不谈政治\n", name="p2")[-1:] == [
        (2, 7, "name-directory-mismatch", "warning")]
    assert findings(make_pack, persona, {"compiled/boundaries.md": "# Never\n"}, name="p3") == [
        (2, 7, "name-directory-mismatch", "warning")]


def test_ontology_and_answers_surfaces(make_pack: Callable[..., Path]) -> None:
    text = VALID.replace("type: brand-product", "type: content-ontology")
    assert findings(make_pack, text) == [(4, 7, "content-ontology-without-ontology", "error")]
    pack = load_pack(make_pack("o2", VALID.replace("name: demo", "name: o2"),
                               {**FILES, "ontology/ontology.json": "{bad", "answers/questions.json": "[1,]"}),
                     content=True)
    by_code = {(d.code, d.file, d.line, d.column) for d in pack.diagnostics}
    assert ("invalid-ontology-json", "ontology/ontology.json", 1, 2) in by_code
    assert ("invalid-answers-json", "answers/questions.json", 1, 4) in by_code
    assert {"ontology-without-pointer", "answers-without-pointer"} <= {d.code for d in pack.diagnostics}


def test_v36_invalid_source_map(make_pack: Callable[..., Path]) -> None:
    root = make_pack("demo", VALID, {**FILES, "indexes/source-map.json": '{"claims": [\n  {,]}'})
    pack = load_pack(root, content=True)
    got = [(d.code, d.file, d.line) for d in pack.diagnostics]
    assert got == [("invalid-index-json", "indexes/source-map.json", 2)]


def test_v49_executable_files_are_flagged_never_run(make_pack: Callable[..., Path]) -> None:
    root = make_pack("demo", VALID, {**FILES, "scripts/build.sh": "#!/bin/sh\ntouch \"$(dirname \"$0\")/../pwned\"\n"})
    os.chmod(root / "scripts" / "build.sh", 0o755)
    assert [(d.code, d.file) for d in load_pack(root).diagnostics] == [("scripts-in-pack", "scripts")]
    assert [(d.code, d.file) for d in load_pack(root, content=True).diagnostics] == [
        ("scripts-in-pack", "scripts"), ("executable-file", "scripts/build.sh")]
    assert not (root / "pwned").exists()  # nothing ran: the studio only stats the file


def test_behaviour_gates_loading_and_catalog(make_pack: Callable[..., Path]) -> None:
    archived = load_pack(make_pack("demo", VALID.replace("status: ready", "status: archived"), FILES))
    assert archived.loads and not archived.in_catalog and archived.behavior is Behavior.HIDDEN
    broken = load_pack(make_pack("b", VALID.replace("status: ready", "status: publishd"), FILES))
    assert not broken.loads and broken.behavior is Behavior.QUARANTINE
    no_desc = load_pack(make_pack("c", with_lines(drop="description"), FILES))
    assert no_desc.behavior is Behavior.SKIP
    disputed = load_pack(make_pack("d", VALID.replace("status: ready", "status: disputed"), FILES))
    assert disputed.behavior is Behavior.REQUIRE_CONFIRMATION and disputed.in_catalog


def test_not_a_pack(tmp_path: Path) -> None:
    (tmp_path / "lower").mkdir()
    (tmp_path / "lower" / "knowledge.md").write_text("---\nname: x\n---\n")
    assert [d.code for d in load_pack(tmp_path / "lower").diagnostics] == ["missing-knowledge-md"]
    assert "case-sensitive" in load_pack(tmp_path / "lower").diagnostics[0].message
    assert [d.code for d in load_pack(tmp_path / "nope").diagnostics] == ["not-a-directory"]
    assert "does not exist" in load_pack(tmp_path / "nope").diagnostics[0].message  # a name typed for a folder
    (tmp_path / "file.md").write_text("x")
    assert "is not a directory" in load_pack(tmp_path / "file.md").diagnostics[0].message
    (tmp_path / "dir" / "KNOWLEDGE.md").mkdir(parents=True)
    assert [d.code for d in load_pack(tmp_path / "dir").diagnostics] == ["knowledge-md-not-file"]


def test_unreadable_knowledge_file(make_pack: Callable[..., Path]) -> None:
    root = make_pack("demo", VALID, FILES)
    os.chmod(root / "KNOWLEDGE.md", 0)
    try:
        if os.access(root / "KNOWLEDGE.md", os.R_OK):
            pytest.skip("running as root: permissions are not enforced")
        assert [d.code for d in load_pack(root).diagnostics] == ["unreadable-file"]
    finally:
        os.chmod(root / "KNOWLEDGE.md", 0o644)


def test_symlinked_knowledge_leaving_the_pack_is_not_read(make_pack: Callable[..., Path], tmp_path: Path) -> None:
    secret = tmp_path / "secret.md"
    secret.write_text(VALID)
    root = tmp_path / "linked"
    root.mkdir()
    (root / "KNOWLEDGE.md").symlink_to(secret)
    assert [d.code for d in load_pack(root).diagnostics] == ["symlink-escape"]


def test_fifo_is_not_read(tmp_path: Path) -> None:
    root = tmp_path / "fifo"
    root.mkdir()
    os.mkfifo(root / "KNOWLEDGE.md")
    assert [d.code for d in load_pack(root).diagnostics] == ["not-a-regular-file"]


def test_validate_text_checks_an_unsaved_buffer(make_pack: Callable[..., Path]) -> None:
    root = make_pack("demo", VALID, FILES)
    pack = validate_text(root, VALID.replace("status: ready", "status: publishd"))
    assert [d.code for d in pack.diagnostics] == ["invalid-status"]
    assert (root / "KNOWLEDGE.md").read_text() == VALID


SOURCE_MAP = """{
  "claims": [
    {
      "claim_id": "c1",
      "text": "Ships in May.",
      "status": "confirmed",
      "source": {"path": "sources/notes.md", "anchor": "#L1"}
    },
    {
      "claim_id": "c2",
      "text": "Costs less.",
      "status": "guessed",
      "source": {"path": "sources/gone.md"},
      "owner": "me"
    }
  ]
}
"""


def test_v37_v38_v39_source_map_shape_and_sources(make_pack: Callable[..., Path]) -> None:
    root = make_pack("demo", VALID, {**FILES, "indexes/source-map.json": SOURCE_MAP, "sources/notes.md": "Ships.\n"})
    assert load_pack(root).diagnostics == ()  # source maps are checked in the content tier
    pack = load_pack(root, content=True)
    got = [(d.code, d.rule, d.severity.value, d.line) for d in pack.diagnostics]
    assert ("index-schema-violation", "V37", "error", 12) in got  # status "guessed" is not in the enum
    assert ("index-extra-field", "V38", "warning", 14) in got
    assert ("source-map-missing-source", "V39", "error", 13) in got
    assert len(got) == 3


def test_v40_bad_run_records_are_reported_but_never_block_loading(make_pack: Callable[..., Path]) -> None:
    broken = '{"run_id": "x",\n  "status": }'
    root = make_pack("demo", VALID, {**FILES, "runs/compile-2026-05-01T10-30-00Z.json": broken,
                                     "runs/notes.md": "# free-form log\n"})
    assert load_pack(root).diagnostics == ()  # runs are read in the content tier only
    pack = load_pack(root, content=True)
    got = [(d.file, d.line, d.severity.value, d.behavior.value) for d in pack.diagnostics]
    assert got == [("runs/compile-2026-05-01T10-30-00Z.json", 2, "error", "load")]
    assert pack.loads and pack.in_catalog


@pytest.mark.parametrize("pointer", ['"documents/lending\\0policy.md"', "documents/" + "a" * 5000 + ".md"],
                         ids=["nul-byte", "name-too-long"])
def test_pointers_the_os_rejects_are_findings_not_crashes(make_pack: Callable[..., Path], pointer: str) -> None:
    pack = load_pack(make_pack("demo", with_lines("metadata:", f"  primaryDocument: {pointer}"), FILES))
    assert [d.code for d in pack.diagnostics] in (["unsafe-pointer"], ["primary-document-missing"])
    assert pack.primary_document is None or "\0" not in pack.primary_document


def test_self_looping_knowledge_symlink(tmp_path: Path) -> None:
    root = tmp_path / "loop"
    root.mkdir()
    (root / "KNOWLEDGE.md").symlink_to(root / "KNOWLEDGE.md")
    assert [d.code for d in load_pack(root).diagnostics] == ["broken-symlink"]
