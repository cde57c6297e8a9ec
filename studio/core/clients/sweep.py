"""The budget sweep: resolve one task at every budget of a range, and say at which budget each file first gets in.

Nobody can see from one resolve at which budget the right file would have been loaded; the sweep shows it.
Every point is the studio's resolve at that budget (one session, frozen: the pack is walked once). When a pack's
``evals/answer-quality.json`` has a case whose prompt is the task, each point also gives the recall of that case's
``required_context`` (the share of required entries the selection satisfies, as the context evals count it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from studio.core.evals.metrics import requirement_matcher, satisfied_by
from studio.core.evals.suites import read_suite
from studio.core.model import Pack
from studio.core.resolver import ResolveRequest, ResolverSession
from studio.core.resolver.budget import MAX_BUDGET
from studio.core.resolver.sections import slugify

MAX_POINTS = 400
ANSWER_SUITE = "evals/answer-quality.json"


@dataclass(frozen=True, slots=True)
class SweepPoint:
    budget: int
    selected: tuple[str, ...]
    tokens: int
    recall: float | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"budget": self.budget, "selected": list(self.selected), "tokens": self.tokens}
        if self.recall is not None:
            out["recall"] = round(self.recall, 4)
        return out


@dataclass(slots=True)
class Sweep:
    task: str
    points: list[SweepPoint] = field(default_factory=list)
    first_budget: dict[str, int] = field(default_factory=dict)
    """Path -> the smallest swept budget at which it is selected."""
    required: list[str] | None = None
    """The answer-quality case's required_context, when a case's prompt is the task."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"task": self.task, "sweep": [p.to_json() for p in self.points],
                               "first_budget": dict(self.first_budget)}
        if self.required is not None:
            out["required_context"] = list(self.required)
        return out


def parse_range(text: str) -> tuple[int, int, int] | str:
    """``MIN:MAX:STEP`` as integers, or why not (a sentence for the user)."""
    parts = text.split(":")
    if len(parts) != 3 or not all(p.strip().isdigit() for p in parts):
        return "the sweep must be MIN:MAX:STEP with whole numbers, e.g. 500:6000:250"
    low, high, step = (int(p) for p in parts)
    if step <= 0:
        return "the sweep's STEP must be more than 0"
    if low > high:
        return "the sweep's MIN must not be above its MAX"
    if high > MAX_BUDGET:
        return f"the sweep's MAX must be at most {MAX_BUDGET:,} tokens"
    if (high - low) // step + 1 > MAX_POINTS:
        return f"the sweep has more than {MAX_POINTS} budgets; use a larger STEP"
    return low, high, step


def required_context(packs: list[Pack], task: str) -> list[str] | None:
    """The required_context of the first answer-quality case whose prompt is ``task`` (case and spaces aside)."""
    wanted = " ".join(task.split()).casefold()
    for pack in packs:
        if pack.knowledge is None or not (pack.root / ANSWER_SUITE).is_file():
            continue
        for case in read_suite(pack.root / ANSWER_SUITE, pack).context:
            if " ".join(case.prompt.split()).casefold() == wanted and case.required_context:
                return list(case.required_context)
    return None


def sweep(packs: list[Pack], task: str, budgets: range, encoding: str = "cl100k_base",
          session: ResolverSession | None = None) -> Sweep:
    """Resolve ``task`` at every budget in ``budgets`` (at most ``MAX_POINTS``)."""
    session = session or ResolverSession()
    out = Sweep(task, required=required_context(packs, task))
    matcher = requirement_matcher(out.required) if out.required else None
    with session.frozen():
        for budget in list(budgets)[:MAX_POINTS]:
            result = session.resolve(ResolveRequest(task, packs, budget=budget, encoding=encoding))
            several = len(result.packs) > 1
            selected = []
            met: set[str] = set()
            for res in result.packs:
                for d in res.selected:
                    selected.append(f"{res.name}/{d.path}" if several else d.path)
                    if matcher is not None:
                        hit = satisfied_by(d.path, slugify(d.section) if d.section else None, matcher)
                        if hit is not None:
                            met.add(hit)
            paths = tuple(dict.fromkeys(selected))
            recall = len(met) / len(matcher) if matcher else None
            out.points.append(SweepPoint(budget, paths, result.tokens_used, recall))
            for path in paths:
                out.first_budget.setdefault(path, budget)
    return out
