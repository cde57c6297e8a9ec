"""Quick Open: an index of pack names and pack file paths, and a fuzzy subsequence matcher that ranks them.

The index holds names only: listing a pack reads directory entries, never a file's contents, and never
follows a symlink out of the pack root (symlinked folders are not entered at all). The matcher is pure and
thread-safe, so the GUI can run it in a worker; ``HitCache`` lets a longer query search only the entries a
shorter one already matched.
"""

from __future__ import annotations

import heapq
import re
from array import array
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from itertools import compress
from pathlib import Path
from typing import overload

from studio.core.model import Pack
from studio.core.pack_fs import LinkState, PackFS

MAX_FILES_PER_PACK = 2000
"""Files listed per pack; a pack with more is marked truncated (a runaway folder must not swamp the index)."""
MAX_DEPTH = 8
"""Folder levels below a pack root that are listed."""
SKIPPED_DIRS = frozenset({"node_modules", "__pycache__"})
"""Folders never listed (besides every dot-folder, such as ``.git``): tool output, not knowledge."""
DEFAULT_LIMIT = 50
"""Results a search ranks: more than a popup shows without scrolling, few enough to stop scans early."""

# Scoring, in the spirit of fzf: every matched character earns SCORE_MATCH plus a bonus for where it sits;
# a gap between two matched characters costs GAP_START plus GAP_EXTEND per further skipped character.
SCORE_MATCH = 16
BONUS_SEGMENT = 10
"""A match at the start of the text or of a path segment (right after ``/``)."""
BONUS_WORD = 8
"""A match at the start of a word inside a segment (after ``-``, ``_``, ``.`` or a space)."""
BONUS_CAMEL = 7
"""A capital after a lower-case letter (``productBrief``)."""
BONUS_CONSECUTIVE = 8
"""The least a character directly after the previous match earns: runs beat scattered mid-word hits."""
BONUS_BASENAME = 2
"""Per character matched in the last path segment: ``faq`` prefers ``docs/faq.md`` to ``faq/notes.md``."""
FIRST_CHAR_MULTIPLIER = 2
"""The first matched character's position bonus counts double: starting at a boundary matters most."""
GAP_START = -3
GAP_EXTEND = -1
_WORD_SEPARATORS = frozenset("-_. ")


class EntryKind(IntEnum):
    """What an entry opens. The value is the tie-break order: a pack goes above a file with the same score."""

    PACK = 0
    FILE = 1


@dataclass(frozen=True, slots=True)
class Entry:
    """One thing Quick Open can open: a pack (by name) or a file in a pack (by ``<pack name>/<relative path>``)."""

    kind: EntryKind
    text: str
    """What is matched and shown: the pack's name, or the pack's name, ``/`` and the file's relative path."""
    root: Path
    """The pack root."""
    rel: str
    """The file's path relative to the root, ``/``-separated; empty for a pack."""
    key: str
    """``text`` lower-cased character by character, so that positions in it are positions in ``text``."""
    base: int
    """Index in ``text`` where the last path segment starts (0 for a pack)."""

    @classmethod
    def for_pack(cls, name: str, root: Path) -> Entry:
        return cls(EntryKind.PACK, name, root, "", fold(name), 0)

    @classmethod
    def for_file(cls, pack_name: str, root: Path, rel: str) -> Entry:
        text = f"{pack_name}/{rel}"
        return cls(EntryKind.FILE, text, root, rel, fold(text), text.rfind("/") + 1)

    @property
    def path(self) -> Path:
        """What opening the entry opens: the pack root or the file."""
        return self.root / self.rel if self.rel else self.root


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


@dataclass(frozen=True, slots=True)
class PackListing:
    """What the index needs of one pack: its root, its name and its files' relative paths."""

    root: Path
    name: str
    files: list[str]
    """``/``-separated paths relative to the root (see ``list_files``)."""
    truncated: bool = False
    """True when the pack holds more than ``MAX_FILES_PER_PACK`` files and only the first were listed."""


# -- folding and queries -------------------------------------------------------------------------------


def fold(text: str) -> str:
    """Lower-case ``text`` without changing its length.

    ``str.lower`` turns a few characters into two (``İ``); those are kept as they are, so an index into
    the folded text is an index into the original, which is what highlighting needs.
    """
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(low if len(low := c.lower()) == 1 else c for c in text)


