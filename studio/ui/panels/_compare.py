"""Compare a pinned resolve with the current one: what entered, what left, and the token delta (Qt-free)."""

from __future__ import annotations

from dataclasses import dataclass, field

from studio.core.resolver import Decision, ResolveResult

ItemKey = tuple[str, str, str]
"""(pack, path, section or "") identifies one selectable item across runs."""


def item_key(decision: Decision) -> ItemKey:
    return (decision.pack, decision.path, decision.section or "")


def selected_items(result: ResolveResult) -> dict[ItemKey, Decision]:
    return {item_key(d): d for p in result.packs for d in p.selected}


@dataclass(slots=True)
class Comparison:
    """The current result measured against the pinned one."""

    entered: list[Decision] = field(default_factory=list)
    """Selected now, not selected when pinned (the current decision)."""
    left: list[Decision] = field(default_factory=list)
    """Selected when pinned, not selected now (the current decision when there is one, else the pinned)."""
    left_now: dict[ItemKey, Decision] = field(default_factory=dict)
    """For each item that left: what happened to it now (its skip reason), when the resolver still saw it."""
    kept: int = 0
    tokens_delta: int = 0
    """Current ``tokens_used`` minus the pinned one."""

    @property
    def unchanged(self) -> bool:
        return not self.entered and not self.left and self.tokens_delta == 0


def compare_results(pinned: ResolveResult, current: ResolveResult) -> Comparison:
    before = selected_items(pinned)
    after = selected_items(current)
    skipped_now = {item_key(d): d for p in current.packs for d in p.skipped}
    comparison = Comparison(tokens_delta=current.tokens_used - pinned.tokens_used)
    comparison.entered = [d for key, d in after.items() if key not in before]
    comparison.left = [d for key, d in before.items() if key not in after]
    comparison.left_now = {item_key(d): skipped_now[item_key(d)] for d in comparison.left
                           if item_key(d) in skipped_now}
    comparison.kept = sum(1 for key in after if key in before)
    return comparison
