"""The selection alone: what a resolve loads, without explaining every item it leaves out.

``resolve`` explains itself: a ``Decision`` with a reason for each of a pack's candidates, the whole ranking,
the fence text, warnings and citation gaps. A caller that resolves a thousand tasks and reads only what was
chosen (coverage) pays for all of that a thousand times. ``select`` makes the same choices in the same order
with the same token counts (a differential test over the bundled examples holds the two together), and skips
the rest:

- only candidates that can be loaded are placed: those of the fixed tiers (guide, boundaries, core views) and
  the ranked ones that share a term with the task and make the relevance floor; BM25 touches only the items
  holding a query word (``BM25Index.sparse_scores``);
- while the session is frozen, the plans, prepared packs, wrapper costs and the counts of rendered fences are
  kept per request shape, so a task pays for its own scoring and fill only.

What it does not give: decisions for skipped items, the ranking, feedback sentences, warnings, source anchors
and the fence text. Use ``resolve`` for those.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from studio.core.render.fence import FenceVariant
from studio.core.resolver.explain import Decision, ResolveRequest
from studio.core.resolver.feedback import FeedbackFold
from studio.core.resolver.intent import asks_for_evidence
from studio.core.resolver.plan import PackPlan, plan_packs
from studio.core.resolver.prepared import PreparedPack
from studio.core.resolver.report import missing_terms
from studio.core.resolver.select import Entry, Measure, fence_measure, fill_order, fit_exactly, greedy_fill
from studio.core.resolver.session import (
    ResolverSession,
    fence_warnings,
    placement_key,
    placements_for,
    relevance_floor,
    scores_for,
    settled,
    wrapper_costs,
)
from studio.core.text.terms import terms
from studio.core.tokens import CannotCount, Tokenizer, get_tokenizer


@dataclass(slots=True)
class Selection:
    """What a resolve of ``task`` loads: the selected decisions (pack by pack, in fill order) and their total."""

    task: str
    selected: list[Decision] = field(default_factory=list)
    """Exactly ``[d for res in resolve(...).packs for d in res.selected]`` (without feedback sentences)."""
    tokens_used: int = 0
    """The tokenizer's count of the fence these items make, as ``ResolveResult.tokens_used``."""
    missing: list[str] = field(default_factory=list)
    """Under ``grounding: required``, the task's content terms no selected item mentions (``ResolveResult.missing``)."""
    available: bool = True
    """False when the tokenizer is unavailable or failed: then nothing is selected (``reason`` says why)."""
    reason: str | None = None


@dataclass(slots=True)
class RequestShape:
    """What a request's packs and options fix before its task is known; kept per shape while a session is frozen."""

    packs: list[object]
    """The requested packs, held so that the ids in the cache key stay theirs."""
    plans: list[PackPlan]
    names: list[str]
    """Each plan's pack name (looked up in the frontmatter on every access otherwise)."""
    prepared: list[PreparedPack | None]
    """None for a pack that is not loadable (it is never walked)."""
    required: bool
    """Some walked pack says ``grounding: required``: missing terms are listed."""
    wrapper_costs: list[int]
    measure: Measure
    """Renders and counts a fence; remembers the count per chosen set (the same set is chosen again and again).
    Gives no text: ``select`` reports none."""


def select(request: ResolveRequest, session: ResolverSession | None = None) -> Selection:
    """The selection ``resolve(request)`` makes, without its explanation. Never raises on bad pack content."""
    session = session or ResolverSession()
    tokenizer = get_tokenizer(request.encoding)
    if not tokenizer.available:
        return Selection(request.task, available=False,
                         reason=tokenizer.unavailable_reason or f"{tokenizer.name} is unavailable")
    try:
        return _select(request, session, tokenizer)
    except CannotCount as exc:
        return Selection(request.task, available=False, reason=str(exc))