def normalise_query(query: str) -> str:
    """The query as matched: folded like entry texts, without whitespace (``north faq`` finds ``northwind/faq.md``)."""
    return fold("".join(query.split()))


# -- listing ---------------------------------------------------------------------------------------------


def list_files(root: Path, limit: int = MAX_FILES_PER_PACK) -> tuple[list[str], bool]:
    """The files under ``root`` as sorted ``/``-separated relative paths, and whether ``limit`` cut the list.

    Names only: nothing is opened or read. Dot-names and ``SKIPPED_DIRS`` are left out; a symlinked folder
    is never entered (it could loop or lead anywhere); a symlinked file is listed only when it stays inside
    the root and ends at a regular file; FIFOs, sockets and devices are left out.
    """
    with PackFS(root) as fs:  # one bounded walk by descriptor: a folder swapped for a link is never entered
        tree = fs.walk(max_depth=MAX_DEPTH, max_entries=max(limit * 4, 10_000), enter=_enter)
    states = {link.rel: link.state for link in tree.links}
    out: list[str] = []
    for entry in tree.files:
        if entry.rel.rsplit("/", 1)[-1].startswith("."):
            continue
        if not entry.is_regular and states.get(entry.rel) is not LinkState.FILE:
            continue  # FIFOs, sockets, devices; links out of the pack, to folders or nowhere
        if len(out) >= limit:
            out.sort()
            return out, True
        out.append(entry.rel)
    out.sort()
    return out, tree.stopped_at is not None


def _enter(_rel: str, name: str) -> bool:
    return not name.startswith(".") and name not in SKIPPED_DIRS


def list_pack(pack: Pack) -> PackListing:
    """The pack's name and files (see ``list_files`` for what is listed)."""
    files, truncated = list_files(pack.root)
    return PackListing(pack.root, pack.name, files, truncated)


def list_packs(packs: Iterable[Pack], cancelled: Callable[[], bool] | None = None) -> list[PackListing]:
    """``list_pack`` for each pack, stopping early (with what is done so far) once ``cancelled()`` is true."""
    out: list[PackListing] = []
    for pack in packs:
        if cancelled is not None and cancelled():
            break
        out.append(list_pack(pack))
    return out


def build_index(packs: Iterable[Pack]) -> Index:
    """Every pack and every pack's files, in ``tie_order``: what ``search`` searches."""
    return Index(list_packs(packs))


# -- matching --------------------------------------------------------------------------------------------


def _subsequence_pattern(query: str) -> re.Pattern[str]:
    # ``[^c]*+c`` per character, anchored with ``match``: one left-to-right pass per text, and the possessive
    # quantifier never backtracks, so a miss costs as little as a hit.
    return re.compile("".join(f"[^{re.escape(c)}]*+{re.escape(c)}" for c in query), re.DOTALL)


def _bonus(text: str, at: int) -> int:
    if at == 0:
        return BONUS_SEGMENT
    before = text[at - 1]
    if before == "/":
        return BONUS_SEGMENT
    if before in _WORD_SEPARATORS:
        return BONUS_WORD
    if before.islower() and text[at].isupper():
        return BONUS_CAMEL
    return 0


def _max_score(query: str) -> int:
    """The highest score any entry can give ``query``: the ceiling that lets a search stop early.

    Every character at best lands in the basename; the first at a segment start, each later one right after
    the previous match (a gap costs more than any position bonus brings), which earns a segment bonus only
    after a matched ``/``.
    """
    ceiling = SCORE_MATCH + BONUS_BASENAME + FIRST_CHAR_MULTIPLIER * BONUS_SEGMENT
    for before in query[:-1]:
        ceiling += SCORE_MATCH + BONUS_BASENAME + max(BONUS_SEGMENT if before == "/" else BONUS_WORD,
                                                      BONUS_CONSECUTIVE)
    return ceiling


def score(query: str, entry: Entry) -> tuple[int, tuple[int, ...]] | None:
    """The best-scoring alignment of a normalised query in ``entry``: (score, positions), or None if absent."""
    return _align(query, entry.text, entry.key, entry.base)


