"""Searching an index: every entry containing the query as a subsequence, the best of them ranked by score.

Pure and thread-safe, so the GUI can run it in a worker.
"""

from __future__ import annotations

import heapq
import re
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import compress

from studio.core.quick_open.entries import Entry, normalise_query
from studio.core.quick_open.index import Index
from studio.core.quick_open.scoring import align, max_score

DEFAULT_LIMIT = 50
"""Results a search ranks: more than a popup shows without scrolling, few enough to stop scans early."""


@dataclass(frozen=True, slots=True)
class Match:
    """An entry that matched a query, its score and which characters of ``entry.text`` matched."""

    entry: Entry
    score: int
    positions: tuple[int, ...]
    """Increasing indices into ``entry.text``, one per query character."""


@dataclass(frozen=True, slots=True)
class Search:
    """What a search found: the ranked top of the list, and every entry that matched (to narrow from later)."""

    query: str
    """The normalised query (see ``normalise_query``)."""
    hits: Sequence[int]
    """Indices into the searched entries of every entry containing the query as a subsequence, in order.

    An unsigned int array: a cache holds a few of these, each up to one number per entry."""
    results: list[Match]
    """The best ``limit`` hits, best first."""


def _subsequence_pattern(query: str) -> re.Pattern[str]:
    # ``[^c]*+c`` per character, anchored with ``match``: one left-to-right pass per text, and the possessive
    # quantifier never backtracks, so a miss costs as little as a hit.
    return re.compile("".join(f"[^{re.escape(c)}]*+{re.escape(c)}" for c in query), re.DOTALL)


CHECK_EVERY = 64
"""Entries scored between two calls of ``cancelled`` (a few milliseconds of work)."""
FILTER_CHUNK = 1024
"""Entries the subsequence filter runs over in one C call, between two calls of ``cancelled``."""


def search(query: str, entries: Sequence[Entry], limit: int = DEFAULT_LIMIT, among: Sequence[int] | None = None,
           cancelled: Callable[[], bool] | None = None) -> Search | None:
    """Find the entries containing ``query`` as a subsequence and rank the best ``limit`` of them.

    Ranking: score, then ``tie_order`` (shorter text, packs above files, by name). ``among`` restricts the
    search to those indices (the hits of a query this one extends, see ``HitCache``). An empty query lists
    the packs by name and no files. Pure and thread-safe; returns None only when ``cancelled()`` turned
    true on the way. ``cancelled`` is called every few milliseconds of work; in a worker thread it is also
    the place to yield the GIL (``time.sleep(0)``), since the filter's C loops otherwise hold it.

    Pass an ``Index`` (anything else is sorted into one first): scanning hits in tie order, the search stops
    as soon as ``limit`` hits have the highest score any entry can reach, since no later entry can pass them.
    """
    index = entries if isinstance(entries, Index) else Index.of(entries)
    q = normalise_query(query)
    keys, texts, bases = index.keys, index.texts, index.bases
    if not q:
        packs = array("I", (i for i, split in enumerate(index.splits) if not split))
        ranked = sorted(packs, key=lambda i: (keys[i], texts[i]))[:limit]
        return Search(q, packs, [Match(index[i], 0, ()) for i in ranked])
    matches = _subsequence_pattern(q).match
    pool: Sequence[int] = range(len(index)) if among is None else among
    found: list[int] = []
    for start in range(0, len(pool), FILTER_CHUNK):
        if cancelled is not None and cancelled():
            return None
        part = pool[start:start + FILTER_CHUNK]
        found.extend(compress(part, map(matches, map(keys.__getitem__, part))))
    hits = array("I", found)
    ceiling = max_score(q)
    # A min-heap of the best so far: (score, -position in tie order, positions); its root is the weakest.
    best: list[tuple[int, int, tuple[int, ...]]] = []
    for n, i in enumerate(hits):
        if n % CHECK_EVERY == 0 and cancelled is not None and cancelled():
            return None
        aligned = align(q, texts[i], keys[i], bases[i])
        if aligned is None:
            continue
        item = (aligned[0], -i, aligned[1])
        if len(best) < limit:
            heapq.heappush(best, item)
        elif item > best[0]:
            heapq.heapreplace(best, item)
        if len(best) == limit and best[0][0] >= ceiling:
            break  # every later hit comes later in tie order: at best it ties, and a tie goes to the earlier
    strongest = sorted(best, reverse=True)
    return Search(q, hits, [Match(index[-neg], value, positions) for value, neg, positions in strongest])


def match(query: str, entries: Sequence[Entry], limit: int = DEFAULT_LIMIT) -> list[Match]:
    """The best ``limit`` entries for ``query``, best first, each with the positions of its matched characters."""
    found = search(query, entries, limit)
    assert found is not None  # only a cancelled search gives None
    return found.results
