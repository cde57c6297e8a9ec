"""The optional feedback stage of the ranking: usage feedback scales each candidate's relevance score.

Off by default (``ResolveRequest.use_feedback``): the simulation is the standard's unless asked. When on, it runs
after the base scores (BM25 plus source-map links) and before the low-relevance floor and the fill, so it moves
items within their tier and can push a harmful item under the floor or lift a helpful one above it. It never
creates relevance (a score of 0 stays 0) and never changes tiers (the guide, boundaries and core views are not
ranked by relevance, so feedback cannot move them).

The factor for a candidate with ``h`` helpful and ``x`` harmful outcomes (those about its whole file plus those
about its section, ``FileFeedback.counts_for``) is::

    factor = 1 + WEIGHT * (wilson_lower(h, h + x) - wilson_lower(x, h + x))

Both terms are Wilson score lower bounds (95 %), so a single vote moves little (x1.10 or x0.90), consistent
votes move more (20 helpful: x1.42), mixed votes cancel out, and the factor always lies in
``[1 - WEIGHT, 1 + WEIGHT]``. Every decision of a resolve with feedback on carries a ``feedback`` sentence saying
what the stage did to it. The records are read with ``read_runs`` and aggregated by ``studio.core.feedback``
(the same numbers the Runs view shows), and cached per pack until a file under ``runs/`` changes.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from studio.core.feedback.aggregate import FeedbackSummary, aggregate_feedback, wilson_lower
from studio.core.model import Pack
from studio.core.pack_fs import PackFS
from studio.core.resolver.candidates import Candidate
from studio.core.resolver.explain import Decision, PackResolution
from studio.core.runs import read_runs

WEIGHT = 0.5
RANKED_REASONS = frozenset({"relevant", "fallback-section", "evidence-for-citation", "low-relevance", "over-budget"})
"""Decisions whose outcome depends on the relevance score; any other reason comes from the tier rules alone."""
_CACHE_SIZE = 64
_SIGNATURE_LIMIT = 4000


def factor(helpful: int, harmful: int) -> float:
    """The score multiplier for these counts (1.0 without feedback)."""
    total = helpful + harmful
    if total <= 0:
        return 1.0
    return 1.0 + WEIGHT * (wilson_lower(helpful, total) - wilson_lower(harmful, total))


@dataclass(frozen=True, slots=True)
class _Note:
    helpful: int
    harmful: int
    base: float
    folded: float
    rank_before: int | None
    rank_after: int | None


_Key = tuple[str, str, str | None, tuple[int, int] | None]


class FeedbackFold:
    """Feedback for the packs of one resolve; ``apply`` scales scores, ``annotate`` explains every decision."""

    def __init__(self, summaries: dict[str, FeedbackSummary]) -> None:
        self.summaries = summaries
        """Pack root -> its feedback."""
        self._notes: dict[_Key, _Note] = {}

    @classmethod
    def load(cls, packs: Iterable[Pack]) -> FeedbackFold:
        return cls({str(p.root): load_feedback(p) for p in packs})

    def apply(self, pack: Pack, candidates: Sequence[Candidate], scores: Sequence[float]) -> list[float]:
        """The scores of ``pack``'s candidates with feedback folded in (same order)."""
        summary = self.summaries.get(str(pack.root))
        if summary is None or not summary.files:
            return list(scores)
        folded = list(scores)
        counted: list[tuple[int, int, int]] = []
        for i, c in enumerate(candidates):
            entry = summary.get(c.path)
            if entry is None or not entry.exists:
                continue
            helpful, harmful = entry.counts_for(c.section)
            folded[i] = scores[i] * factor(helpful, harmful)
            counted.append((i, helpful, harmful))
        before, after = _ranks(scores), _ranks(folded)
        for i, helpful, harmful in counted:
            c = candidates[i]
            self._notes[(pack.name, c.path, c.section, c.lines)] = _Note(
                helpful, harmful, scores[i], folded[i], before.get(i), after.get(i))
        return folded

    def annotate(self, resolutions: Iterable[PackResolution]) -> None:
        """Give every decision its ``feedback`` sentence."""
        for res in resolutions:
            summary = self.summaries.get(str(res.pack.root))
            res.selected[:] = [self._explain(d, summary) for d in res.selected]
            res.skipped[:] = [self._explain(d, summary) for d in res.skipped]

    def _explain(self, d: Decision, summary: FeedbackSummary | None) -> Decision:
        return replace(d, feedback=self._sentence(d, summary))

    def _sentence(self, d: Decision, summary: FeedbackSummary | None) -> str:
        entry = summary.get(d.path) if summary is not None else None
        if entry is None:
            return "Feedback: none recorded for this file; ranking unchanged."
        if not entry.exists:
            return "Feedback: recorded for a file that is no longer in the pack; ranking unchanged."
        note = self._notes.get((d.pack, d.path, d.section, d.lines))
        helpful, harmful = (note.helpful, note.harmful) if note else entry.counts_for(d.section)
        counts = f"Feedback: {helpful} helpful, {harmful} harmful"
        if helpful + harmful == 0:
            return f"{counts} for this section (the file's outcomes are about other sections); ranking unchanged."
        counts += f" (x{factor(helpful, harmful):.2f})"
        if d.reason not in RANKED_REASONS:
            return f"{counts}; no effect: '{d.reason}' does not depend on relevance."
        if note is None or note.base <= 0:
            return f"{counts}; no effect: the item shares no words with the task (score 0)."
        moved = f"score {note.base:.2f} -> {note.folded:.2f}"
        if note.rank_before is not None and note.rank_after is not None and note.rank_before != note.rank_after:
            moved += f", relevance rank {note.rank_before} -> {note.rank_after} in this pack"
        elif note.rank_before is not None:
            moved += f", relevance rank {note.rank_before} unchanged"
        return f"{counts}: {moved}."


def _ranks(scores: Sequence[float]) -> dict[int, int]:
    """1-based rank of every positive score (ties share the better rank)."""
    positive = sorted((s for s in scores if s > 0), reverse=True)
    first: dict[float, int] = {}
    for rank, s in enumerate(positive, start=1):
        first.setdefault(s, rank)
    return {i: first[s] for i, s in enumerate(scores) if s > 0}


# -- reading, cached until runs/ changes -------------------------------------------------------------------
_lock = threading.Lock()
_cache: OrderedDict[str, tuple[tuple[object, ...], FeedbackSummary]] = OrderedDict()


def load_feedback(pack: Pack) -> FeedbackSummary:
    """``pack``'s feedback summary; re-read only when a file under ``runs/`` was added, removed or changed."""
    root = str(pack.root)
    signature = (pack.name, *_runs_signature(root))
    with _lock:
        hit = _cache.get(root)
        if hit is not None and hit[0] == signature:
            _cache.move_to_end(root)
            return hit[1]
    summary = aggregate_feedback(read_runs(pack.root), pack.name, pack.root)
    with _lock:
        _cache[root] = (signature, summary)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return summary


def _runs_signature(root: str) -> list[object]:
    """(path, mtime, size) of every entry under ``runs/``, bounded like the reader's walk (by descriptor: a
    symlinked ``runs/`` or subfolder is listed as a link, never entered)."""
    with PackFS(root) as fs:
        tree = fs.walk("runs", max_depth=5, max_entries=_SIGNATURE_LIMIT, classify_links=False)
    out: list[object] = [(e.rel, e.mtime_ns, e.size) for e in tree.files]
    out.extend(tree.dirs)
    out.extend(tree.unlisted)
    out.sort(key=str)
    return out
