"""``pack-studio validate``, ``read-properties``, ``to-catalog`` and ``rules`` through ``main([...])``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from studio.cli import main

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


@pytest.fixture
def workspace(make_pack: Callable[..., Path], tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    make_pack("good", GOOD, {"compiled/briefing.md": "# B\n"}, parent=root)
    make_pack("broken", GOOD.replace("name: good", "name: broken").replace("status: ready", "status: redy"),
              {"compiled/briefing.md": "# B\n"}, parent=root)
    return root


def test_text_output_is_path_line_col(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["validate", str(workspace), "--home", str(workspace / "nohome")])
    out = capsys.readouterr().out
    assert code == 1
    assert f"{workspace / 'broken'}/KNOWLEDGE.md:5:9: error invalid-status" in out
    assert "2 packs (1 load): 1 error, " in out


def test_json_output_shape(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(workspace), "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["summary"] == {"packs": 2, "errors": 1, "warnings": 0, "infos": 0}
    packs = {p["name"]: p for p in data["packs"]}
    assert packs["good"]["loads"] and packs["good"]["in_catalog"] and packs["good"]["diagnostics"] == []
    broken = packs["broken"]
    assert broken["loads"] is False and broken["in_catalog"] is False and broken["scope"] == "explicit"
    (diag,) = broken["diagnostics"]
    assert {k: diag[k] for k in ("code", "severity", "file", "line", "column", "behavior")} == {
        "code": "invalid-status", "severity": "error", "file": "KNOWLEDGE.md", "line": 5, "column": 9,
        "behavior": "quarantine"}
    assert diag["hint"] == "Did you mean 'ready'?"
    assert set(packs["good"]) >= {"name", "path", "scope", "loads", "in_catalog", "shadowed_by", "status", "profile",
                                  "effective_profile", "runtime_mode", "trust", "diagnostics"}


def test_clean_workspace_exits_zero(make_pack: Callable[..., Path], tmp_path: Path) -> None:
    root = make_pack("good", GOOD, {"compiled/briefing.md": "# B\n"})
    assert main(["validate", str(root)]) == 0


def test_usage_error_exits_two(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--format", "yaml"]) == 2
    assert main(["no-such-command"]) == 2


def test_read_properties_and_to_catalog(make_pack: Callable[..., Path], capsys: pytest.CaptureFixture[str]) -> None:
    root = make_pack("good", GOOD + "", {"compiled/briefing.md": "# B\n"})
    assert main(["read-properties", str(root)]) == 0
    props = json.loads(capsys.readouterr().out)
    assert props["version"] == "1.0.0" and props["name"] == "good"
    assert main(["to-catalog", str(root)]) == 0
    assert list(json.loads(capsys.readouterr().out)) == ["name", "description", "type", "status", "profile", "version"]


def test_content_check_reports_unopenable_source_paths(make_pack: Callable[..., Path],
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    claims = [{"claim_id": "long", "text": "t", "status": "confirmed", "source": {"path": "sources/" + "a" * 300}},
              {"claim_id": "nul", "text": "t", "status": "confirmed", "source": {"path": "sources/a\x00b.md"}}]
    root = make_pack("good", GOOD, {"compiled/briefing.md": "# B\n", "sources/notes.md": "n\n",
                                    "indexes/source-map.json": json.dumps({"claims": claims}, indent=2)})
    main(["validate", str(root), "--content", "--format", "json"])
    diags = json.loads(capsys.readouterr().out)["packs"][0]["diagnostics"]
    assert "internal-error" not in {d["code"] for d in diags}
    missing = [d for d in diags if d["code"] == "source-map-missing-source"]
    assert [(d["message"].split(":")[0], d["line"]) for d in missing] == [("Claim long", 8), ("Claim nul", 16)]


@pytest.mark.parametrize(("source_map", "where", "message"), [
    ('{"claims":\n  ' + "[" * 50_000 + "]" * 50_000 + "}", (2, 502), "is nested more than 500 levels deep"),
    ('{"claims": [],\n  "n": -' + "9" * 5000 + "}", (2, 8), "holds a 5,000-digit number"),
])
def test_content_check_reports_deep_or_huge_json_with_its_position(
        make_pack: Callable[..., Path], capsys: pytest.CaptureFixture[str], source_map: str, where: tuple[int, int],
        message: str) -> None:
    root = make_pack("good", GOOD, {"compiled/briefing.md": "# B\n", "indexes/source-map.json": source_map})
    main(["validate", str(root), "--content", "--format", "json"])
    diags = json.loads(capsys.readouterr().out)["packs"][0]["diagnostics"]
    assert "internal-error" not in {d["code"] for d in diags}
    [bad] = [d for d in diags if d["file"] == "indexes/source-map.json"]
    assert (bad["code"], bad["line"], bad["column"]) == ("invalid-index-json", *where)
    assert message in bad["message"]


def test_read_properties_writes_valid_json_for_yaml_only_values(make_pack: Callable[..., Path],
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    extra = ('blob: !!binary "AAAA"\nnums: [.nan, .inf, -.inf, 1.5]\n'
             f"big: 0x{'f' * 4000}\nkeys: {{3: a, true: b}}\nnested: {{list: [!!binary aGk=]}}\n")
    root = make_pack("good", GOOD.replace("version:", extra + "version:"))
    assert main(["read-properties", str(root)]) == 0
    out, err = capsys.readouterr()
    data = json.loads(out, parse_constant=lambda c: pytest.fail(f"{c} is not JSON"))
    assert data["blob"] == "AAAA" and data["nested"] == {"list": ["aGk="]}
    assert data["nums"] == [".nan", ".inf", "-.inf", 1.5]
    assert data["big"] == "0x" + "f" * 4000 and data["keys"] == {"3": "a", "true": "b"}
    assert data["name"] == "good"
    assert "blob: binary data (!!binary), written as a base64 string" in err
    assert "nested.list[0]: binary data" in err and "nums[0]: nan has no JSON form" in err


def test_summaries_say_one_warning_not_one_warnings(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    """Every text summary puts its nouns in the number they take (``1 pack``, ``1 warning``, ``2 errors``)."""
    pack = tmp_path / "only"
    pack.mkdir()
    (pack / "KNOWLEDGE.md").write_text("---\nname: only\ndescription: One pack, one warning.\ntype: domain-reference\n"
                                       "status: ready\n---\n# Only\n", encoding="utf-8")  # no profile: one warning
    (pack / "compiled").mkdir()
    (pack / "compiled" / "briefing.md").write_text("# Briefing\n", encoding="utf-8")
    main(["validate", str(pack), "--format", "json"])
    summary = json.loads(capsys.readouterr().out)["summary"]
    assert (summary["packs"], summary["warnings"]) == (1, 1), summary
    main(["validate", str(pack)])
    text = capsys.readouterr().out.splitlines()[-1]
    main(["validate", str(pack), "--format", "github"])
    github = capsys.readouterr().out.splitlines()[-1]
    assert text == f"1 pack (1 load): 0 errors, 1 warning, {summary['infos']} info"
    assert github == f"pack-studio: 1 pack: 0 errors, 1 warning, {summary['infos']} info"
    main(["evidence", str(pack)])
    assert capsys.readouterr().out.splitlines()[-1] == "0 claims: 0 errors, 0 warnings, 0 info"
