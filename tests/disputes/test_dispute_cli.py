"""``pack-studio dispute``: a claim's thread opened, discussed and decided three ways, and what each decision
changes in the resolver's warnings and in ``validate``."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest

from studio.cli import main
from studio.core import atomic
from studio.core.pack import load_pack
from studio.core.resolver import ResolveRequest, ResolverSession, resolve
from studio.core.resources import examples_dir
from studio.core.validate import validate_pack

CLAIM = "nw-boiler-volumes"
TASK = "how big is the brew boiler"
CARRIERS = ["compiled/facts.md", "compiled/splits/product-brief/specs.md"]


def dispute(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["dispute", *args])
    out, err = capsys.readouterr()
    return code, out, err


def open_dispute(capsys: pytest.CaptureFixture[str], pack: Path, author: str = "ana") -> None:
    code, _, err = dispute(capsys, "open", str(pack), "--claim", CLAIM, "--reason",
                           "The spec sheet rev E says 1.0 L, not 0.8 L", "--evidence",
                           "sources/engineering-spec-sheet.md:10", "--author", author)
    assert code == 0, err


def listing(capsys: pytest.CaptureFixture[str], pack: Path) -> dict:  # type: ignore[type-arg]
    code, out, err = dispute(capsys, "list", str(pack), "--format", "json")
    assert code == 0, err
    return json.loads(out)  # type: ignore[no-any-return]


def claim_warnings(pack: Path) -> list[str]:
    result = resolve(ResolveRequest(task=TASK, packs=[load_pack(pack)]), ResolverSession())
    return [w.message for w in result.warnings if CLAIM in w.message]


def dispute_findings(pack: Path) -> list[tuple[str, str, str]]:
    return sorted((d.code, d.severity.value, d.file) for d in validate_pack(load_pack(pack), content=True)
                  if d.code.startswith("claim-"))


def test_a_thread_is_opened_discussed_and_listed_in_the_issue_shape(
        espresso: Path, capsys: pytest.CaptureFixture[str]) -> None:
    open_dispute(capsys, espresso)
    code, out, _ = dispute(capsys, "comment", str(espresso), "--claim", CLAIM, "--text", "Rev D said 0.8 L",
                           "--author", "bo")
    assert code == 0 and "Added a position" in out
    data = listing(capsys, espresso)
    [thread] = data["disputes"]
    assert (thread["claim"], thread["state"], thread["decision"], thread["decided"]) == (CLAIM, "open", None, None)
    assert [(p["author"], p["text"]) for p in thread["positions"]] == [
        ("ana", "The spec sheet rev E says 1.0 L, not 0.8 L"), ("bo", "Rev D said 0.8 L")]
    [evidence] = thread["positions"][0]["evidence"]
    assert evidence["path"] == "sources/engineering-spec-sheet.md" and evidence["line"] == 10
    assert "0.8 L" in evidence["excerpt"]  # the evidence reader's excerpt of that line
    assert set(thread["files"]) >= set(CARRIERS) and thread["opened"] == thread["positions"][0]["at"]


def test_while_open_every_carrying_file_enters_context_with_a_warning_naming_claim_and_thread(
        espresso: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert claim_warnings(espresso) == []
    open_dispute(capsys, espresso)
    warnings = claim_warnings(espresso)
    assert {w.split(" ", 1)[0] for w in warnings} == set(CARRIERS)
    assert all("disputed claim (nw-boiler-volumes)" in w and "runs/dispute-nw-boiler-volumes-" in w
               for w in warnings)
    assert dispute_findings(espresso)[0][:2] == ("claim-dispute-open", "warning")


def test_keep_ends_the_warning(espresso: Path, capsys: pytest.CaptureFixture[str]) -> None:
    open_dispute(capsys, espresso)
    code, _, err = dispute(capsys, "decide", str(espresso), "--claim", CLAIM, "--decision", "keep", "--reason",
                           "rev E was withdrawn")
    assert code == 0, err
    assert claim_warnings(espresso) == [] and dispute_findings(espresso) == []
    [thread] = listing(capsys, espresso)["disputes"]
    assert (thread["state"], thread["decision"]) == ("decided", "keep") and thread["decided"]


def test_amend_flags_the_files_with_the_old_text_until_recompiled(
        espresso: Path, capsys: pytest.CaptureFixture[str]) -> None:
    open_dispute(capsys, espresso)
    new = "The brew boiler holds 1.0 L and is made of 316L stainless steel."
    code, _, err = dispute(capsys, "decide", str(espresso), "--claim", CLAIM, "--decision", "amend", "--reason",
                           "rev E is current", "--text", new)
    assert code == 0, err
    assert listing(capsys, espresso)["disputes"][0]["new_text"] == new
    assert all("amended claim" in w and "old text" in w for w in claim_warnings(espresso))
    assert len(claim_warnings(espresso)) == 2
    findings = dispute_findings(espresso)
    assert {f[0] for f in findings} == {"claim-amended-not-recompiled"}
    assert set(CARRIERS) <= {f[2] for f in findings}
    source_map = espresso / "indexes/source-map.json"  # the recompile: the map now holds the new text
    source_map.write_text(source_map.read_text().replace(
        "The brew boiler holds 0.8 L and is made of 316L stainless steel.", new))
    assert claim_warnings(espresso) == [] and dispute_findings(espresso) == []


def test_retract_is_a_validate_error_per_carrying_file_until_recompiled(
        espresso: Path, capsys: pytest.CaptureFixture[str]) -> None:
    open_dispute(capsys, espresso)
    code, _, err = dispute(capsys, "decide", str(espresso), "--claim", CLAIM, "--decision", "retract", "--reason",
                           "unsourced")
    assert code == 0, err
    findings = dispute_findings(espresso)
    assert {(f[0], f[1]) for f in findings} == {("claim-retracted-still-compiled", "error")}
    assert set(CARRIERS) <= {f[2] for f in findings}
    assert main(["validate", str(espresso)]) == 1  # an error: validate fails
    assert len(claim_warnings(espresso)) == 2
    assert all("retracted claim" in w for w in claim_warnings(espresso))
    source_map = espresso / "indexes/source-map.json"  # the recompile: the claim left the map
    data = json.loads(source_map.read_text())
    data["claims"] = [c for c in data["claims"] if c["claim_id"] != CLAIM]
    source_map.write_text(json.dumps(data))
    assert claim_warnings(espresso) == [] and dispute_findings(espresso) == []


def test_unknown_claim_exits_2_naming_the_nearest_ids(espresso: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = dispute(capsys, "open", str(espresso), "--claim", "nw-boiler-volume", "--reason", "x")
    assert code == 2
    assert "unknown claim 'nw-boiler-volume'" in err and "nw-boiler-volumes" in err and "nothing written" in err
    assert not list((espresso / "runs").glob("dispute-*"))
    code, _, err = dispute(capsys, "list", str(espresso), "--claim", "nw-dual-boilr")
    assert code == 2 and "nw-dual-boiler" in err


@pytest.mark.parametrize(("args", "message"), [
    (["comment", "--text", "hi"], "has no dispute"),
    (["decide", "--decision", "keep", "--reason", "r"], "has no dispute"),
    (["decide", "--decision", "burn", "--reason", "r"], "retract"),  # the decisions there are, listed
    (["open", "--reason", "   "], "must not be empty"),
    (["open", "--reason", "x" * 20_001], "at most 20,000"),
    (["open", "--reason", "r", "--evidence", "../outside.md"], "outside the pack"),
    (["open", "--reason", "r", "--evidence", "sources/nope.md"], "does not exist"),
    (["open", "--reason", "r", "--evidence", "sources/engineering-spec-sheet.md:9999"], "out-of-range"),
])
def test_bad_steps_exit_2_and_write_nothing(espresso: Path, capsys: pytest.CaptureFixture[str],
                                           args: list[str], message: str) -> None:
    action, *rest = args
    code, _, err = dispute(capsys, action, str(espresso), "--claim", CLAIM, *rest)
    assert code == 2 and message in err, err
    assert not list((espresso / "runs").glob("dispute-*"))


def test_amend_needs_a_new_text_and_a_second_open_is_refused(
        espresso: Path, capsys: pytest.CaptureFixture[str]) -> None:
    open_dispute(capsys, espresso)
    code, _, err = dispute(capsys, "open", str(espresso), "--claim", CLAIM, "--reason", "again")
    assert code == 2 and "already has an open dispute" in err
    code, _, err = dispute(capsys, "decide", str(espresso), "--claim", CLAIM, "--decision", "amend", "--reason", "r")
    assert code == 2 and "new claim text" in err
    assert len(list((espresso / "runs").glob("dispute-*"))) == 1


def test_hostile_text_is_stored_as_given_and_printed_escaped(
        espresso: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hostile = "rev \x1b[2J\x1b]0;owned\x07 says \u202e1.0 L <b>bold</b>"
    code, _, err = dispute(capsys, "open", str(espresso), "--claim", CLAIM, "--reason", hostile,
                           "--author", "eve\x1b[31m")
    assert code == 0, err
    [record] = (espresso / "runs").glob("dispute-*")
    assert json.loads(record.read_text())["text"] == hostile
    code, out, _ = dispute(capsys, "list", str(espresso))
    assert "\x1b" not in out and "\u202e" not in out
    assert "\\x1b[2J" in out and "\\u202e1.0 L" in out and "eve\\x1b[31m" in out and "<b>bold</b>" in out


def test_built_in_packs_are_read_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pack = examples_dir() / "northwind-espresso"
    before = sorted(p.name for p in (pack / "runs").iterdir())
    code, _, err = dispute(capsys, "open", str(pack), "--claim", CLAIM, "--reason", "r")
    assert code == 2 and "built-in example pack" in err
    assert sorted(p.name for p in (pack / "runs").iterdir()) == before
    assert dispute(capsys, "list", str(pack))[0] == 0  # reading is fine


def test_a_full_disk_leaves_nothing_half_written(espresso: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    def full(fd: int, data: bytes) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", full)  # only while the command runs: undone below
    code, _, err = dispute(capsys, "open", str(espresso), "--claim", CLAIM, "--reason", "r")
    monkeypatch.undo()
    assert code == 2 and "no space is left on the device" in err and "nothing written" in err
    assert sorted(p.name for p in (espresso / "runs").iterdir()) == sorted(
        p.name for p in (examples_dir() / "northwind-espresso" / "runs").iterdir())  # no temporary file either


def test_a_read_only_runs_folder_is_an_honest_error(espresso: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    def read_only(*_args: object, **_kwargs: object) -> Path:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(atomic, "_write_in", read_only)
    code, _, err = dispute(capsys, "open", str(espresso), "--claim", CLAIM, "--reason", "r")
    assert code == 2 and "the file system is read-only" in err
    assert not list((espresso / "runs").glob("dispute-*"))


def test_runs_as_a_symlink_is_refused(espresso: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    elsewhere = tmp_path / "elsewhere"
    (espresso / "runs").rename(elsewhere)
    (espresso / "runs").symlink_to(elsewhere)
    code, _, err = dispute(capsys, "open", str(espresso), "--claim", CLAIM, "--reason", "r")
    assert code == 2
    assert not list(elsewhere.glob("dispute-*"))


def test_records_validate_and_show_in_runs(espresso: Path, capsys: pytest.CaptureFixture[str]) -> None:
    open_dispute(capsys, espresso)
    dispute(capsys, "decide", str(espresso), "--claim", CLAIM, "--decision", "amend", "--reason", "r", "--text", "n")
    for record in sorted((espresso / "runs").glob("dispute-*")):
        capsys.readouterr()
        assert main(["validate-run", str(record)]) == 0
        data = json.loads(capsys.readouterr().out)
        assert (data["kind"], data["validity"]) == ("dispute-record", "valid")
    capsys.readouterr()
    assert main(["runs", str(espresso)]) == 0
    out = capsys.readouterr().out
    assert "dispute on nw-boiler-volumes: opened by ana" in out and "decided amend" in out


def test_fence_before_and_after_a_decision_side_by_side(espresso: Path, capsys: pytest.CaptureFixture[str]) -> None:
    open_dispute(capsys, espresso)
    code, out, err = dispute(capsys, "decide", str(espresso), "--claim", CLAIM, "--decision", "keep", "--reason",
                             "fine", "--fence-task", TASK, "--dry-run")
    assert code == 0, err
    assert "dry run, nothing written" in out
    assert "warning gone:  compiled/facts.md carries a disputed claim (nw-boiler-volumes)" in out
    header = next(line for line in out.splitlines() if line.startswith("Before the decision"))
    assert header.rstrip().endswith("After the decision")
    assert len(list((espresso / "runs").glob("dispute-*"))) == 1  # only the open
    code, out, _ = dispute(capsys, "decide", str(espresso), "--claim", CLAIM, "--decision", "retract", "--reason",
                           "r", "--fence-task", TASK, "--dry-run", "--format", "json")
    fences = json.loads(out)["fences"]
    assert any("retracted claim (nw-boiler-volumes)" in w for w in fences["after"]["warnings"])
    assert any("disputed claim (nw-boiler-volumes)" in w for w in fences["before"]["warnings"])


def test_a_decide_record_without_its_decision_is_invalid(espresso: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = espresso / "runs" / "dispute-x.json"
    record.write_text(json.dumps({"record": "dispute", "step": "decide", "pack": "p", "claim": CLAIM,
                                  "author": "a", "text": "t", "timestamp": "2026-05-01T10:00:00Z"}))
    capsys.readouterr()
    assert main(["validate-run", str(record)]) != 0
    assert json.loads(capsys.readouterr().out)["validity"] == "invalid"
