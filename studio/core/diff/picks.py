"""What the resolver picks for a task before and after: items added and removed, and the reasons that changed.

Each task runs once per version in that version's ``ResolverSession`` (the evals of the same version reuse its
caches). An item is a file, or ``path#Section title`` for one section of a document.
"""

from __future__ import annotations

from collections.abc import Sequence

from studio.core.diff.report import ReasonChange, ResolverDelta
from studio.core.model import Pack
from studio.core.resolver import Decision, ResolveRequest, ResolveResult, ResolverSession

MAX_REASONS = 50
"""Reason changes kept per task (the picks added and removed come first)."""


def picks(pack: Pack, session: ResolverSession, task: str, budget: int, encoding: str) -> ResolveResult:
    return session.resolve(ResolveRequest(task, [pack], budget=budget, encoding=encoding))


def delta(task: str, budget: int, before: ResolveResult, after: ResolveResult, source: str) -> ResolverDelta:
    picked_a, reasons_a = _decisions(before)
    picked_b, reasons_b = _decisions(after)
    added = tuple(k for k in picked_b if k not in picked_a)
    removed = tuple(k for k in picked_a if k not in picked_b)
    moved = [*removed, *added]
    moved += [k for k in (*reasons_a, *reasons_b) if k not in moved and reasons_a.get(k) != reasons_b.get(k)]
    reasons = tuple(ReasonChange(k, reasons_a.get(k), reasons_b.get(k)) for k in dict.fromkeys(moved)
                    if reasons_a.get(k) != reasons_b.get(k))[:MAX_REASONS]
    return ResolverDelta(task, budget, tuple(picked_a), tuple(picked_b), added, removed, reasons,
                         before.tokens_used, after.tokens_used, source)


def _decisions(result: ResolveResult) -> tuple[list[str], dict[str, str]]:
    picked: list[str] = []
    reasons: dict[str, str] = {}
    for resolution in result.packs:
        for d in resolution.selected:
            picked.append(_key(d))
            reasons[_key(d)] = d.reason
        for d in resolution.skipped:
            reasons.setdefault(_key(d), d.reason)
    return picked, reasons


def _key(d: Decision) -> str:
    return d.path if d.section is None else f"{d.path}#{d.section}"


def unique_tasks(given: Sequence[tuple[str, str]], limit: int) -> list[tuple[str, str]]:
    """(task, source) pairs without repeats, the first ``limit``: ``--task`` values first, then suite prompts."""
    seen: set[str] = set()
    out = []
    for task, source in given:
        if task.strip() and task not in seen:
            seen.add(task)
            out.append((task, source))
    return out[:limit]
