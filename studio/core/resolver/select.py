"""Greedy filling under a token budget that bounds the whole fenced output, then an exact check.

Costs per item are counted once (the item's marker line, its neutralised text and its ``<file>`` entry) and
each pack's wrapper (opening tag, preamble, warnings, closing tag) is charged when its first item goes in.
BPE counts are almost but not exactly additive across the joins, so after the greedy pass the fence is
rendered and counted for real; while it is over budget the last item added is taken out again. The
reported total is therefore always the tokenizer's count of the final text, and never above the budget.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from studio.core.render.escape import xml_attr, xml_text
from studio.core.render.fence import FenceItem, FencePack, FenceVariant, marker_line, render_fence
from studio.core.resolver.candidates import Candidate
from studio.core.resolver.plan import PackPlan
from studio.core.resolver.tiers import Placement


@dataclass(slots=True)
class Entry:
    """A placed, scored candidate on its way through the fill."""

    plan_index: int
    candidate: Candidate
    placement: Placement
    score: float
    cost: int
    selected: bool = False
    skip_reason: str | None = None
    skip_detail: str = ""

    @property
    def item(self) -> FenceItem:
        c = self.candidate
        return FenceItem(c.path, c.text, c.section, c.lines)


def framing_text(c: Candidate) -> str:
    """What the fence renderer adds around an item's text: its marker line, blank lines, its ``<file>`` entry.

    An item's estimated cost is ``count(text) + count(framing_text)``: the text is counted raw (its count is
    shared with every other use of the same text) and neutralisation rarely changes it; ``fit_exactly``
    settles any difference on the final text.
    """
    item = FenceItem(c.path, "", c.section, c.lines)
    attrs = f' section="{xml_attr(c.section)}"' if c.section else ""
    if c.lines:
        attrs += f' lines="{c.lines[0]}-{c.lines[1]}"'
    return f"{marker_line(item)}\n\n\n  <file{attrs}>{xml_text(c.path)}</file>\n"


def fill_order(entries: Sequence[Entry]) -> list[Entry]:
    """Tier first, then relevance (higher first), then wrapper order, path and line: fully deterministic."""
    return sorted(entries, key=lambda e: (e.placement.tier if e.placement.tier is not None else 99, -e.score,
                                          e.plan_index, e.candidate.path, e.candidate.lines or (0, 0)))


def greedy_fill(ordered: Sequence[Entry], wrapper_costs: Sequence[int], budget: int, join_cost: int) -> list[Entry]:
    """Mark entries selected in order while the estimated total stays within ``budget``; returns the selected."""
    used = 0
    opened: set[int] = set()
    chosen: list[Entry] = []
    for e in ordered:
        extra = 0
        if e.plan_index not in opened:
            extra = wrapper_costs[e.plan_index] + (join_cost if opened else 0)
        if used + extra + e.cost <= budget:
            used += extra + e.cost
            opened.add(e.plan_index)
            e.selected = True
            chosen.append(e)
        else:
            e.skip_reason = "over-budget"
            e.skip_detail = (f"Needs {e.cost + extra} more tokens; {max(budget - used, 0)} of the budget of "
                             f"{budget} were left. Raise the budget or shorten the item.")
    return chosen


def render_selection(plans: Sequence[PackPlan], chosen: Sequence[Entry], fence_warnings: Callable[[int], list[str]],
                     variant: FenceVariant) -> str:
    """The fence for the chosen entries, in fill order within each pack; packs with nothing chosen are left out."""
    per_pack: dict[int, list[FenceItem]] = {}
    for e in chosen:
        per_pack.setdefault(e.plan_index, []).append(e.item)
    fps = [FencePack(plans[i].pack, per_pack[i], fence_warnings(i)) for i in range(len(plans)) if i in per_pack]
    return render_fence(fps, variant) if fps else ""


def fit_exactly(plans: Sequence[PackPlan], chosen: list[Entry], budget: int, count: Callable[[str], int],
                fence_warnings: Callable[[int], list[str]], variant: FenceVariant) -> tuple[str, int]:
    """Render and count; drop the last-added entry until the real count fits. Returns (text, tokens)."""
    while True:
        text = render_selection(plans, chosen, fence_warnings, variant)
        tokens = count(text) if text else 0
        if tokens <= budget or not chosen:
            return text, tokens
        last = chosen.pop()
        last.selected = False
        last.skip_reason = "over-budget"
        last.skip_detail = (f"Fit the estimate but the rendered fence counted {tokens} tokens, over the budget of "
                            f"{budget}; removed to stay within it.")
