"""What a pack diff found, as values: one dataclass per section of the report, and the report itself.

Every path is pack-relative (POSIX); every text is the pack's own, unescaped (the renderers escape it for a
terminal or for Markdown). ``to_json`` gives the shape issue #30 documents, with a few extra fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from studio.core.jsonwrite import FieldsJson

Item = TypeVar("Item")
Change = TypeVar("Change")


@dataclass(frozen=True, slots=True)
class FrontmatterChange(FieldsJson):
    """One frontmatter key (dotted for nested mappings) added, removed or changed; a missing side is None."""

    key: str
    before: Any
    after: Any


@dataclass(frozen=True, slots=True)
class FileChange(FieldsJson):
    """A file present in both versions whose content differs; tokens are None for binary or huge files."""

    path: str
    tokens_before: int | None
    tokens_after: int | None
    kind: str = "text"
    """``text``, ``binary``, ``symlink`` (its target changed) or ``too-large`` (compared by size only)."""


@dataclass(frozen=True, slots=True)
class FileRename:
    """A removed file whose content reappears under a new path (``similarity`` 1.0 when identical)."""

    before: str
    after: str
    similarity: float
    tokens_before: int | None
    tokens_after: int | None

    def to_json(self) -> dict[str, Any]:
        return {"from": self.before, "to": self.after, "similarity": round(self.similarity, 3),
                "tokens_before": self.tokens_before, "tokens_after": self.tokens_after}


@dataclass(slots=True)
class SetChanges(FieldsJson, Generic[Item, Change]):
    """A section that pairs the items of two versions by key (a path, a claim id): the keys only one side has, and
    the paired items that differ. The files and claims sections; each adds what it finds on top."""

    added: list[Item] = field(default_factory=list)
    """Only in the new version."""
    removed: list[Item] = field(default_factory=list)
    """Only in the old version."""
    changed: list[Change] = field(default_factory=list)
    """In both, different."""

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.changed)


@dataclass(slots=True)
class FilesDiff(SetChanges[str, FileChange]):
    renamed: list[FileRename] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.changed or self.renamed)


@dataclass(frozen=True, slots=True)
class ClaimChange(FieldsJson):
    """A claim in both source maps whose fields differ (``fields`` names them: ``text``, ``status`` ...)."""

    id: str
    fields: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class StatusChange(FieldsJson):
    id: str
    before: str
    after: str


@dataclass(slots=True)
class ClaimsDiff(SetChanges[str, ClaimChange]):
    status_changes: list[StatusChange] = field(default_factory=list)
    """The claims among ``changed`` whose status changed, with both statuses (what a dispute reviewer asks)."""


@dataclass(frozen=True, slots=True)
class Finding(FieldsJson):
    """A validation finding, without the parts that move when unrelated lines move (matched on code, file and
    message; ``line`` is where it is in the version that has it)."""

    code: str
    severity: str
    file: str
    line: int
    message: str


@dataclass(slots=True)
class FindingsDiff(FieldsJson):
    added: list[Finding] = field(default_factory=list)
    """New in the new version."""
    removed: list[Finding] = field(default_factory=list)
    """Resolved: the old version had them, the new one does not."""

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed)


TIERS = ("catalog", "guide", "fence")


@dataclass(frozen=True, slots=True)
class TierDiff:
    """One tier's text (catalog entry, activation guide, runtime fence) before and after."""

    tier: str
    tokens_before: int | None
    tokens_after: int | None
    text_diff: tuple[str, ...]
    """Unified diff lines (no trailing newlines), empty when the texts are equal."""
    truncated: bool = False
    """The diff was cut at ``tiers.MAX_DIFF_LINES`` lines (or the texts were too large to compare by line)."""

    @property
    def changed(self) -> bool:
        return bool(self.text_diff) or self.truncated

    def to_json(self) -> dict[str, Any]:
        return {"tokens_before": self.tokens_before, "tokens_after": self.tokens_after,
                "changed": self.changed, "text_diff": list(self.text_diff), "truncated": self.truncated}


@dataclass(frozen=True, slots=True)
class ReasonChange(FieldsJson):
    """An item whose resolver decision changed: its reason code before and after (None: not a candidate)."""

    item: str
    before: str | None
    after: str | None


