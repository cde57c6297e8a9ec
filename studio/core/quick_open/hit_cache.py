"""Recent searches, so that a longer query searches only the entries a shorter one already matched."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

from studio.core.quick_open.entries import Entry, normalise_query
from studio.core.quick_open.ranking import Search


def is_subsequence(needle: str, haystack: str) -> bool:
    """True when every character of ``needle`` appears in ``haystack`` in order."""
    at = -1
    for c in needle:
        at = haystack.find(c, at + 1)
        if at < 0:
            return False
    return True


class HitCache:
    """Recent searches over one entry list, so that typing one more character searches only earlier hits.

    An entry matching ``north`` must match ``nort``: when a cached query is a subsequence of the new one,
    the new search only looks at the cached query's hits. Going back (Backspace) to a cached query gives its
    ranked results at once. Not thread-safe: the GUI keeps one and feeds it the searches its workers return.
    """

    def __init__(self, entries: Sequence[Entry], size: int = 32) -> None:
        self.entries = entries
        self.size = size
        self._searches: OrderedDict[str, Search] = OrderedDict()

    def get(self, query: str) -> Search | None:
        """A cached search for exactly this (normalised) query."""
        found = self._searches.get(normalise_query(query))
        if found is not None:
            self._searches.move_to_end(found.query)
        return found

    def among(self, query: str) -> Sequence[int] | None:
        """The smallest cached hit list the query's hits must lie in; None means every entry."""
        q = normalise_query(query)
        best: Sequence[int] | None = None
        for cached in self._searches.values():
            if not cached.query:
                continue  # the empty query lists packs only; it says nothing about which files match
            if (best is None or len(cached.hits) < len(best)) and is_subsequence(cached.query, q):
                best = cached.hits
        return best

    def remember(self, found: Search) -> None:
        self._searches[found.query] = found
        self._searches.move_to_end(found.query)
        while len(self._searches) > self.size:
            self._searches.popitem(last=False)
