"""Record times outside years 1-9999 in UTC are findings on the record, never exceptions; audit files never block a
pack (issue #12, cause 3)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from studio.cli import main
from studio.core.runs import read_run_file, read_runs
from studio.core.runs.timestamps import TIME_FIELDS, check_time_text, format_time

EDGES = ["0001-01-01T00:00:00+14:00", "0001-01-01T00:00:00+00:01", "9999-12-31T23:59:59-14:00",
         "9999-12-31T23:30:00-00:31", "0001-01-01", "9999-12-31T23:59:59Z", "0000-01-01T00:00:00Z"]
NAMES = ["compile-00010101T000000+1400.json", "context-99991231T235959-1400.json", "review-00010101T0000+0001.json"]


@pytest.mark.parametrize("where", ["field", "name", "run_id"])
def test_out_of_range_times_are_findings_in_runs_validate_run_and_evidence(
        runs_pack, capsys: pytest.CaptureFixture[str], where: str) -> None:
    record = {"decision": "approve", "reviewer": "a", "reason": "r"}
    name = "review-2026-05-01T10-00-00Z.json"
    if where == "field":
        record["timestamp"] = "0001-01-01T00:00:00+14:00"
    elif where == "run_id":
        record["run_id"] = "review-00010101T000000+1400"
    else:
        name = NAMES[0]
    root = runs_pack({f"runs/{name}": record})
    [found] = read_runs(root).records
    [finding] = [d for d in found.diagnostics if d.code == "run-time-out-of-range"]
    assert finding.behavior.value == "load"
    if where != "name":
        assert finding.line > 1  # on the field
    for argv in (["runs", str(root)], ["validate-run", str(root / "runs" / name)], ["evidence", str(root)],
                 ["runs", str(root), "--format", "json"]):
        assert main(argv) in (0, 1), argv
        out = capsys.readouterr().out
        assert "Traceback" not in out
    assert main(["validate", "--content", "--format", "json", str(root)]) in (0, 1)
    report = json.loads(capsys.readouterr().out)
    [pack] = report["packs"]  # the pack is validated, not skipped
    codes = {d["code"] for d in pack["diagnostics"]}
    assert "internal-error" not in codes and "run-time-out-of-range" in codes


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.one_of(st.sampled_from(EDGES), st.datetimes(timezones=st.timezones()).map(datetime.isoformat),
                      st.text(max_size=40)),
       field=st.sampled_from([*TIME_FIELDS, "run_id"]), name=st.sampled_from([*NAMES, "eval.json"]))
def test_any_time_anywhere_never_raises(text: str, field: str, name: str) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        runs = Path(tmp) / "runs"
        runs.mkdir()
        (runs / name).write_text(json.dumps({field: text, "status": "passed"}))
        [record] = read_runs(Path(tmp)).records
        assert record.timestamp is None or record.timestamp.tzinfo is not None
        assert format_time(record.timestamp)
        assert json.dumps(record.to_dict())
        read_run_file(runs / name, Path(tmp))


def test_checked_times_are_utc_or_problems() -> None:
    assert check_time_text("0001-01-01T00:00:00+14:00").reason.startswith("is outside")  # type: ignore[union-attr]
    assert check_time_text("0001-01-01T00:00:00-14:00") == datetime(1, 1, 1, 14, tzinfo=UTC)
    assert format_time(datetime(1, 1, 1, tzinfo=UTC)) == "0001-01-01 00:00:00Z"


def test_a_bug_while_reading_one_record_is_a_finding_on_it(runs_pack, monkeypatch: pytest.MonkeyPatch) -> None:
    """The audit boundary: a failure of the studio itself (simulated here) costs one record, never the pack."""
    from studio.core.runs import reader

    root = runs_pack({"runs/a.json": {"status": "passed"}, "runs/b.md": "# Log\n"})

    def broken(*_args: object) -> str:
        raise RuntimeError("simulated bug")

    monkeypatch.setattr(reader, "summarize", broken)
    records = {r.path: r for r in read_runs(root).records}
    assert [d.code for d in records["runs/a.json"].diagnostics] == ["run-read-failed"]
    assert "simulated bug" in records["runs/a.json"].diagnostics[0].message