@dataclass(frozen=True, slots=True)
class ResolverDelta:
    """What the resolver picks for one task at one budget, before and after."""

    task: str
    budget: int
    picked_before: tuple[str, ...]
    picked_after: tuple[str, ...]
    added: tuple[str, ...]
    removed: tuple[str, ...]
    reasons: tuple[ReasonChange, ...]
    tokens_before: int
    tokens_after: int
    source: str = "--task"
    """Where the task came from: ``--task`` or the suite file whose case prompt it is."""

    @property
    def changed(self) -> bool:
        return bool(self.added or self.removed or self.reasons)

    def to_json(self) -> dict[str, Any]:
        return {"task": self.task, "budget": self.budget, "source": self.source, "added": list(self.added),
                "removed": list(self.removed), "picked_before": list(self.picked_before),
                "picked_after": list(self.picked_after), "reasons": [r.to_json() for r in self.reasons],
                "tokens_before": self.tokens_before, "tokens_after": self.tokens_after}


@dataclass(frozen=True, slots=True)
class CaseChange:
    """An eval case whose outcome changed (``regressed``, ``improved``, ``changed``, ``added``, ``removed``)."""

    suite: str
    id: str
    change: str
    passed_before: bool | None
    passed_after: bool | None
    recall_before: float | None = None
    recall_after: float | None = None
    rr_before: float | None = None
    rr_after: float | None = None
    actual_before: str | None = None
    """Discovery cases: what the simulated client did (``select``, ``reject``, ``warn``)."""
    actual_after: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"suite": self.suite, "id": self.id, "change": self.change, "passed_before": self.passed_before,
                "passed_after": self.passed_after, "recall_before": _round(self.recall_before),
                "recall_after": _round(self.recall_after), "rr_before": _round(self.rr_before),
                "rr_after": _round(self.rr_after), "actual_before": self.actual_before,
                "actual_after": self.actual_after}


@dataclass(frozen=True, slots=True)
class SuiteSummary:
    """A suite's headline measures before and after (None where a version lacks the suite or the measure)."""

    suite: str
    kind: str
    passed_before: int | None
    passed_after: int | None
    total_before: int | None
    total_after: int | None
    recall_before: float | None = None
    recall_after: float | None = None
    mrr_before: float | None = None
    mrr_after: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {"suite": self.suite, "kind": self.kind, "passed_before": self.passed_before,
                "passed_after": self.passed_after, "total_before": self.total_before,
                "total_after": self.total_after, "recall_before": _round(self.recall_before),
                "recall_after": _round(self.recall_after), "mrr_before": _round(self.mrr_before),
                "mrr_after": _round(self.mrr_after)}


@dataclass(slots=True)
class EvalsDiff:
    cases: list[CaseChange] = field(default_factory=list)
    suites: list[SuiteSummary] = field(default_factory=list)

    @property
    def regressed(self) -> list[str]:
        return [c.id for c in self.cases if c.change == "regressed"]

    @property
    def improved(self) -> list[str]:
        return [c.id for c in self.cases if c.change == "improved"]

    @property
    def empty(self) -> bool:
        return not self.cases

    def to_json(self) -> dict[str, Any]:
        return {"regressed": self.regressed, "improved": self.improved, "cases": [c.to_json() for c in self.cases],
                "suites": [s.to_json() for s in self.suites]}


@dataclass(slots=True)
class PackDiff:
    """The whole report for one pack: what changed between two versions and what that changes for an agent."""

    old: str
    """Label of the old version (a folder, or ``REF (abc1234)``)."""
    new: str
    pack: str
    """The pack's name (the new version's)."""
    frontmatter: list[FrontmatterChange] = field(default_factory=list)
    files: FilesDiff = field(default_factory=FilesDiff)
    claims: ClaimsDiff = field(default_factory=ClaimsDiff)
    findings: FindingsDiff = field(default_factory=FindingsDiff)
    tiers: dict[str, TierDiff] = field(default_factory=dict)
    resolver: list[ResolverDelta] = field(default_factory=list)
    """One entry per task, changed or not (a reviewer wants to see that a task still picks the same)."""
    evals: EvalsDiff = field(default_factory=EvalsDiff)
    notes: list[str] = field(default_factory=list)
    """What was left out of the comparison and why (submodules, huge files, undecodable names ...)."""

    @property
    def identical(self) -> bool:
        return not (self.frontmatter or not self.files.empty or not self.claims.empty or not self.findings.empty
                    or any(t.changed for t in self.tiers.values()) or any(r.changed for r in self.resolver)
                    or not self.evals.empty)

    def to_json(self) -> dict[str, Any]:
        return {
            "old": self.old, "new": self.new, "pack": self.pack, "identical": self.identical,
            "frontmatter": [c.to_json() for c in self.frontmatter],
            "files": self.files.to_json(), "claims": self.claims.to_json(), "findings": self.findings.to_json(),
            "tiers": {name: t.to_json() for name, t in self.tiers.items()},
            "resolver": [r.to_json() for r in self.resolver], "evals": self.evals.to_json(),
            "notes": list(self.notes),
        }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)
