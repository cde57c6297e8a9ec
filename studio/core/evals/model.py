"""Eval suites, cases and outcomes as values: what a curator expects, and what the studio's simulation found."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from studio.core.diagnostics import Diagnostic
from studio.core.jsonwrite import FieldsJson
from studio.core.resolver.budget import DEFAULT_BUDGET

SuiteKind = Literal["discovery", "context"]
Expectation = Literal["select", "reject", "warn"]
EXPECTATIONS: tuple[str, ...] = ("select", "reject", "warn")


@dataclass(frozen=True, slots=True)
class DiscoveryCase:
    """One selection-eval case (digest 7.5): should a client activate the pack for ``prompt``?"""

    id: str
    prompt: str
    expected: Expectation
    reason: str = ""
    expected_warnings: tuple[str, ...] = ()
    line: int = 1
    """1-based line of the case in its suite file (for jumping to it)."""


@dataclass(frozen=True, slots=True)
class ContextCase:
    """One answer-quality case (digest 7.6): the context a good answer to ``prompt`` needs."""

    id: str
    prompt: str
    required_context: tuple[str, ...] = ()
    """Pack-relative paths, optionally ``path#section-slug`` for one section of a document."""
    expected_output: str = ""
    assertions: tuple[str, ...] = ()
    budget: int | None = None
    """A case's own budget (studio extension); the run's budget applies when None."""
    profile: str | None = None
    line: int = 1


@dataclass(slots=True)
class Suite:
    """A suite file as read: its valid cases, and positioned findings about everything else."""

    path: str
    """The suite file as given (pack-relative when inside the pack)."""
    kind: SuiteKind | None
    """None when the file could not be read or has neither ``cases`` nor ``evals``."""
    pack_name: str = ""
    discovery: list[DiscoveryCase] = field(default_factory=list)
    context: list[ContextCase] = field(default_factory=list)
    findings: list[Diagnostic] = field(default_factory=list)
    skipped_cases: int = 0
    """Cases left out because they are invalid (each has a finding)."""

    @property
    def cases(self) -> list[DiscoveryCase] | list[ContextCase]:
        return self.discovery if self.kind == "discovery" else self.context


@dataclass(frozen=True, slots=True)
class EvalConfig(FieldsJson):
    """A configuration to evaluate: the resolver's inputs that a curator varies between runs."""

    budget: int = DEFAULT_BUDGET
    profile: str | None = None
    encoding: str = "cl100k_base"
    ranking: str = "bm25f"
    """``bm25f``, ``bm25`` (see ``studio.core.resolver.rank``) or ``reference`` (the reference CLI's choices)."""
    threshold: float | None = None
    """Discovery: the activation threshold (None: ``discovery.DEFAULT_THRESHOLD``)."""

    def label(self) -> str:
        parts = [self.ranking, f"budget {self.budget}"]
        if self.profile:
            parts.append(self.profile)
        if self.threshold is not None:
            parts.append(f"threshold {self.threshold:g}")
        return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class DiscoveryOutcome:
    """What the simulated client did with one discovery case."""

    id: str
    prompt: str
    expected: str
    actual: str
    score: float
    reason: str
    warnings: tuple[str, ...] = ()
    """Warnings the activation carries (status, trust, disputed claims)."""
    warnings_matched: bool | None = None
    """For ``expected_warnings``: whether every expected warning was raised (None when none were expected)."""
    margin: float | None = None
    """Score minus the activation threshold (None for the reference CLI's decisions, which have no threshold)."""

    @property
    def passed(self) -> bool:
        return self.expected == self.actual

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "prompt": self.prompt, "expected": self.expected,
                               "actual": self.actual, "passed": self.passed, "score": round(self.score, 4),
                               "reason": self.reason}
        if self.warnings:
            out["warnings"] = list(self.warnings)
        if self.warnings_matched is not None:
            out["warnings_matched"] = self.warnings_matched
        if self.margin is not None:
            out["margin"] = round(self.margin, 4)
        return out


@dataclass(frozen=True, slots=True)
class SelectedItem:
    """One item the resolver selected for a context case."""

    path: str
    section: str | None
    tokens: int | None
    required: bool = False
    """Whether it satisfies an entry of the case's ``required_context``."""
    section_slug: str | None = None
    """The section's anchor, for matching ``path#slug`` entries."""

    @property
    def key(self) -> str:
        return f"{self.path}#{self.section_slug}" if self.section_slug is not None else self.path

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "section": self.section, "slug": self.section_slug, "tokens": self.tokens,
                "required": self.required}


@dataclass(frozen=True, slots=True)
class ContextOutcome:
    """What the resolver loaded for one answer-quality case, measured against ``required_context``."""

    id: str
    prompt: str
    selected: tuple[SelectedItem, ...]
    required_context: tuple[str, ...]
    missed: tuple[str, ...]
    """Required entries the selection does not cover."""
    context_recall: float | None
    """Share of ``required_context`` selected (None when the case names none)."""
    reciprocal_rank: float | None
    ndcg_at_10: float | None
    recall_at_5: float | None
    tokens_used: int
    budget: int
    ranking: tuple[str, ...] = ()
    """The items ranked for the task (item keys, best first), cut at ``RANKING_KEPT`` entries."""
    not_run: tuple[str, ...] = ()
    """Checks that need a model: ``expected_output`` and each assertion, listed as not run."""
    profile: str | None = None
    policy_loaded: tuple[str, ...] = ()
    """Selected items loaded by policy whatever the task (guide, boundaries): reported beside the ranking."""

    @property
    def passed(self) -> bool:
        """Every required entry was selected (a case without required context passes vacuously)."""
        return not self.missed

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "prompt": self.prompt, "selected": [s.to_json() for s in self.selected],
            "required_context": list(self.required_context), "missed": list(self.missed),
            "passed": self.passed, "context_recall": _round(self.context_recall),
            "reciprocal_rank": _round(self.reciprocal_rank), "ndcg_at_10": _round(self.ndcg_at_10),
            "recall_at_5": _round(self.recall_at_5), "tokens_used": self.tokens_used, "budget": self.budget,
            "profile": self.profile, "ranking": list(self.ranking), "policy_loaded": list(self.policy_loaded),
            "not_run": [{"check": c, "status": "not run (needs a model)"} for c in self.not_run],
        }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


@dataclass(slots=True)
class EvalRun:
    """The outcomes of one suite under one configuration: what ``pack-studio eval`` prints and records."""

    pack: str
    suite: str
    kind: SuiteKind
    config: EvalConfig
    discovery: list[DiscoveryOutcome] = field(default_factory=list)
    context: list[ContextOutcome] = field(default_factory=list)
    findings: list[Diagnostic] = field(default_factory=list)
    timestamp: str = ""
    """ISO 8601 UTC time of the run."""
    source: str = ""
    """Where the outcomes came from: empty for a fresh run, a ``runs/`` path for a recorded one."""
    notes: list[str] = field(default_factory=list)
    """How a client would treat the evaluated copy differently (shadowed, not loadable), in plain sentences."""

    @property
    def outcomes(self) -> list[DiscoveryOutcome] | list[ContextOutcome]:
        return self.discovery if self.kind == "discovery" else self.context

    def passed_ids(self) -> set[str]:
        return {o.id for o in self.outcomes if o.passed}
