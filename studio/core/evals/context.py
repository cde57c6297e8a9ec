"""Context evals: run the resolver for each answer-quality prompt and measure what it picked.

Per case: the items selected at the budget (and whether each satisfies ``required_context``), the share of
required entries selected (``context_recall``), and ranking measures over the resolver's full candidate
ranking (``ResolveResult.ranking``; see ``metrics``). ``expected_output`` and ``assertions`` need a model to
judge an answer; they are listed as not run, never as passed.

The ``reference`` ranking stands for the reference CLI's dry run (``resolver.reference``): its fixed file list
is both the selection and the ranking, and its token estimate is characters / 4.
"""

from __future__ import annotations

from collections.abc import Sequence

from studio.core.evals.metrics import ranked_ids, ranking_metrics, requirement_matcher, satisfied_by
from studio.core.evals.model import ContextCase, ContextOutcome, EvalConfig, SelectedItem
from studio.core.model import Pack
from studio.core.resolver import ResolveRequest, ResolverSession
from studio.core.resolver.reference import reference_dry_run

RANKING_KEPT = 50
"""Ranking entries kept per outcome (for display and records); the measures use the whole ranking."""


def run_context_cases(pack: Pack, cases: Sequence[ContextCase], config: EvalConfig,
                      session: ResolverSession | None = None) -> list[ContextOutcome]:
    """One outcome per case, in suite order. Never raises on bad pack content."""
    session = session or ResolverSession()
    partial: list[tuple[ContextCase, tuple[SelectedItem, ...], list[tuple[str, str | None]], int, int,
                        str | None]] = []
    for case in cases:
        budget = case.budget if case.budget is not None else config.budget
        profile = case.profile or config.profile
        if config.ranking == "reference":
            selected, ranking, used = _reference(pack, case)
        else:
            selected, ranking, used = _resolve(pack, case, budget, profile, config, session)
        partial.append((case, selected, ranking, used, budget, profile))
    ids = [ranked_ids(ranking, case.required_context) for case, _, ranking, _, _, _ in partial]
    measures = ranking_metrics([(case.id, case.required_context, ranked)
                                for (case, *_), ranked in zip(partial, ids, strict=True)])
    out = []
    for (case, selected, _ranking, used, budget, profile), ranked in zip(partial, ids, strict=True):
        matcher = requirement_matcher(case.required_context)
        hit = {satisfied_by(s.path, _slug_of(s), matcher) for s in selected} - {None}
        missed = tuple(entry for entry in dict.fromkeys(case.required_context) if entry not in hit)
        distinct = len(dict.fromkeys(case.required_context))
        recall = (distinct - len(missed)) / distinct if distinct else None
        rr, ndcg, r5 = measures.get(case.id, (None, None, None))
        not_run = (("expected_output",) if case.expected_output else ()) + tuple(
            f"assertion: {a}" for a in case.assertions)
        out.append(ContextOutcome(case.id, case.prompt, selected, case.required_context, missed, recall, rr, ndcg,
                                  r5, used, budget, tuple(ranked[:RANKING_KEPT]), not_run, profile))
    return out


def _slug_of(item: SelectedItem) -> str | None:
    return item.section_slug


def _resolve(pack: Pack, case: ContextCase, budget: int, profile: str | None, config: EvalConfig,
             session: ResolverSession) -> tuple[tuple[SelectedItem, ...], list[tuple[str, str | None]], int]:
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
    return tuple(selected), [(r.path, r.slug) for r in result.ranking], result.tokens_used


def _reference(pack: Pack, case: ContextCase) -> tuple[tuple[SelectedItem, ...], list[tuple[str, str | None]], int]:
    dry = reference_dry_run(pack, case.prompt)
    matcher = requirement_matcher(case.required_context)
    files: list[str] = list(dry["selected_files"])
    selected = tuple(SelectedItem(p, None, None, satisfied_by(p, None, matcher) is not None) for p in files)
    return selected, [(p, None) for p in files], int(dry["token_estimate"])
