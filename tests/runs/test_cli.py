"""The runs, validate-run, evidence and review commands, called through ``main([...])``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from runs_support import RUNS_DATA, VALID_COMPILE, knowledge_text

from studio.cli import main


def test_runs_text_lists_timeline_and_validity(runs_pack, capsys) -> None:
    root = runs_pack({
        "runs/compile-2026-05-01T10-30-00Z.json": VALID_COMPILE,
        "runs/context-2026-05-02T10-30-00Z.json": "{broken",
    })
    assert main(["runs", str(root)]) == 1  # a malformed record needs action
    out = capsys.readouterr().out
    assert "2026-05-01 10:30:00Z  compile-run         valid" in out
    assert "malformed" in out and "run-malformed-json" in out
    assert "Never selected" in out and "documents/brief.md" in out
    assert "never runs, installs or fetches a Builder Skill" in out


def test_runs_json_has_stats_and_provenance(runs_pack, capsys) -> None:
    root = runs_pack({"runs/compile-2026-05-01T10-30-00Z.json": dict(
        VALID_COMPILE, builder_skill={"name": "other-builder", "version": "1.2.0"})})
    assert main(["runs", str(root), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["records"][0]["validity"] == "valid"
    assert data["stats"]["compile_history"][0]["status"] == "passed"
    [mismatch] = data["provenance"]["diagnostics"]
    assert mismatch["code"] == "provenance-mismatch" and "other-builder" in mismatch["message"]


def test_validate_run_envelope(capsys) -> None:
    good = RUNS_DATA / "real-v0.7.2" / "runs" / "context-2026-05-01T10-45-00Z.json"
    assert main(["validate-run", str(good)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["ok"], data["status"], data["command"]) == (True, "passed", "validate-run")
    assert data["kind"] == "context-resolution" and data["findings"] == []


def test_validate_run_reports_findings(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "compile-2026-05-01T10-30-00Z.json"
    bad.write_text(json.dumps(dict(VALID_COMPILE, trigger="whenever")))
    assert main(["validate-run", str(bad)]) == 1
    data = json.loads(capsys.readouterr().out)
    assert (data["ok"], data["status"]) == (False, "needs-review")
    assert any("/trigger" in f["message"] for f in data["findings"])
    assert main(["validate-run", str(tmp_path / "nope.json")]) == 2


def test_evidence_command_and_claim_detail(tmp_path: Path, capsys) -> None:
    root = tmp_path / "pack"
    shutil.copytree(RUNS_DATA / "real-v0.7.2", root)
    assert main(["evidence", str(root)]) == 1  # the standard's example cites a source it does not ship
    out = capsys.readouterr().out
    assert "clm-acme-offline-queue" in out and "evidence-source-missing" in out
    assert main(["evidence", str(root), "--claim", "clm-acme-offline-queue", "--format", "json"]) == 1
    assert json.loads(capsys.readouterr().out)["excerpt"]["state"] == "missing"
    assert main(["evidence", str(root), "--claim", "nope"]) == 2


def test_review_command_writes_record_and_edit(runs_pack, capsys) -> None:
    root = runs_pack({}, knowledge=knowledge_text(status="disputed"))
    assert main(["review", str(root), "--decision", "confirm", "--reason", "verified", "--reviewer", "kim",
                 "--set-status", "ready", "--set-trust", "user-confirmed", "--examined", "sources/notes.md"]) == 0
    out = capsys.readouterr().out
    assert "-status: disputed" in out and "+status: ready" in out
    text = (root / "KNOWLEDGE.md").read_text()
    assert "status: ready\n" in text and "trust: user-confirmed\n" in text
    [record] = list((root / "runs").glob("review-*.json"))
    assert json.loads(record.read_text())["reviewer"] == "kim"


def test_review_dry_run_writes_nothing(runs_pack, capsys) -> None:
    root = runs_pack({}, knowledge=knowledge_text(status="disputed"))
    before = (root / "KNOWLEDGE.md").read_bytes()
    assert main(["review", str(root), "--decision", "reject", "--reason", "wrong", "--set-status", "archived",
                 "--dry-run"]) == 0
    assert (root / "KNOWLEDGE.md").read_bytes() == before
    assert not (root / "runs").exists()
    assert main(["review", str(root), "--decision", "maybe", "--reason", "x"]) == 2