def _align(query: str, text: str, key: str, base: int) -> tuple[int, tuple[int, ...]] | None:
    """``score`` on an entry's columns.

    Exact under the scoring rules above, by dynamic programming over the places each query character can
    go. The gap penalty is linear, so the best gap predecessor of a place is a running maximum over the
    previous layer and each layer costs time linear in its number of places.
    """
    m = len(query)
    if m == 0:
        return 0, ()
    # The window each query character can occupy: no earlier than the leftmost alignment puts it, no later
    # than the rightmost one does. Places outside cannot be part of any alignment.
    lows: list[int] = []
    at = -1
    for c in query:
        at = key.find(c, at + 1)
        if at < 0:
            return None
        lows.append(at)
    highs = [0] * m
    at = len(key)
    for i in range(m - 1, -1, -1):
        at = key.rfind(query[i], 0, at)
        highs[i] = at
    c, end = query[0], highs[0] + 1
    places: list[int] = []
    scores: list[int] = []
    at = lows[0]
    while at >= 0:
        places.append(at)
        scores.append(SCORE_MATCH + FIRST_CHAR_MULTIPLIER * _bonus(text, at) + (BONUS_BASENAME if at >= base else 0))
        at = key.find(c, at + 1, end)
    layers = [places]
    origins: list[list[int]] = []
    for i in range(1, m):
        c, end = query[i], highs[i] + 1
        here: list[int] = []
        here_scores: list[int] = []
        here_from: list[int] = []
        count = len(places)
        j = 0  # sweeps the previous layer: its places before at - 1 are the gap predecessors seen so far
        best_gap, best_gap_place = 0, -1
        at = key.find(c, lows[i], end)
        while at >= 0:
            while j < count and places[j] < at - 1:
                value = scores[j] - GAP_EXTEND * places[j]
                if best_gap_place < 0 or value > best_gap:
                    best_gap, best_gap_place = value, places[j]
                j += 1
            own = SCORE_MATCH + (BONUS_BASENAME if at >= base else 0)
            bonus = _bonus(text, at)
            best, origin = 0, -1
            if best_gap_place >= 0:
                # A gap of g = at - p - 1 >= 1 characters costs GAP_START + GAP_EXTEND * (g - 1); the part
                # that depends on the predecessor p is folded into best_gap.
                best, origin = best_gap + GAP_EXTEND * (at - 2) + GAP_START + own + bonus, best_gap_place
            if j < count and places[j] == at - 1:
                run = scores[j] + own + max(bonus, BONUS_CONSECUTIVE)
                if origin < 0 or run >= best:
                    best, origin = run, at - 1
            if origin >= 0:
                here.append(at)
                here_scores.append(best)
                here_from.append(origin)
            at = key.find(c, at + 1, end)
        places, scores = here, here_scores
        layers.append(places)
        origins.append(here_from)
    top = max(range(len(places)), key=scores.__getitem__)
    positions = [places[top]]
    for i in range(m - 1, 0, -1):
        positions.append(origins[i - 1][layers[i].index(positions[-1])])
    positions.reverse()
    return scores[top], tuple(positions)


def tie_order(entry: Entry) -> tuple[int, int, str, str]:
    """How entries with the same score are ordered: shorter text, then packs before files, then by name."""
    return len(entry.text), entry.kind, entry.key, entry.text


