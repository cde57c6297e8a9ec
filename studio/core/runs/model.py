"""Run records as values: what kind a file under ``runs/`` is, whether it fits its shape, what it says."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

from studio.core.diagnostics import Diagnostic


class RunKind(StrEnum):
    """Record kinds the standard names (digest 7.1, 7.6), plus ``unknown``."""

    COMPILE_RUN = "compile-run"
    CONTEXT_RESOLUTION = "context-resolution"
    USAGE_RECORD = "usage-record"
    SOURCE_MAP = "source-map"
    SELECTION_EVAL = "selection-eval"
    EVAL_RESULT = "eval-result"
    DISCOVERY_EVAL_RESULT = "discovery-eval-result"
    """A discovery suite run (``runs/eval-discovery-*.json``): results with expected and actual decisions."""
    CONTEXT_EVAL_RESULT = "context-eval-result"
    """A context eval run (``runs/eval-*/answer-results.json``): results with required context and recall."""
    LINT_REPORT = "lint-report"
    HEALTH_REPORT = "health-report"
    REVIEW_RECORD = "review-record"
    FEEDBACK_RECORD = "feedback-record"
    """Studio's own: one file helped or harmed one task (``studio.core.feedback``)."""
    DISPUTE_RECORD = "dispute-record"
    """Studio's own: one step (open, comment, decide) of a dispute about one claim (``studio.core.disputes``)."""
    UNKNOWN = "unknown"

    @property
    def schema_name(self) -> str | None:
        """Name of the studio schema file for this kind, or None when the kind has no defined shape."""
        return self.value if self in _SCHEMA_KINDS else None


_SCHEMA_KINDS = frozenset({
    RunKind.COMPILE_RUN, RunKind.CONTEXT_RESOLUTION, RunKind.USAGE_RECORD, RunKind.SOURCE_MAP,
    RunKind.SELECTION_EVAL, RunKind.REVIEW_RECORD, RunKind.FEEDBACK_RECORD, RunKind.DISPUTE_RECORD,
    RunKind.DISCOVERY_EVAL_RESULT,
    RunKind.CONTEXT_EVAL_RESULT,
})


class Validity(StrEnum):
    """How a record compares with its shape. ``unvalidated`` is not a failure: the kind has no schema."""

    VALID = "valid"
    INVALID = "invalid"
    UNVALIDATED = "unvalidated"
    MALFORMED = "malformed"
    """The bytes are not JSON (or not UTF-8): nothing could be checked."""
    UNREADABLE = "unreadable"
    """Not read at all: a symlink out of the pack, too large, not a regular file, permission denied."""

    @property
    def is_problem(self) -> bool:
        return self in (Validity.INVALID, Validity.MALFORMED, Validity.UNREADABLE)


class TimeSource(StrEnum):
    """Where a record's time came from, best first."""

    FIELD = "field"
    NAME = "name"
    MTIME = "mtime"
    NONE = "none"


@dataclass(slots=True)
class RunRecord:
    """One file under ``runs/`` as the studio understood it."""

    path: str
    """Pack-relative POSIX path, e.g. ``runs/compile-2026-05-01T10-30-00Z.json``."""
    kind: RunKind
    validity: Validity
    timestamp: datetime | None = None
    """Aware UTC time of the run, or None when nothing gave one."""
    time_source: TimeSource = TimeSource.NONE
    status: str | None = None
    """The record's own ``status`` (compile/context/lint ``passed``, usage pack status ...)."""
    summary: str = ""
    """One line for lists and timelines."""
    data: Any = None
    """Parsed JSON, or for Markdown logs a dict of what was recognised (title, status, findings)."""
    diagnostics: list[Diagnostic] = field(default_factory=list)
    extra_fields: list[str] = field(default_factory=list)
    """JSON paths of keys the schema does not define (reported as info, still shown); the first 200."""
    extra_count: int = 0
    """How many keys the schema does not define."""
    size: int = 0

    @property
    def name(self) -> str:
        return Path(self.path).name

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "kind": self.kind.value,
            "validity": self.validity.value,
            "timestamp": self.timestamp.isoformat().replace("+00:00", "Z") if self.timestamp else None,
            "time_source": self.time_source.value,
            "status": self.status,
            "summary": self.summary,
            "extra_fields": list(self.extra_fields),
            "extra_count": self.extra_count,
            "diagnostics": [d.to_dict() for d in self.diagnostics],
        }


@dataclass(slots=True)
class RunsReport:
    """Everything read from one pack's ``runs/`` folder. Empty (not an error) when there is no folder."""

    records: list[RunRecord] = field(default_factory=list)
    """In time order (records without a time last, then by path)."""
    diagnostics: list[Diagnostic] = field(default_factory=list)
    """Folder-level findings (too many files, symlinked folders skipped) plus every record's findings."""

    def by_kind(self, *kinds: RunKind) -> list[RunRecord]:
        return [r for r in self.records if r.kind in kinds]

    def find(self, path: str) -> RunRecord | None:
        return next((r for r in self.records if r.path == path), None)
