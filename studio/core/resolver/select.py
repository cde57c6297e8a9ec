"""Greedy filling under a token budget that bounds the whole fenced output, then an exact check.

Costs per item are counted once (the item's marker line, its text and its ``<file>`` entry; see ``meter``),
and only for items that could still fit: an item whose lower bound is already over what is left is skipped
without being tokenized. Each pack's wrapper (opening tag, preamble, warnings, closing tag) is charged when its
first item goes in.
BPE counts are almost but not exactly additive across the joins, so after the greedy pass the fence is
rendered and counted for real; while it is over budget the last item added is taken out again. The
reported total is therefore always the tokenizer's count of the final text, and never above the budget.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from studio.core.render.fence import FenceItem, FencePack, FenceVariant, render_fence
from studio.core.resolver.candidates import Candidate
from studio.core.resolver.meter import Meter
from studio.core.resolver.plan import PackPlan
from studio.core.resolver.tiers import Placement


@dataclass(slots=True)
class Entry:
    """A placed, scored candidate on its way through the fill."""

    plan_index: int
    candidate: Candidate
    placement: Placement
    score: float
    meter: Meter
    index: int
    """The candidate's position in its pack's candidate list (and so in ``meter``)."""
    selected: bool = False
    skip_reason: str | None = None
    skip_detail: str = ""
    floor: int | None = None
    """The lower bound that ruled the item out when it was skipped without being counted."""

    @property
    def cost(self) -> int | None:
        """The exact cost, or None when it was never needed (then ``floor`` may say how much at least)."""
        return self.meter.known(self.index)

    @property
    def item(self) -> FenceItem:
        c = self.candidate
        return FenceItem(c.path, c.text, c.section, c.lines)


def fill_order(entries: Sequence[Entry]) -> list[Entry]:
    """Tier first, then relevance (higher first), then wrapper order, path and line: fully deterministic."""
    return sorted(entries, key=lambda e: (e.placement.tier if e.placement.tier is not None else 99, -e.score,
                                          e.plan_index, e.candidate.path, e.candidate.lines or (0, 0)))


DUPLICATE_SHARE = 0.75
"""An item is a duplicate when this share of its statements is carried by an item already chosen."""
STATEMENT_SHARE = 0.6
"""A statement (a line of an item) is carried by another item holding this share of its content words."""
MIN_STATEMENTS = 3
"""Items of fewer statements are never called duplicates: too little to tell."""


@dataclass(frozen=True, slots=True)
class ItemTerms:
    """An item's distinct content words, those of each of its statements (lines with 2+ content words), its roles."""

    words: frozenset[bytes]
    statements: tuple[frozenset[bytes], ...]
    roles: frozenset[str] = frozenset()
    """Only items of a common role (two boundaries views, two voice guides) are compared: a facts view sums up
    every split in other words, and would otherwise "carry" the very split that answers the task."""


def duplicate_of(item: ItemTerms, chosen: Sequence[tuple[Entry, ItemTerms]], plan_index: int,
                 ) -> tuple[Entry, float] | None:
    """The chosen item of the same pack and role that already carries most of ``item``'s statements, and the share.

    Statements rather than whole texts: a compiled boundaries view and a boundaries split restate the same rules
    in other words around them (the split adds the approved claims), so their word sets overlap by half while
    nearly every rule of the view is in the split.
    """
    if len(item.statements) < MIN_STATEMENTS:
        return None
    for other, other_terms in chosen:
        if other.plan_index != plan_index or not (item.roles & other_terms.roles):
            continue
        carried = sum(len(st & other_terms.words) >= STATEMENT_SHARE * len(st) for st in item.statements)
        share = carried / len(item.statements)
        if share >= DUPLICATE_SHARE:
            return other, share
    return None