class Index(Sequence[Entry]):
    """The entries a search runs over, in ``tie_order``, so a search can stop once nothing further down can
    enter the top.

    Held as columns of strings and ints, not as 40,000 ``Entry`` objects: the garbage collector does not
    track strings and ints, while every long-lived object it does track makes its full collections longer
    (building entries as objects in a worker set off one that held the GUI thread for 50-160 ms). ``Entry``
    objects are made on demand, for the few results shown. Immutable; safe to share with worker threads.
    """

    texts: list[str]
    keys: list[str]
    bases: list[int]
    splits: list[int]
    """Where the relative path starts in the text; 0 for a pack."""
    owners: list[int]
    """Index into ``roots`` of each entry's pack."""
    roots: list[Path]

    def __init__(self, listings: Iterable[PackListing] = ()) -> None:
        """The listed packs (each by name) and their files (each as ``<pack name>/<relative path>``)."""
        texts: list[str] = []
        splits: list[int] = []
        owners: list[int] = []
        roots: list[Path] = []
        for listing in listings:
            owner = len(roots)
            roots.append(listing.root)
            name = listing.name
            texts.append(name)
            splits.append(0)
            owners.append(owner)
            split = len(name) + 1
            for rel in listing.files:
                texts.append(f"{name}/{rel}")
                splits.append(split)
                owners.append(owner)
        keys = [fold(text) for text in texts]
        bases = [text.rfind("/") + 1 if split else 0 for text, split in zip(texts, splits, strict=True)]
        self._set(texts, keys, bases, splits, owners, roots, _tie_sorted(texts, keys, splits))

    @classmethod
    def of(cls, entries: Iterable[Entry]) -> Index:
        """An index of entries made one by one (``Entry.for_pack``, ``Entry.for_file``)."""
        rows = list(entries)
        roots: dict[Path, int] = {}
        owners = [roots.setdefault(e.root, len(roots)) for e in rows]
        texts, keys = [e.text for e in rows], [e.key for e in rows]
        splits = [len(e.text) - len(e.rel) if e.rel else 0 for e in rows]
        index = cls.__new__(cls)
        index._set(texts, keys, [e.base for e in rows], splits, owners, list(roots), _tie_sorted(texts, keys, splits))
        return index

    def without(self, roots: Iterable[Path]) -> Index:
        """This index minus the packs at ``roots`` (still in tie order; nothing is sorted again)."""
        leaving = set(roots)
        staying = [root for root in self.roots if root not in leaving]
        renumber = {old: new for new, old in enumerate(i for i, root in enumerate(self.roots) if root not in leaving)}
        keep = [i for i, owner in enumerate(self.owners) if owner in renumber]
        index = Index.__new__(Index)
        index._set(self.texts, self.keys, self.bases, self.splits, [renumber.get(o, -1) for o in self.owners],
                   staying, keep)
        return index

    def _set(self, texts: list[str], keys: list[str], bases: list[int], splits: list[int], owners: list[int],
             roots: list[Path], order: list[int]) -> None:
        self.texts = [texts[i] for i in order]
        self.keys = [keys[i] for i in order]
        self.bases = [bases[i] for i in order]
        self.splits = [splits[i] for i in order]
        self.owners = [owners[i] for i in order]
        self.roots = roots

    def kind(self, i: int) -> EntryKind:
        return EntryKind.FILE if self.splits[i] else EntryKind.PACK

    def __len__(self) -> int:
        return len(self.texts)

    @overload
    def __getitem__(self, i: int) -> Entry: ...
    @overload
    def __getitem__(self, i: slice) -> list[Entry]: ...
    def __getitem__(self, i: int | slice) -> Entry | list[Entry]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        split = self.splits[i]
        text = self.texts[i]
        return Entry(self.kind(i), text, self.roots[self.owners[i]], text[split:] if split else "", self.keys[i],
                     self.bases[i])


def _tie_sorted(texts: list[str], keys: list[str], splits: list[int]) -> list[int]:
    """Row numbers in ``tie_order``.

    Sorted by length first, then one small sort per length, on string keys: one sort of 40,000 rows is a
    single C call that keeps every other Python thread (the GUI's) waiting for tens of milliseconds, and
    tuple keys would be 40,000 more objects for the garbage collector to walk.
    """
    by_length: dict[int, list[int]] = {}
    for i, text in enumerate(texts):
        by_length.setdefault(len(text), []).append(i)
    order: list[int] = []
    for length in sorted(by_length):
        # Same length means same key length, so "kind, key, NUL, text" compares as (kind, key, text).
        order.extend(sorted(by_length[length], key=lambda i: f"{1 if splits[i] else 0}{keys[i]}\0{texts[i]}"))
    return order


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
    ceiling = _max_score(q)
    # A min-heap of the best so far: (score, -position in tie order, positions); its root is the weakest.
    best: list[tuple[int, int, tuple[int, ...]]] = []
    for n, i in enumerate(hits):
        if n % CHECK_EVERY == 0 and cancelled is not None and cancelled():
            return None
        aligned = _align(q, texts[i], keys[i], bases[i])
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
