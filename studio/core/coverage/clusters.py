"""Similar unanswered tasks as one gap: fifty wordings of one question are one piece of work.

Similarity is the Jaccard index of two tasks' content-term sets (the resolver's own terms:
``resolver.report.content_terms``, folded like the ranking folds plurals). It is explainable in one line
("shares 3 of 4 terms"), needs no model, and ignores word order and filler words, which is what varies between
wordings of one question. Clustering is single-pass leader clustering: a task joins the first cluster whose
leader's terms it overlaps by at least ``threshold``, else it leads a new one. Candidates are found through an
index of term -> clusters, so the cost grows with shared terms, not with the square of the gaps.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from studio.core.coverage.model import CoverageTask
from studio.core.resolver.report import content_terms
from studio.core.text.terms import fold

DEFAULT_THRESHOLD = 0.5
MAX_CANDIDATES = 200
"""Clusters compared per task at most (a term shared by every gap must not make the pass quadratic)."""


@dataclass(frozen=True, slots=True)
class GapCluster:
    """Unanswered tasks that ask much the same thing; ``tasks[0]`` leads (the most often asked)."""

    terms: tuple[str, ...]
    """The leader's content terms, the cluster's label."""
    tasks: tuple[CoverageTask, ...]

    @property
    def size(self) -> int:
        return sum(t.count for t in self.tasks)

    def to_json(self) -> dict[str, Any]:
        return {"terms": list(self.terms), "size": self.size, "leader": self.tasks[0].text,
                "tasks": [t.id for t in self.tasks]}


def task_terms(text: str) -> frozenset[str]:
    return frozenset(fold(t) for t in content_terms(text))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a and not b:
        return 0.0
    return len(a & b) / len(a | b)


def cluster_gaps(tasks: Sequence[CoverageTask], threshold: float = DEFAULT_THRESHOLD) -> list[GapCluster]:
    """Clusters of the unanswered ``tasks``, largest first; a task with no content terms stands alone."""
    gaps = sorted((t for t in tasks if not t.answered), key=lambda t: (-t.count, t.text))
    leaders: list[frozenset[str]] = []
    members: list[list[CoverageTask]] = []
    by_term: dict[str, list[int]] = {}
    for task in gaps:
        terms = task_terms(task.text)
        seen: dict[int, None] = {}
        for term in terms:
            for index in by_term.get(term, ()):
                seen[index] = None
                if len(seen) >= MAX_CANDIDATES:
                    break
        best = next((i for i in sorted(seen) if jaccard(terms, leaders[i]) >= threshold), None)
        if best is None:
            best = len(leaders)
            leaders.append(terms)
            members.append([])
            for term in terms:
                by_term.setdefault(term, []).append(best)
        members[best].append(task)
    clusters = [GapCluster(tuple(sorted(leaders[i])), tuple(m)) for i, m in enumerate(members)]
    return sorted(clusters, key=lambda c: (-c.size, c.tasks[0].text))
