"""``pack-studio new``, ``fix`` and ``format`` through ``main([...])``: exit codes, output, what is written."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from studio.cli import main
from studio.core.pack import load_pack

BROKEN = Path(__file__).resolve().parents[1] / "data" / "authoring" / "broken"


def _tree(root: Path) -> dict[str, bytes | None]:
    return {p.relative_to(root).as_posix(): (p.read_bytes() if p.is_file() else None) for p in sorted(root.rglob("*"))}


def test_new_creates_a_clean_pack_in_the_project_scope(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    code = main(["new", "acme-widget", "--type", "brand-product", "--profile", "document-first",
                 "--description", "Facts: specs, prices # and claims", "--language", "en-GB"])
    out = capsys.readouterr().out
    root = tmp_path / ".agents" / "knowledge" / "acme-widget"
    assert code == 0, out
    assert f"Created {root} from the 'brand-product' template." in out
    pack = load_pack(root, content=True)
    assert [d.code for d in pack.diagnostics] == ["status-draft"]
    assert pack.description == "Facts: specs, prices # and claims" and pack.field("language") == "en-GB"
    assert (root / "documents" / "product-brief.md").is_file()
    assert main(["validate", "--content", str(root)]) == 0


def test_new_and_the_wizard_share_one_default_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from studio.core.authoring.new_pack import default_pack_folder

    project = tmp_path / "proj"
    project.mkdir()
    assert main(["new", "notes", "--type", "domain-reference", "--profile", "wiki-first", "--project", str(project),
                 "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["path"] == str(project / ".agents" / "knowledge" / "notes")
    assert default_pack_folder(project).folder == project / ".agents" / "knowledge"
    assert default_pack_folder(project / ".agents" / "knowledge").folder == project / ".agents" / "knowledge"
    assert default_pack_folder(None, tmp_path / "home").folder == tmp_path / "home" / ".agents" / "knowledge"


def test_new_refuses_an_existing_target_with_exit_2_and_changes_nothing(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", "acme", "--type", "domain-reference", "--profile", "wiki-first", "--into", str(tmp_path)]) == 0
    (tmp_path / "acme" / "wiki" / "index.md").write_text("# Mine\n")
    before = _tree(tmp_path)
    capsys.readouterr()
    for name in ("acme", "ACME"):
        code = main(["new", name, "--type", "domain-reference", "--profile", "hybrid", "--into", str(tmp_path)])
        assert code == 2
    err = capsys.readouterr().err
    assert "already exists" in err and "Only a-z" in err
    (tmp_path / "Beta").mkdir()
    assert main(["new", "beta", "--type", "domain-reference", "--profile", "hybrid", "--into", str(tmp_path)]) == 2
    assert "only by case or Unicode form" in capsys.readouterr().err
    assert _tree(tmp_path) == {**before, "Beta": None}


@pytest.mark.parametrize("args", [
    ["new", "x", "--type", "nope", "--profile", "wiki-first"],
    ["new", "x", "--profile", "wiki-first"],
    ["new", "x", "--template", "no-such-template"],
    ["new", "Bad Name", "--type", "brand-product", "--profile", "wiki-first"],
    ["new", "x", "--type", "brand-product", "--profile", "wiki-first", "--description", "\x1b[2J"],
])
def test_new_usage_errors_exit_2_and_write_nothing(args: list[str], tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*args, "--into", str(tmp_path / "k")]) == 2
    assert not (tmp_path / "k").exists()
    assert "\x1b" not in capsys.readouterr().err


def test_new_inside_a_pack_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copytree(BROKEN / "clean", tmp_path / "clean")
    assert main(["new", "inner", "--type", "brand-product", "--profile", "wiki-first",
                 "--into", str(tmp_path / "clean" / "documents")]) == 2
    assert "packs do not nest" in capsys.readouterr().err
    assert not (tmp_path / "clean" / "documents").exists()


def test_new_dry_run_and_json_and_templates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", "demo", "--template", "research-wiki", "--into", str(tmp_path), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "demo/\n    KNOWLEDGE.md\n" in out and "type: research-wiki" in out and "Dry run" in out
    assert os.listdir(tmp_path) == []
    assert main(["new", "demo", "--template", "research-wiki", "--mode", "persona", "--into", str(tmp_path),
                 "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["files"] == ["KNOWLEDGE.md", "compiled/boundaries.md", "wiki/index.md"]
    assert main(["new", "--list-templates", "--format", "json"]) == 0
    ids = [t["id"] for t in json.loads(capsys.readouterr().out)]
    assert ids[0] == "blank" and len(ids) == 13


def test_new_uses_a_teams_own_template(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    own = tmp_path / "templates" / "team-faq"
    (own / "wiki").mkdir(parents=True)
    (own / "template.toml").write_text('title = "Team FAQ"\ntype = "custom:acme.faq"\nprofile = "wiki-first"\n'
                                       'when_to_use = ["Answering team questions."]\n')
    (own / "wiki" / "index.md").write_text("# {{title}} questions\n")
    (own / "wiki" / "faq.md").write_text("# Frequent questions about {{title}}\n")
    assert main(["new", "support-faq", "--template", "team-faq", "--templates-dir", str(tmp_path / "templates"),
                 "--into", str(tmp_path / "k")]) == 0
    root = tmp_path / "k" / "support-faq"
    assert (root / "wiki" / "faq.md").read_text() == "# Frequent questions about Support Faq\n"
    assert {d.code for d in load_pack(root, content=True).diagnostics} == {"status-draft", "custom-type"}
    assert "- Answering team questions." in (root / "KNOWLEDGE.md").read_text()


def _copy(case: str, tmp_path: Path) -> Path:
    return Path(shutil.copytree(BROKEN / case, tmp_path / case))


def test_fix_is_a_dry_run_by_default(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _copy("status-typo", tmp_path)
    before = (root / "KNOWLEDGE.md").read_bytes()
    assert main(["fix", str(root)]) == 0  # the status is what the fixes would leave
    out = capsys.readouterr().out
    assert f"--- {root}/KNOWLEDGE.md\n" in out and "-status: redy\n+status: ready\n" in out
    assert "run with --write" in out
    assert (root / "KNOWLEDGE.md").read_bytes() == before


def test_fix_write_repairs_and_validates_clean(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    roots = [_copy(case, tmp_path) for case in ("status-typo", "tabs", "type-typo", "missing-profile",
                                                 "context-map-missing", "status-case")]
    assert main(["fix", *map(str, roots), "--write", "--create"]) == 0
    assert (roots[4] / "compiled" / "facts.md").is_file(), "--create makes the file the context map names"
    for root in roots:
        assert load_pack(root, content=True).diagnostics == () or root.name in ("tabs", "status-case"), root
    assert (roots[-1] / "KNOWLEDGE.md").read_bytes().startswith(b"\xef\xbb\xbf---\r\n"), "BOM and CRLF kept"
    assert main(["fix", *map(str, roots)]) == 0
    assert capsys.readouterr().out.count("Nothing to fix") == len(roots)


def test_fix_write_keeps_guide_lines_and_create_makes_the_missing_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _copy("context-map-missing", tmp_path)
    before = (root / "KNOWLEDGE.md").read_bytes()
    assert main(["fix", str(root), "--write"]) == 0  # a warning: the pack still loads
    out = capsys.readouterr().out
    assert "KNOWLEDGE.md:22:" in out and "not fixed context-map-missing-file" in out and "--create" in out
    assert (root / "KNOWLEDGE.md").read_bytes() == before, "a guide line is never removed automatically"
    assert main(["fix", str(root), "--code", "context-map-missing-file", "--create"]) == 0
    out = capsys.readouterr().out
    assert "+++ b/compiled/facts.md" in out and "would create" in out and "Dry run: 0 fixes, 1 new file" in out
    assert not (root / "compiled" / "facts.md").exists()
    assert main(["fix", str(root), "--code", "context-map-missing-file", "--create", "--write"]) == 0
    assert "created" in capsys.readouterr().out
    assert (root / "compiled" / "facts.md").is_file() and (root / "KNOWLEDGE.md").read_bytes() == before
    assert load_pack(root, content=True).diagnostics == ()


def test_fix_counts_read_in_the_singular(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _copy("status-typo", tmp_path)
    main(["fix", str(root)])
    assert "Dry run: 1 fix for" in capsys.readouterr().out
    main(["fix", str(root), "--write"])
    assert "(1 fix)" in capsys.readouterr().out
    assert main(["fix", str(root), "--code", "no-such-code"]) == 2
    assert "no fix for code no-such-code" in capsys.readouterr().err


def test_fix_never_writes_placeholders(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _copy("missing-status", tmp_path)
    before = (root / "KNOWLEDGE.md").read_bytes()
    assert main(["fix", str(root), "--write"]) == 1
    out = capsys.readouterr().out
    assert "not fixed missing-status: the fix needs a choice in the app" in out
    assert (root / "KNOWLEDGE.md").read_bytes() == before


def test_fix_only_the_codes_asked_for(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _copy("status-typo", tmp_path)
    text = (root / "KNOWLEDGE.md").read_text().replace("trust: user-confirmed", "trust: offical")
    (root / "KNOWLEDGE.md").write_text(text)
    assert main(["fix", str(root), "--code", "invalid-trust", "--write"]) == 1
    written = (root / "KNOWLEDGE.md").read_text()
    assert "trust: official" in written and "status: redy" in written
    assert main(["fix", str(root), "--code", "no-such-code"]) == 2
    assert main(["fix", "--list-codes", str(root)]) == 0
    assert "invalid-status" in capsys.readouterr().out.split()


def test_fix_a_folder_of_packs_as_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for case in ("grounding-typo", "unknown-key", "clean"):
        _copy(case, tmp_path)
    assert main(["fix", str(tmp_path), "--format", "json"]) == 0
    packs = {Path(p["pack"]).name: p for p in json.loads(capsys.readouterr().out)["packs"]}
    assert set(packs) == {"grounding-typo", "unknown-key", "clean"}
    assert [a["code"] for a in packs["unknown-key"]["applied"]] == ["unknown-key"]
    assert packs["clean"]["diff"] == "" and not packs["grounding-typo"]["written"]


def test_fix_refuses_what_is_not_a_pack(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fix", str(tmp_path / "nowhere")]) == 2
    assert "not a pack" in capsys.readouterr().err


def test_fix_output_cannot_drive_the_terminal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _copy("status-typo", tmp_path)
    text = (root / "KNOWLEDGE.md").read_text().replace("status: redy", "status: redy\x1b[2J")
    (root / "KNOWLEDGE.md").write_text(text)
    main(["fix", str(root)])
    assert "\x1b" not in capsys.readouterr().out


def test_format_normalises_and_writes_only_when_asked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _copy("status-case", tmp_path)
    before = (root / "KNOWLEDGE.md").read_bytes()
    assert main(["format", str(root)]) == 0
    assert "Would format" in capsys.readouterr().out
    assert (root / "KNOWLEDGE.md").read_bytes() == before
    assert main(["format", str(root), "--write"]) == 0
    after = (root / "KNOWLEDGE.md").read_bytes()
    assert after == before.replace(b"\r\n", b"\n")[3:]
    assert main(["format", str(root)]) == 0
    assert "already formatted" in capsys.readouterr().out
    assert main(["format", str(tmp_path / "nowhere")]) == 2


def test_fix_lists_its_codes_without_a_path_and_asks_for_one_otherwise(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fix", "--list-codes"]) == 0
    assert "invalid-name" in capsys.readouterr().out.split()
    assert main(["fix"]) == 2
    assert "PATH" in capsys.readouterr().err


@pytest.mark.parametrize("nesting", ["[" * 3000 + "]" * 3000, "{a = " * 3000 + "1" + "}" * 3000])
def test_a_deeply_nested_user_template_is_listed_with_its_problem_and_skipped(
        nesting: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue #35 item 4: a template is the user's file, still input; the others keep working."""
    templates = tmp_path / "templates"
    (templates / "deep").mkdir(parents=True)
    (templates / "deep" / "template.toml").write_text(f'title = "Deep"\nx = {nesting}\n')
    assert main(["new", "--list-templates", "--templates-dir", str(templates)]) == 0
    out, err = capsys.readouterr()
    assert "deep" in err and "nests values" in err and "Traceback" not in out + err
    assert "blank" in out  # the built-in templates are still offered
    assert main(["new", "still-works", "--template", "blank", "--templates-dir", str(templates),
                 "--into", str(tmp_path / "k")]) == 0
    assert (tmp_path / "k" / "still-works" / "KNOWLEDGE.md").is_file()
    assert main(["new", "deep-one", "--template", "deep", "--templates-dir", str(templates),
                 "--into", str(tmp_path / "k")]) == 2
    assert not (tmp_path / "k" / "deep-one").exists()
