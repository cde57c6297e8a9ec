"""Run records read strictly: duplicate keys and NaN are audit findings; extra keys are capped and summarised."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest


def test_run_record_with_duplicate_decision_is_flagged(tmp_path: Path) -> None:
    from studio.core.runs import read_run_file

    runs = tmp_path / "runs"
    runs.mkdir()
    record = runs / "review-2026-05-01T10-00-00Z.json"
    record.write_text('{"decision": "approve", "reviewer": "a", "reason": "r", "timestamp": "2026-05-01T10:00:00Z",'
                      ' "decision": "reject", "score": NaN}')
    result = read_run_file(record, tmp_path)
    codes = [d.code for d in result.diagnostics]
    assert "json-duplicate-key" in codes and "json-non-finite-number" in codes
    assert all(d.behavior.value == "load" for d in result.diagnostics)  # audit-only: never blocks the pack


@pytest.mark.slow
def test_records_with_many_extra_keys_are_capped_and_summarised(tmp_path: Path) -> None:
    """Eight 4 MB records with extra keys took 150 s and 1.5 GB: one finding per key, each found by a rescan."""
    from runs_support import VALID_COMPILE

    from studio.core.runs import read_runs
    from studio.core.runs.schemas import MAX_EXTRA_FINDINGS

    runs = tmp_path / "runs"
    runs.mkdir()
    extra = {f"x{i:06d}": i for i in range(150_000)}  # under the 4 MiB a record may have
    for n in range(8):
        (runs / f"compile-2026-05-0{n + 1}T10-00-00Z.json").write_text(json.dumps({**VALID_COMPILE, **extra},
                                                                                   indent=1))
    started = time.perf_counter()
    report = read_runs(tmp_path)
    elapsed = time.perf_counter() - started
    assert len(report.records) == 8
    for record in report.records:
        extras = [d for d in record.diagnostics if d.code == "run-extra-field"]
        assert len(extras) == MAX_EXTRA_FINDINGS + 1
        assert "149,980 more keys" in extras[-1].message
        assert record.extra_count == 150_000 and len(record.extra_fields) <= 200
        assert all(d.line > 1 for d in extras)  # positioned on the keys
    assert elapsed < 120
