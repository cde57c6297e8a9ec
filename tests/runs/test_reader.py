"""Reading runs/: kinds, validity, positions of findings, ordering, and robustness."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from runs_support import RUNS_DATA, VALID_COMPILE

from studio.core.diagnostics import Severity
from studio.core.pack import load_pack
from studio.core.runs import RunKind, Validity, read_runs

USAGE = {
    "pack": "demo", "version": "1.0.0", "status": "ready", "profile": "document-first",
    "runtime_mode": "data", "selected_files": ["compiled/facts.md"], "grounding": "required",
    "citation_gaps": ["price unknown"], "warnings": [], "timestamp": "2026-05-02T08:00:00Z",
}


def by_name(root: Path) -> dict[str, object]:
    return {Path(r.path).name: r for r in read_runs(root).records}


def test_real_standard_records_are_valid() -> None:
    for sample in ("real-v0.7.2", "real-v0.4.0"):
        report = read_runs(RUNS_DATA / sample)
        assert report.records, sample
        for record in report.records:
            assert record.validity is Validity.VALID, (record.path, [d.message for d in record.diagnostics])
    kinds = {r.kind for r in read_runs(RUNS_DATA / "real-v0.7.2").records}
    assert kinds == {RunKind.COMPILE_RUN, RunKind.CONTEXT_RESOLUTION}


def test_kind_comes_from_content_before_name(runs_pack) -> None:
    root = runs_pack({
        # A usage record named like a context record: the reference CLI would call it invalid.
        "runs/context-20260502T080000Z.json": USAGE,
        "runs/health-2026-05-03.json": {"ok": True, "status": "passed", "command": "health", "findings": []},
        "runs/eval-discovery-2026-05-04.json": {"suite": "evals/discovery.validation.json",
                                                 "results": [{"id": "a", "passed": True}]},
        "runs/notes.json": {"anything": 1},
    })
    records = by_name(root)
    assert records["context-20260502T080000Z.json"].kind is RunKind.USAGE_RECORD
    assert records["context-20260502T080000Z.json"].validity is Validity.VALID
    assert records["health-2026-05-03.json"].kind is RunKind.HEALTH_REPORT
    assert records["eval-discovery-2026-05-04.json"].kind is RunKind.EVAL_RESULT
    assert records["notes.json"].kind is RunKind.UNKNOWN
    for name in ("health-2026-05-03.json", "eval-discovery-2026-05-04.json", "notes.json"):
        assert records[name].validity is Validity.UNVALIDATED
        assert not any(d.severity is Severity.ERROR for d in records[name].diagnostics)


def test_invalid_record_names_the_field_and_its_line(runs_pack) -> None:
    bad = dict(VALID_COMPILE, status="exploded")
    root = runs_pack({"runs/compile-2026-05-01T10-30-00Z.json": bad})
    record = read_runs(root).records[0]
    assert record.validity is Validity.INVALID
    [diag] = [d for d in record.diagnostics if d.code == "run-schema-violation"]
    assert "/status" in diag.message and "exploded" in diag.message
    text = (root / record.path).read_text().splitlines()
    assert '"status"' in text[diag.line - 1]


def test_missing_required_field_is_invalid(runs_pack) -> None:
    bad = {k: v for k, v in VALID_COMPILE.items() if k != "outputs"}
    root = runs_pack({"runs/compile-2026-05-01T10-30-00Z.json": bad})
    record = read_runs(root).records[0]
    assert record.validity is Validity.INVALID
    assert any("outputs" in d.message for d in record.diagnostics)


def test_truncated_json_gives_line_and_column(runs_pack) -> None:
    full = json.dumps(VALID_COMPILE, indent=2)
    truncated = full[: full.index('"outputs"') + 12]
    root = runs_pack({"runs/compile-2026-05-01T10-30-00Z.json": truncated})
    record = read_runs(root).records[0]
    assert record.validity is Validity.MALFORMED
    [diag] = record.diagnostics
    assert diag.code == "run-malformed-json" and diag.severity is Severity.ERROR
    assert diag.line == truncated.count("\n") + 1
    assert diag.column > 1
    # The name still says what it was meant to be, and the timeline still places it.
    assert record.kind is RunKind.COMPILE_RUN
    assert record.timestamp is not None and record.timestamp.year == 2026


def test_extra_fields_are_info_and_still_shown(runs_pack) -> None:
    extra = dict(VALID_COMPILE, studio_note="hand-edited", outputs=[
        {"path": "compiled/facts.md", "operation": "updated", "reason": "new source"}])
    root = runs_pack({"runs/compile-2026-05-01T10-30-00Z.json": extra})
    record = read_runs(root).records[0]
    assert record.validity is Validity.VALID
    assert sorted(record.extra_fields) == ["/outputs/0/reason", "/studio_note"]
    assert {d.severity for d in record.diagnostics} == {Severity.INFO}
    assert record.data["studio_note"] == "hand-edited"


def test_timeline_orders_by_field_then_name_then_mtime(runs_pack) -> None:
    root = runs_pack({
        "runs/compile-20260507T100000Z.json": dict(VALID_COMPILE, run_id="build-seven"),
        "runs/context-2026-05-01T10-45-00Z.json": {"not": "a context record"},
        "runs/usage.json": USAGE,  # timestamp field 2026-05-02
        "runs/lint-2026-05-03.md": "# Lint report: 2026-05-03\n\nStatus: needs-review\n\n## Findings\n\n"
                                   "- warning: stale split\n- info: fine\n",
        "runs/eval-1/discovery-results.json": {"results": []},
    })
    os.utime(root / "runs/eval-1/discovery-results.json", (1_000_000_000, 1_000_000_000))  # 2001
    order = [r.path for r in read_runs(root).records]
    assert order == [
        "runs/eval-1/discovery-results.json",
        "runs/context-2026-05-01T10-45-00Z.json",
        "runs/usage.json",
        "runs/lint-2026-05-03.md",
        "runs/compile-20260507T100000Z.json",
    ]
    lint = by_name(root)["lint-2026-05-03.md"]
    assert lint.kind is RunKind.LINT_REPORT and lint.status == "needs-review"
    assert [f["severity"] for f in lint.data["findings"]] == ["warning", "info"]


def test_symlink_out_of_pack_is_not_read(runs_pack, tmp_path: Path) -> None:
    secret = tmp_path / "secret.json"
    secret.write_text('{"password": "hunter2"}')
    root = runs_pack({"runs/compile-2026-05-01T10-30-00Z.json": VALID_COMPILE})
    (root / "runs" / "leak.json").symlink_to(secret)
    outside_dir = tmp_path / "elsewhere"
    outside_dir.mkdir()
    (outside_dir / "x.json").write_text("{}")
    (root / "runs" / "linked").symlink_to(outside_dir, target_is_directory=True)
    report = read_runs(root)
    leak = report.find("runs/leak.json")
    assert leak is not None and leak.validity is Validity.UNREADABLE and leak.data is None
    assert report.find("runs/linked/x.json") is None
    assert any(d.code == "run-symlink-skipped" for d in report.diagnostics)
    assert "hunter2" not in json.dumps([r.to_dict() for r in report.records])


def test_bad_runs_never_stop_the_pack_loading(runs_pack) -> None:
    root = runs_pack({"runs/compile-x.json": "{not json", "runs/context-y.json": b"\xff\xfe\x00"})
    pack = load_pack(root)
    assert pack.loads
    assert {r.validity for r in read_runs(root).records} == {Validity.MALFORMED}


def test_no_runs_folder_is_empty_not_an_error(tmp_path: Path) -> None:
    report = read_runs(tmp_path)
    assert report.records == [] and report.diagnostics == []


def test_oversized_record_is_reported_not_parsed(runs_pack, monkeypatch) -> None:
    from studio.core.runs import reader

    monkeypatch.setattr(reader, "MAX_RUN_BYTES", 100)
    root = runs_pack({"runs/compile-2026-05-01T10-30-00Z.json": VALID_COMPILE})
    [record] = read_runs(root).records
    assert record.validity is Validity.UNREADABLE
    assert record.diagnostics[0].code == "run-too-large"


def test_bundled_example_runs_are_readable(tmp_path: Path) -> None:
    examples = Path(__file__).resolve().parents[2] / "resources" / "examples"
    for pack in sorted(p for p in examples.glob("*") if (p / "runs").is_dir()):
        copy = tmp_path / pack.name
        shutil.copytree(pack, copy)
        for record in read_runs(copy).records:
            assert record.validity is not Validity.MALFORMED, record.path


def test_violation_in_second_array_item_points_at_that_item(runs_pack) -> None:
    record = dict(VALID_COMPILE, outputs=[
        {"path": "compiled/facts.md", "operation": "updated"},
        {"path": "compiled/briefing.md", "operation": "renamed"},
    ])
    root = runs_pack({"runs/compile-2026-05-01T10-30-00Z.json": record})
    [diag] = read_runs(root).records[0].diagnostics
    lines = (root / "runs/compile-2026-05-01T10-30-00Z.json").read_text().splitlines()
    assert lines[diag.line - 1].strip() == '"operation": "renamed"'
    assert lines[diag.line - 1][diag.column - 1:].startswith('"operation"')


def test_total_size_budget_lists_but_does_not_read_the_rest(runs_pack, monkeypatch) -> None:
    from studio.core.runs import reader

    monkeypatch.setattr(reader, "MAX_TOTAL_BYTES", 10)
    root = runs_pack({
        "runs/compile-2026-05-01T10-30-00Z.json": VALID_COMPILE,
        "runs/compile-2026-05-02T10-30-00Z.json": VALID_COMPILE,
    })
    records = read_runs(root).records
    assert [r.validity for r in records] == [Validity.VALID, Validity.UNREADABLE]
    assert records[1].diagnostics[0].code == "runs-too-large" and records[1].data is None
