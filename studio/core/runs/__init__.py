"""Run records under ``runs/``: read, classify, check against the studio's schemas, and summarise.

Public API: ``read_runs``, ``read_run_file``, ``compute_stats`` and the record types. Nothing here writes.
"""

from __future__ import annotations

from studio.core.runs.model import RunKind, RunRecord, RunsReport, TimeSource, Validity
from studio.core.runs.reader import parse_json_record, read_run_file, read_runs
from studio.core.runs.schemas import check_against_schema, load_schema
from studio.core.runs.stats import RunStats, compute_stats

__all__ = [
    "RunKind", "RunRecord", "RunsReport", "TimeSource", "Validity",
    "read_runs", "read_run_file", "parse_json_record", "check_against_schema", "load_schema",
    "RunStats", "compute_stats",
]
