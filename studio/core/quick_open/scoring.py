"""How well one entry matches a query: the best alignment of the query's characters in the entry's text."""

from __future__ import annotations

from studio.core.quick_open.entries import Entry

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


def max_score(query: str) -> int:
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
    return align(query, entry.text, entry.key, entry.base)


def align(query: str, text: str, key: str, base: int) -> tuple[int, tuple[int, ...]] | None:
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
