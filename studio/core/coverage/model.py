"""Coverage as values: the tasks a pack is known to face, whether each is answered, and by which files."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from studio.core.jsonwrite import FieldsJson
from studio.core.resolver.budget import DEFAULT_BUDGET

TaskSource = Literal["eval", "run", "ontology"]


@dataclass(frozen=True, slots=True)
class CoverageOptions:
    """What a coverage report depends on besides the pack."""

    budget: int = DEFAULT_BUDGET
    suites: tuple[Path, ...] = ()
    """Suite files to read; empty: the pack's own ``evals/*.json`` (``evals.suites.pack_suites``)."""
    max_queries: int = 5000
    """Distinct recorded queries resolved per pack; the rest are counted in a note, never resolved (bounds time)."""


@dataclass(frozen=True, slots=True)
class CoverageTask(FieldsJson):
    """One task the pack is known to face."""

    id: str
    source: TaskSource
    text: str
    answered: bool
    by: tuple[str, ...]
    """Pack-relative paths of the files that answer it (empty for a gap)."""
    why: str
    """One sentence a curator can act on: what answered it, or what is missing."""
    origin: str = ""
    """The pack file the task came from (a suite, a run record, ``ontology/coverage.json``)."""
    count: int = 1
    """How many records asked it (recorded queries are merged by their normalised text)."""


@dataclass(frozen=True, slots=True)
class SkippedInput(FieldsJson):
    """A record, suite or row that was not used, and why (malformed input is listed, never fatal)."""

    path: str
    reason: str


@dataclass(slots=True)
class CoverageReport:
    """One pack's coverage: its tasks (gaps first when shown), files no task selects, and what was skipped."""

    pack: str
    root: str
    tasks: list[CoverageTask] = field(default_factory=list)
    never_selected: list[str] = field(default_factory=list)
    skipped: list[SkippedInput] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """Plain sentences about the report as a whole (e.g. "no suites and no recorded queries")."""

    @property
    def gaps(self) -> list[CoverageTask]:
        return [t for t in self.tasks if not t.answered]

    @property
    def answered_count(self) -> int:
        return sum(1 for t in self.tasks if t.answered)

    def summary(self) -> dict[str, int]:
        answered = self.answered_count
        return {"tasks": len(self.tasks), "answered": answered, "gaps": len(self.tasks) - answered}

    def to_json(self) -> dict[str, Any]:
        return {"pack": self.pack, "root": self.root, "tasks": [t.to_json() for t in self.tasks],
                "never_selected": list(self.never_selected), "summary": self.summary(),
                "skipped": [s.to_json() for s in self.skipped], "notes": list(self.notes)}
