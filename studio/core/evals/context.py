"""Context evals: run the resolver for each answer-quality prompt and measure what it picked.

Per case: the items selected at the budget (and whether each satisfies ``required_context``), the share of
required entries selected (``context_recall``), and ranking measures over the items the resolver ranked for
the task (``ResolveResult.ranking``; see ``metrics``). Items loaded by policy whatever the task (the fill
tiers below ``FIRST_RANKED_TIER``, which are not relevance-gated: the guide ``KNOWLEDGE.md``, boundaries, a
persona's voice and values, the briefing and facts views) are not ranked for it: they are reported beside the
ranking (``policy_loaded``), and a required entry that they satisfy is left out of the rank measures (recall
still counts it). Otherwise the guide, first in every selection, capped the reciprocal rank of a perfect
pick at 0.5. ``expected_output`` and ``assertions`` need a model to
judge an answer; they are listed as not run, never as passed.

The ``reference`` ranking stands for the reference CLI's dry run (``resolver.reference``): its fixed file list
is both the selection and the ranking, and its token estimate is characters / 4.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from studio.core.evals.metrics import ranked_ids, ranking_metrics, requirement_matcher, satisfied_by
from studio.core.evals.model import ContextCase, ContextOutcome, EvalConfig, SelectedItem
from studio.core.model import Pack
from studio.core.resolver import ResolveRequest, ResolverSession
from studio.core.resolver.reference import reference_dry_run
from studio.core.resolver.tiers import FIRST_RANKED_TIER

RANKING_KEPT = 50
"""Ranking entries kept per outcome (for display and records); the measures use the whole ranking."""


def run_context_cases(pack: Pack, cases: Sequence[ContextCase], config: EvalConfig,
                      session: ResolverSession | None = None) -> list[ContextOutcome]:
    """One outcome per case, in suite order. Never raises on bad pack content."""
    session = session or ResolverSession()
    partial: list[tuple[ContextCase, tuple[SelectedItem, ...], Ranking, int, int, str | None]] = []
    for case in cases:
        budget = case.budget if case.budget is not None else config.budget
        profile = case.profile or config.profile
        if config.ranking == "reference":
            selected, ranking, used = _reference(pack, case)
        else:
            selected, ranking, used = _resolve(pack, case, budget, profile, config, session)
        partial.append((case, selected, ranking, used, budget, profile))
    ids = [ranked_ids(ranking.task, case.required_context) for case, _, ranking, _, _, _ in partial]
    measures = ranking_metrics([(case.id, _ranked_for_task(case.required_context, ranking.policy), ranked)
                                for (case, _, ranking, *_), ranked in zip(partial, ids, strict=True)])
    out = []
    for (case, selected, ranking, used, budget, profile), ranked in zip(partial, ids, strict=True):
        matcher = requirement_matcher(case.required_context)
        hit = {satisfied_by(s.path, _slug_of(s), matcher) for s in selected} - {None}
        missed = tuple(entry for entry in dict.fromkeys(case.required_context) if entry not in hit)
        distinct = len(dict.fromkeys(case.required_context))
        recall = (distinct - len(missed)) / distinct if distinct else None
        rr, ndcg, r5 = measures.get(case.id, (None, None, None))
        not_run = (("expected_output",) if case.expected_output else ()) + tuple(
            f"assertion: {a}" for a in case.assertions)
        picked = {(s.path, s.section_slug) for s in selected}
        policy = tuple(dict.fromkeys(_key(path, slug) for path, slug in ranking.policy if (path, slug) in picked))
        out.append(ContextOutcome(case.id, case.prompt, selected, case.required_context, missed, recall, rr, ndcg,
                                  r5, used, budget, tuple(ranked[:RANKING_KEPT]), not_run, profile, policy))
    return out


@dataclass(frozen=True, slots=True)
class Ranking:
    """The resolver's ranking split in two: items loaded by policy, and items ranked for the task, in order."""

    policy: list[tuple[str, str | None]]
    task: list[tuple[str, str | None]]


def _ranked_for_task(required: Sequence[str], policy: Sequence[tuple[str, str | None]]) -> list[str]:
    """The required entries the rank measures judge: those no policy-loaded item satisfies."""
    matcher = requirement_matcher(required)
    by_policy = {satisfied_by(path, slug, matcher) for path, slug in policy} - {None}
    return [entry for entry in required if entry not in by_policy]


def _key(path: str, slug: str | None) -> str:
    return path if slug is None else f"{path}#{slug}"


def _slug_of(item: SelectedItem) -> str | None:
    return item.section_slug


def _resolve(pack: Pack, case: ContextCase, budget: int, profile: str | None, config: EvalConfig,
             session: ResolverSession) -> tuple[tuple[SelectedItem, ...], Ranking, int]:
    request = ResolveRequest(case.prompt, [pack], profile_override=profile, budget=budget, encoding=config.encoding,
                             ranking=config.ranking)
    result = session.resolve(request)
    slugs = {(r.path, r.section): r.slug for r in result.ranking}
    matcher = requirement_matcher(case.required_context)
    selected = []
    for res in result.packs:
        for d in res.selected:
            slug = slugs.get((d.path, d.section))
            selected.append(SelectedItem(d.path, d.section, d.tokens, satisfied_by(d.path, slug, matcher) is not None,
                                         slug))
    ranking = Ranking([], [])
    for r in result.ranking:
        by_policy = r.tier is not None and r.tier < FIRST_RANKED_TIER
        (ranking.policy if by_policy else ranking.task).append((r.path, r.slug))
    return tuple(selected), ranking, result.tokens_used


def _reference(pack: Pack, case: ContextCase) -> tuple[tuple[SelectedItem, ...], Ranking, int]:
    dry = reference_dry_run(pack, case.prompt)
    matcher = requirement_matcher(case.required_context)
    files: list[str] = list(dry["selected_files"])
    selected = tuple(SelectedItem(p, None, None, satisfied_by(p, None, matcher) is not None) for p in files)
    # The reference CLI has no policy tiers: its fixed list is the ranking, guide included, as it reports it.
    return selected, Ranking([], [(p, None) for p in files]), int(dry["token_estimate"])