def greedy_fill(ordered: Sequence[Entry], wrapper_costs: Sequence[int], budget: int, join_cost: int,
                terms_of: Callable[[Entry], ItemTerms] | None = None) -> list[Entry]:
    """Mark entries selected in order while the estimated total stays within ``budget``; returns the selected.

    Makes the same choices as a fill over exact costs: an item is counted unless its lower bound alone is
    over what is left, and then its exact cost would be over it too. With ``terms_of``, an item that carries
    the same content as one already chosen (``duplicate_of``; a split and a compiled view written from the same
    rules, say) is not loaded again: it is skipped as ``duplicate`` and its budget goes to the next item.
    The guide is never called a duplicate: it is the pack's own map, loaded first.
    """
    used = 0
    opened: set[int] = set()
    chosen: list[Entry] = []
    seen: list[tuple[Entry, ItemTerms]] = []
    for e in ordered:
        if terms_of is not None and e.candidate.layer != "guide":
            terms = terms_of(e)
            twin = duplicate_of(terms, seen, e.plan_index)
            if twin is not None:
                e.skip_reason = "duplicate"
                e.skip_detail = (f"{twin[1]:.0%} of its statements are in {twin[0].candidate.key}, which is loaded: "
                                 "the same content is loaded once.")
                continue
        extra = 0
        if e.plan_index not in opened:
            extra = wrapper_costs[e.plan_index] + (join_cost if opened else 0)
        left = budget - used - extra
        cost = e.cost
        if cost is None:
            floor = e.meter.at_least(e.index)
            if floor > left:
                e.floor = floor
                e.skip_reason = "over-budget"
                e.skip_detail = over_budget_detail(floor, extra, budget - used, budget, at_least=True)
                continue
            cost = e.meter.exact(e.index)
        if cost <= left:
            used += extra + cost
            opened.add(e.plan_index)
            e.selected = True
            chosen.append(e)
            if terms_of is not None and e.candidate.layer != "guide":
                seen.append((e, terms_of(e)))
        else:
            e.skip_reason = "over-budget"
            e.skip_detail = over_budget_detail(cost, extra, budget - used, budget)
    return chosen


def over_budget_detail(cost: int, extra: int, left: int, budget: int, *, at_least: bool = False) -> str:
    """Why an item did not fit: its cost (the item, plus its pack's wrapper when it would open it), what was left,
    and the shortfall, e.g. "Costs 214 tokens (110 for the item + 104 for the pack's wrapper ...); 200 of the
    budget of 200 were left: 14 short." ``at_least`` words a lower bound (the item was not tokenized)."""
    bound = "at least " if at_least else ""
    left = max(left, 0)
    short = cost + extra - left
    parts = (f" ({bound}{cost:,} for the item + {extra:,} for the pack's wrapper, which its first selected item "
             f"brings in)") if extra else ""
    text = (f"Costs {bound}{cost + extra:,} tokens{parts}; {left:,} of the budget of {budget:,} were left: "
            f"{bound}{short:,} short. Raise the budget or shorten the item.")
    return text + (" (Not tokenized: its word count alone rules it out.)" if at_least else "")


def render_selection(plans: Sequence[PackPlan], chosen: Sequence[Entry], fence_warnings: Callable[[int], list[str]],
                     variant: FenceVariant) -> str:
    """The fence for the chosen entries, in fill order within each pack; packs with nothing chosen are left out."""
    per_pack: dict[int, list[FenceItem]] = {}
    for e in chosen:
        per_pack.setdefault(e.plan_index, []).append(e.item)
    fps = [FencePack(plans[i].pack, per_pack[i], fence_warnings(i)) for i in range(len(plans)) if i in per_pack]
    return render_fence(fps, variant) if fps else ""


Measure = Callable[[Sequence[Entry]], tuple[str, int]]
"""Renders a selection's fence and counts it: (text, tokens)."""


def fence_measure(plans: Sequence[PackPlan], count: Callable[[str], int], fence_warnings: Callable[[int], list[str]],
                  variant: FenceVariant) -> Measure:
    """The real fence of a selection and the tokenizer's count of it (0 for an empty fence)."""
    def measure(chosen: Sequence[Entry]) -> tuple[str, int]:
        text = render_selection(plans, chosen, fence_warnings, variant)
        return text, (count(text) if text else 0)

    return measure


def fit_exactly(chosen: list[Entry], budget: int, measure: Measure) -> tuple[str, int]:
    """Render and count; drop the last-added entry until the real count fits. Returns (text, tokens)."""
    while True:
        text, tokens = measure(chosen)
        if tokens <= budget or not chosen:
            return text, tokens
        last = chosen.pop()
        last.selected = False
        last.skip_reason = "over-budget"
        last.skip_detail = (f"Fit the estimate but the rendered fence counted {tokens} tokens, over the budget of "
                            f"{budget}; removed to stay within it.")
