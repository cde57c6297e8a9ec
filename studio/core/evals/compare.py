"""Compare two eval runs of the same suite, case by case: what got better, what got worse (a pure function).

The runs may differ in anything (budget, profile, ranking variant, pack content) and either may come from a
record (``records.run_from_record``). Cases are matched by id; a case only one run has is ``added`` or
``removed``. A context case counts as improved when it passes and did not, else when its recall, then its
reciprocal rank, then its nDCG@10 went up (and the reverse for regressed).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from studio.core.evals.model import ContextOutcome, DiscoveryOutcome, EvalRun
from studio.core.evals.records import summary_of

Outcome = DiscoveryOutcome | ContextOutcome
EPSILON = 1e-4
"""Records keep four decimals; smaller differences are rounding, not change."""
CHANGES = ("improved", "regressed", "changed", "unchanged", "added", "removed")


@dataclass(frozen=True, slots=True)
class CaseDelta:
    """One case under configuration A and B."""

    id: str
    prompt: str
    a: Outcome | None
    b: Outcome | None
    change: str
    """``improved``, ``regressed``, ``changed`` (different picks, same measures), ``unchanged``, ``added``,
    ``removed``."""
    entered: tuple[str, ...] = ()
    """Context cases: items B selected that A did not."""
    left: tuple[str, ...] = ()
    """Context cases: items A selected that B did not."""

    def delta(self, name: str) -> float | None:
        """B minus A for a numeric measure (``score``, ``context_recall``, ``reciprocal_rank`` ...)."""
        va, vb = getattr(self.a, name, None), getattr(self.b, name, None)
        if isinstance(va, int | float) and isinstance(vb, int | float):
            return float(vb) - float(va)
        return None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "prompt": self.prompt, "change": self.change,
                               "passed_a": None if self.a is None else self.a.passed,
                               "passed_b": None if self.b is None else self.b.passed}
        for name in ("score", "context_recall", "reciprocal_rank", "ndcg_at_10", "tokens_used"):
            d = self.delta(name)
            if d is not None:
                out[f"{name}_delta"] = round(d, 4)
        if isinstance(self.a, DiscoveryOutcome) or isinstance(self.b, DiscoveryOutcome):
            out["actual_a"] = getattr(self.a, "actual", None)
            out["actual_b"] = getattr(self.b, "actual", None)
        if self.entered or self.left:
            out["entered"], out["left"] = list(self.entered), list(self.left)
        return out


@dataclass(slots=True)
class Comparison:
    label_a: str
    label_b: str
    kind: str
    cases: list[CaseDelta] = field(default_factory=list)
    summary_a: dict[str, Any] = field(default_factory=dict)
    summary_b: dict[str, Any] = field(default_factory=dict)

    def counts(self) -> dict[str, int]:
        out = dict.fromkeys(CHANGES, 0)
        for case in self.cases:
            out[case.change] += 1
        return out

    def summary_delta(self) -> dict[str, float]:
        """B minus A for every numeric summary value both runs have."""
        out = {}
        for key, va in self.summary_a.items():
            vb = self.summary_b.get(key)
            if isinstance(va, int | float) and isinstance(vb, int | float) and not isinstance(va, bool):
                out[key] = round(float(vb) - float(va), 4)
        return out

    def to_json(self) -> dict[str, Any]:
        return {"a": self.label_a, "b": self.label_b, "kind": self.kind, "counts": self.counts(),
                "summary_a": self.summary_a, "summary_b": self.summary_b, "summary_delta": self.summary_delta(),
                "cases": [c.to_json() for c in self.cases]}


def compare_runs(a: EvalRun, b: EvalRun, label_a: str = "A", label_b: str = "B") -> Comparison:
    """Per-case deltas from ``a`` to ``b``, in ``b``'s case order, then cases only ``a`` has."""
    comparison = Comparison(label_a, label_b, b.kind, summary_a=summary_of(a), summary_b=summary_of(b))
    before: dict[str, Outcome] = {o.id: o for o in a.outcomes}
    seen = set()
    for ob in b.outcomes:
        seen.add(ob.id)
        comparison.cases.append(_delta(before.get(ob.id), ob))
    comparison.cases.extend(_delta(oa, None) for oa in a.outcomes if oa.id not in seen)
    return comparison


def _delta(a: Outcome | None, b: Outcome | None) -> CaseDelta:
    some = b if b is not None else a
    assert some is not None
    if a is None or b is None:
        return CaseDelta(some.id, some.prompt, a, b, "added" if a is None else "removed")
    entered: tuple[str, ...] = ()
    left: tuple[str, ...] = ()
    if isinstance(a, ContextOutcome) and isinstance(b, ContextOutcome):
        keys_a = [s.key for s in a.selected]
        keys_b = [s.key for s in b.selected]
        entered = tuple(k for k in keys_b if k not in keys_a)
        left = tuple(k for k in keys_a if k not in keys_b)
    return CaseDelta(b.id, b.prompt, a, b, _change(a, b, bool(entered or left)), entered, left)


def _change(a: Outcome, b: Outcome, picks_differ: bool) -> str:
    if a.passed != b.passed:
        return "improved" if b.passed else "regressed"
    if isinstance(a, ContextOutcome) and isinstance(b, ContextOutcome):
        for name in ("context_recall", "reciprocal_rank", "ndcg_at_10"):
            va, vb = getattr(a, name), getattr(b, name)
            if va is not None and vb is not None and abs(vb - va) > EPSILON:
                return "improved" if vb > va else "regressed"
        return "changed" if picks_differ else "unchanged"
    if isinstance(a, DiscoveryOutcome) and isinstance(b, DiscoveryOutcome) and a.actual != b.actual:
        return "changed"  # e.g. warn -> select on a case that fails either way
    return "unchanged"
