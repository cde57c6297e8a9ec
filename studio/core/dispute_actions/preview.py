"""What the agent sees for a task before and after a dispute decision: two fences from the same resolver.

"Before" is the pack as its records stand now; "after" adds the proposed step (not written: ``effect.preview``).
Each side gets a fresh resolver session, so no cache of one leaks into the other.
"""

from __future__ import annotations

from dataclasses import dataclass

from studio.core.disputes.effect import preview
from studio.core.disputes.model import DisputeStep
from studio.core.model import Pack
from studio.core.resolver import ResolveRequest, ResolverSession, resolve
from studio.core.resolver.budget import DEFAULT_BUDGET


@dataclass(frozen=True, slots=True)
class FencePair:
    """The fence (with its warnings) for one task, without and with a proposed step."""

    task: str
    before: str
    after: str
    before_warnings: tuple[str, ...]
    after_warnings: tuple[str, ...]

    def to_json(self) -> dict[str, object]:
        return {"task": self.task, "before": {"fence": self.before, "warnings": list(self.before_warnings)},
                "after": {"fence": self.after, "warnings": list(self.after_warnings)}}


def decision_fences(pack: Pack, task: str, step: DisputeStep, budget: int = DEFAULT_BUDGET) -> FencePair:
    """The fence for ``task`` as things stand, and as they would stand with ``step`` recorded."""
    request = ResolveRequest(task=task, packs=[pack], budget=budget)
    before = resolve(request, ResolverSession())
    with preview(step):
        after = resolve(request, ResolverSession())
    return FencePair(task, before.fenced_text, after.fenced_text, tuple(w.message for w in before.warnings),
                     tuple(w.message for w in after.warnings))


__all__ = ["FencePair", "decision_fences"]