def _select(request: ResolveRequest, session: ResolverSession, tokenizer: Tokenizer) -> Selection:
    shape = session.shape_of(request, tokenizer, lambda: _shape(request, session, tokenizer))
    plans = shape.plans
    fold = FeedbackFold.load(p.pack for p in plans if p.pack.knowledge is not None) if request.use_feedback else None
    evidence = asks_for_evidence(request.task)
    query = terms(request.task)
    entries: list[Entry] = []
    for i, (plan, prep) in enumerate(zip(plans, shape.prepared, strict=True)):
        if prep is not None and plan.gate is None:
            entries.extend(_loadable(i, plan, prep, query, evidence, request.ranking, fold, tokenizer))
    ordered = fill_order(entries)
    chosen = greedy_fill(ordered, shape.wrapper_costs, request.budget, join_cost=1,
                         terms_of=session.item_terms_of(plans))
    _, used = fit_exactly(chosen, request.budget, shape.measure)
    by_pack = sorted(chosen, key=lambda e: e.plan_index)  # stable: fill order within each pack
    selected = [Decision(e.candidate.path, e.candidate.section, e.candidate.lines, e.cost, e.placement.reason,
                         e.score, shape.names[e.plan_index], e.placement.detail) for e in by_pack]
    missing = missing_terms(request.task, [e.candidate.text for e in by_pack]) if shape.required else []
    return Selection(request.task, selected, used, missing)


def _shape(request: ResolveRequest, session: ResolverSession, tokenizer: Tokenizer) -> RequestShape:
    plans = plan_packs(request)
    prepared = [None if plan.gate is not None and plan.gate[0] == "pack-not-loadable"
                else session.prepare(plan, tokenizer) for plan in plans]
    variant = FenceVariant(request.variant) if request.variant in set(FenceVariant) else FenceVariant.SUPERSET
    render = fence_measure(plans, tokenizer.count, lambda i: fence_warnings(plans[i].warnings), variant)
    counted: dict[tuple[tuple[int, int], ...], int] = {}

    def measure(chosen: Sequence[Entry]) -> tuple[str, int]:
        # Only the count decides what fits; the text is not kept (a thousand fences of a frozen session add up).
        key = tuple((e.plan_index, e.index) for e in chosen)
        tokens = counted.get(key)
        if tokens is None:
            tokens = counted[key] = render(chosen)[1]
        return "", tokens

    required = any(prep is not None and plan.pack.grounding == "required"
                   for plan, prep in zip(plans, prepared, strict=True))
    return RequestShape(list(request.packs), plans, [p.name for p in plans], prepared, required,
                        wrapper_costs(plans, [p.warnings for p in plans], tokenizer, variant), measure)


def _loadable(i: int, plan: PackPlan, prep: PreparedPack, query: list[str], evidence: bool, ranking: str,
              fold: FeedbackFold | None, tokenizer: Tokenizer) -> list[Entry]:
    """The entries ``resolve`` would put in the fill for pack ``i``, in candidate order (the same objects' data)."""
    cands = prep.files.candidates
    placements = placements_for(plan, prep, evidence)
    if fold is None and not prep.source_map.by_source:
        scored = prep.index.sparse_scores(query, ranking)
    else:  # source links and feedback work on every candidate's score
        scored = {k: s for k, s in enumerate(scores_for(plan, prep, query, ranking, fold)) if s}
    floor = relevance_floor(max((s for k, s in scored.items() if placements[k].ranked), default=0.0))
    key = placement_key(plan, evidence)
    fixed = prep.unranked.get(key)
    if fixed is None:  # the guide, boundaries and core views: placed whatever the task's words
        fixed = prep.unranked[key] = [k for k, p in enumerate(placements) if p.tier is not None and not p.ranked]
    reach = sorted({*fixed, *(k for k, s in scored.items() if s >= floor and placements[k].ranked)})
    meter = prep.meters[tokenizer.name]
    out: list[Entry] = []
    for k in reach:
        c, s = cands[k], scored.get(k, 0.0)
        p = settled(c, placements[k], s, floor, plan, prep, evidence)
        if p.tier is not None:
            out.append(Entry(i, c, p, s, meter, k))
    return out
