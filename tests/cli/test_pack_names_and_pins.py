"""Commands that take one PACK accept a name from the scopes; pins reach the CLI; validate --hints; empty guides."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import main


def put(folder: Path, name: str, version: str = "1.0.0", body: str = "# Guide\nFacts about widgets.\n") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "KNOWLEDGE.md").write_text(
        f"---\nname: {name}\ndescription: Facts for the CLI tests.\ntype: domain-reference\nstatus: ready\n"
        f"profile: wiki-first\nversion: {version}\nupdated: 2026-01-01\n---\n{body}", encoding="utf-8")
    (folder / "compiled").mkdir(exist_ok=True)
    (folder / "compiled" / "briefing.md").write_text("# Briefing\nWidgets weigh 2 kg.\n", encoding="utf-8")
    return folder


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project with two same-scope copies of ``brief`` (the old one sorts first) and a ``widgets`` pack."""
    base = tmp_path / "repo"
    knowledge = base / ".agents" / "knowledge"
    put(knowledge / "a-old" / "brief", "brief", "0.4.0")
    put(knowledge / "b-new" / "brief", "brief", "0.7.2")
    put(knowledge / "widgets", "widgets")
    return base


def scopes(project: Path) -> list[str]:
    return ["--project", str(project), "--home", str(project / "nohome"), "--no-builtin"]


@pytest.mark.parametrize("command", [["guide"], ["fence"], ["runs"], ["resolve", "--task", "widgets weight"]])
def test_a_pack_name_works_where_a_path_does(project: Path, command: list[str], capsys) -> None:
    by_path = main([*command[:1], str(project / ".agents/knowledge/widgets"), *command[1:]])
    path_out = capsys.readouterr().out
    by_name = main([*command[:1], "widgets", *command[1:], *scopes(project)])
    assert (by_name, capsys.readouterr().out) == (by_path, path_out)


def test_an_unknown_name_is_a_usage_error_listing_the_names(project: Path, capsys) -> None:
    assert main(["guide", "nosuch", *scopes(project)]) == 2
    err = capsys.readouterr().err
    assert "nosuch: no such folder, and no pack of that name" in err and "brief, widgets" in err
    assert "Traceback" not in err


def test_the_name_finds_the_winning_copy_and_a_pin_changes_it(project: Path, capsys) -> None:
    main(["guide", "brief", *scopes(project)])
    assert "a-old/brief" in capsys.readouterr().out
    new = project / ".agents/knowledge/b-new/brief"
    main(["guide", "brief", *scopes(project), "--pin", f"brief={new}"])
    assert "b-new/brief" in capsys.readouterr().out


def test_validate_reads_the_projects_pins_file_and_an_explicit_one(project: Path, tmp_path: Path, capsys) -> None:
    def winner() -> str:
        data = json.loads(capsys.readouterr().out)
        return next(p["path"] for p in data["packs"] if p["name"] == "brief" and p["loads"])

    main(["validate", "--format", "json", *scopes(project)])
    assert winner().endswith("a-old/brief")
    pins = project / ".pack-studio" / "workspace.json"
    pins.parent.mkdir()
    pins.write_text('{"pins": {"brief": ".agents/knowledge/b-new/brief"}}', encoding="utf-8")
    main(["validate", "--format", "json", *scopes(project)])
    assert winner().endswith("b-new/brief")
    other = tmp_path / "other-pins.json"
    other.write_text('{"pins": {}}', encoding="utf-8")
    main(["validate", "--format", "json", *scopes(project), "--pins", str(other)])
    assert winner().endswith("a-old/brief")


def test_a_broken_pins_file_stops_the_run_with_its_reason(project: Path, capsys) -> None:
    pins = project / ".pack-studio" / "workspace.json"
    pins.parent.mkdir()
    pins.write_text('{"pins": {"brief": "x", "brief": "y"}}', encoding="utf-8")
    assert main(["validate", *scopes(project)]) == 2
    err = capsys.readouterr().err
    assert "duplicate key 'brief'" in err and "Traceback" not in err
    pins.unlink()
    assert main(["validate", *scopes(project), "--pin", "brief"]) == 2
    assert "expected NAME=PATH" in capsys.readouterr().err


def test_runs_on_a_folder_that_is_not_a_pack_says_so(tmp_path: Path, capsys) -> None:
    (tmp_path / "plain" / "runs").mkdir(parents=True)
    assert main(["runs", str(tmp_path / "plain")]) == 2
    assert "is not a pack (no KNOWLEDGE.md)" in capsys.readouterr().err
    assert main(["runs", str(tmp_path / "absent" / "x")]) == 2


def test_validate_hints_prints_each_findings_hint(project: Path, capsys) -> None:
    main(["validate", *scopes(project)])
    plain = capsys.readouterr().out
    main(["validate", "--hints", *scopes(project)])
    hinted = capsys.readouterr().out
    assert "hint:" not in plain
    assert "    hint: Both copies are in the same scope" in hinted


def test_guide_says_when_the_body_is_empty(tmp_path: Path, capsys) -> None:
    empty = put(tmp_path / "empty", "empty", body="\n\n")
    assert main(["guide", str(empty)]) == 0
    assert "(empty body)" in capsys.readouterr().err
    full = put(tmp_path / "full", "full")
    main(["guide", str(full)])
    assert "(empty body)" not in capsys.readouterr().err
