"""Compute a pack's coverage: resolve every known task once, decide answered or not, collect the files never used.

Answered means, per source:
- an eval case with ``required_context``: every required entry is selected within the budget (the evals' own
  measure, ``evals.context.run_context_cases``); without required context, like a recorded query;
- a recorded query, an ontology row, or a discovery prompt the pack should be selected for: the resolver picks at
  least one file for relevance, and together the loaded files mention every content term of the query (the
  resolver's own "missing facts" check, ``resolver.report``, which runs under ``grounding: required``). An
  ontology row whose own status says it is missing material stays a gap whatever the files say.

One ``ResolverSession`` serves every resolve, frozen for the report (``ResolverSession.frozen``), so the pack is
walked, read and indexed once, not once per task. Free-text tasks need only what is selected, so they use
``ResolverSession.select`` (the same choices as ``resolve``, without explaining every item left out).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence

from studio.core.coverage.drafts import DraftPages
from studio.core.coverage.model import CoverageOptions, CoverageReport, CoverageTask, TaskSource
from studio.core.coverage.sources import ROW_GAP_STATUSES, KnownTasks, known_tasks
from studio.core.evals.context import run_context_cases
from studio.core.evals.model import EvalConfig
from studio.core.model import Pack
from studio.core.resolver import Decision, ResolveRequest, ResolveResult, ResolverSession

RELEVANCE_REASONS = frozenset({"relevant", "fallback-section"})
"""Selection reasons that mean "picked for this task" (the guide, boundaries and core views load for any task)."""


def answers_task(decision: Decision) -> bool:
    """Whether a selected item counts towards answering the task: picked for it, or loaded for every task (a core
    view, an answer block, boundaries) while it mentions the task's words (a relevance score above zero). A pack
    whose facts sit in ``compiled/facts.md`` answers from it: counting only picks called every such task a gap,
    and the file "never selected", while ``resolve`` loaded it first."""
    if decision.path == GUIDE:
        return False
    return decision.reason in RELEVANCE_REASONS or (decision.score is not None and decision.score > 0)
GUIDE = "KNOWLEDGE.md"
NO_TASKS = ("No known tasks: the pack has no eval suites, no recorded queries in runs/ and no ontology coverage "
            "rows, so there is nothing to measure coverage against.")


def compute_coverage(packs: Sequence[Pack], options: CoverageOptions | None = None,
                     session: ResolverSession | None = None) -> list[CoverageReport]:
    """One report per pack, in the order given. Pure apart from reading the packs; never raises on pack content."""
    options = options or CoverageOptions()
    session = session or ResolverSession()
    # Frozen: a pack is walked once for all its tasks, not once per task (the report reads, never writes).
    with session.frozen():
        return [pack_coverage(pack, options, session) for pack in packs]


def pack_coverage(pack: Pack, options: CoverageOptions, session: ResolverSession) -> CoverageReport:
    known = known_tasks(pack, options.suites)
    report = CoverageReport(pack.name, str(pack.root), skipped=list(known.skipped))
    universe: set[str] = set()
    used: set[str] = set()
    _eval_tasks(pack, known, options, session, report, used)
    resolver = _QueryResolver(pack, options.budget, session, universe, used)
    for suite, case in known.discovery_prompts:
        report.tasks.append(resolver.task(f"eval:{suite.path}:{case.id}", "eval", case.prompt, suite.path))
    queries = known.queries[:options.max_queries]
    if len(known.queries) > len(queries):
        report.notes.append(f"{len(known.queries) - len(queries):,} further distinct recorded queries were not "
                            f"resolved (limit {options.max_queries:,} per pack).")
    for q in queries:
        report.tasks.append(resolver.task(_query_id(q.text), "run", q.text, q.origin, q.count))
    for row in known.rows:
        task = resolver.task(f"ontology:{row.id}", "ontology", row.text, "ontology/coverage.json")
        if row.status in ROW_GAP_STATUSES:
            task = CoverageTask(task.id, task.source, task.text, False, (), f"the coverage row's status is "
                                f"{row.status}", task.origin)
        report.tasks.append(task)
    if not report.tasks:
        report.notes.append(NO_TASKS)
        return report
    drafts = DraftPages(pack.root)
    report.tasks = [_not_by_drafts_only(t, drafts) for t in report.tasks]
    if not universe:
        resolver.resolve(pack.name)  # every ungated candidate is in any resolve's ranking
    report.never_selected = sorted(universe - used - {GUIDE})
    return report


def _eval_tasks(pack: Pack, known: KnownTasks, options: CoverageOptions, session: ResolverSession,
                report: CoverageReport, used: set[str]) -> None:
    pairs = known.context_cases
    if not pairs:
        return
    outcomes = run_context_cases(pack, [c for _, c in pairs], EvalConfig(budget=options.budget), session)
    for (suite, case), outcome in zip(pairs, outcomes, strict=True):
        picked = [s.path for s in outcome.selected if s.path != GUIDE]
        used.update(picked)
        by = tuple(dict.fromkeys(s.path for s in outcome.selected if s.required))
        if not case.required_context:
            by = tuple(dict.fromkeys(picked))
            why = "no required_context: counted answered when anything beyond the guide is selected"
            report.tasks.append(CoverageTask(f"eval:{suite.path}:{case.id}", "eval", case.prompt, bool(by), by,
                                             why, suite.path))
            continue
        if outcome.passed:
            why = f"every required entry selected within {outcome.budget:,} tokens"
        else:
            absent = [m for m in outcome.missed if not os.path.lexists(pack.root / m.split("#", 1)[0])]
            why = ("required context not selected within the budget: " + ", ".join(outcome.missed)
                   + (f" (no such file: {', '.join(absent)})" if absent else ""))
        report.tasks.append(CoverageTask(f"eval:{suite.path}:{case.id}", "eval", case.prompt, outcome.passed,
                                         by, why, suite.path))


def _not_by_drafts_only(task: CoverageTask, drafts: DraftPages) -> CoverageTask:
    if not task.answered or not task.by or not all(drafts.is_draft(p) for p in task.by):
        return task
    return CoverageTask(task.id, task.source, task.text, False, task.by, "answered only by draft page(s): finish "
                        "the draft and remove draft: true", task.origin, task.count)


class _QueryResolver:
    """Resolves free-text tasks against one pack and records which files the resolves considered and used."""

    def __init__(self, pack: Pack, budget: int, session: ResolverSession, universe: set[str],
                 used: set[str]) -> None:
        self.pack, self.budget, self.session = pack, budget, session
        self.universe, self.used = universe, used

    def resolve(self, text: str) -> ResolveResult:
        result = self.session.resolve(self._request(text))
        if not self.universe:
            self.universe.update(r.path for r in result.ranking)
        return result

    def task(self, task_id: str, source: TaskSource, text: str, origin: str, count: int = 1) -> CoverageTask:
        if not self.universe:
            self.resolve(text)  # one full resolve: its ranking names every file a task could select
        # Only the selection is needed per task: ``select`` chooses exactly what ``resolve`` does, without
        # explaining the two hundred items it leaves out (issue 33's benchmark: a thousand tasks in a second).
        chosen = self.session.select(self._request(text))
        by = tuple(dict.fromkeys(d.path for d in chosen.selected if answers_task(d)))
        self.universe.update(d.path for d in chosen.selected)
        self.used.update(by)
        if not by:
            why = "no file ranks as relevant to it"
        elif chosen.missing:
            why = "; ".join(chosen.missing[:3]) + (f" (+{len(chosen.missing) - 3} more)" if len(chosen.missing) > 3
                                                    else "")
        else:
            why = f"{len(by)} file(s) picked that mention every content term"
        return CoverageTask(task_id, source, text, bool(by) and not chosen.missing, by, why, origin, count)

    def _request(self, text: str) -> ResolveRequest:
        # grounding "required" makes the resolver list the content terms no loaded item mentions (``missing``)
        return ResolveRequest(text, [self.pack], budget=self.budget, grounding_override="required")


def _query_id(text: str) -> str:
    return "run:" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:12]
