"""Task relevance: field-weighted BM25 (BM25F) over word terms and CJK character bigrams, or plain BM25.

Why this choice: packs are small (hundreds of items), must work offline and deterministically, and are
written in English, Chinese or both. BM25 needs no model, is explainable (a score per item that a curator
can compare) and is fast enough to re-run on every slider move. Chinese has no spaces, so a run of CJK
ideographs becomes overlapping character bigrams (``品牌语气`` -> ``品牌``, ``牌语``, ``语气``) — the
standard trick for CJK retrieval without a segmenter; a single ideograph stays a unigram. Latin text becomes
lower-cased words with a light plural fold. Stop words (``studio.core.text.stopwords``: function words,
request words such as "write" or "tips", Chinese function words and bigrams straddling a particle such as
``的口``) are dropped from the query; items are indexed raw, which is what keeps indexing cheap.

Ranking variants (``RANKINGS``; ``ResolveRequest.ranking`` picks one, the evals compare them):

``bm25f`` (default)
    Curators name files and headings after what they hold, so an item has three fields: its *title* (file
    name, plus the section title for a document section), the *headings* inside it, and its *body* (all of
    its text). Body and headings share one saturating term frequency, BM25F-style (Robertson, Zaragoza and
    Taylor 2004: per-field length normalisation, then one saturation), with heading occurrences weighted
    ``HEADING_WEIGHT``. The title scores as a field of its own and is added with weight ``TITLE_WEIGHT``: under
    a single saturation a title match could never beat a body that repeats another query word thirty times
    ("fungi near the footpath": the trail notes say "footpath" on every line, the fungi notes' titles say
    "Fungi"), and a title is the strongest statement of what an item is about.
``bm25``
    Plain Okapi BM25 over one bag per item (title words counted once, like body words): the baseline the
    evals measure field weights against.

Item terms are kept as UTF-8 ``bytes``: finding and counting them in the encoded text is the cheapest way
Python has, and indexing is most of what a first resolve of a large pack costs besides reading it.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from studio.core.text.stopwords import FUNCTION_WORDS
from studio.core.text.terms import raw_bag, surface_forms

K1 = 1.2
B = 0.75
TITLE_B = 0.5
"""Titles are a few words long; their length says less about verbosity than a body's, so it normalises less."""
HEADING_WEIGHT = 2.0
"""A heading occurrence counts as this many body occurrences (on top of the one it is in the body)."""
TITLE_WEIGHT = 2.0
"""The title field's score is added with this weight: a title match outweighs a body that repeats another query
word (chosen on the field-guide case and checked on the bundled suites, where 1.0 to 3.0 rank alike)."""
MAX_CACHED_PARTS = 200_000
"""Per-term score parts an index remembers, counted in (item, part) pairs; past this the memory starts over."""
RANKINGS = ("bm25f", "bm25")
DEFAULT_RANKING = "bm25f"
_HEADING_LINE = re.compile(r"^ {0,3}#{1,6}[ \t]+([^\n]*)$", re.MULTILINE)

_NOT_CONTENT = frozenset(w.encode() for w in FUNCTION_WORDS | frozenset("abcdefghijklmnopqrstuvwxyz"))
"""Terms left out when items are compared with each other (split coverage): function words only, because
request words such as "write" are ordinary content inside a pack."""


@dataclass(slots=True)
class DocTerms:
    """Raw term counts of one item's fields (cacheable: depends on its text and title only)."""

    freqs: Counter[bytes]
    """Body: UTF-8 term -> count over the whole text, headings included (see ``raw_bag``)."""
    length: int
    title: Counter[bytes] = field(default_factory=Counter)
    """The item's title: file name, and the section title of a document section."""
    headings: Counter[bytes] = field(default_factory=Counter)
    """Every Markdown heading line inside the text (also counted in the body)."""

    @classmethod
    def of(cls, text: str, title: str = "", headings: str | None = None) -> DocTerms:
        """Terms of ``text`` (body), of ``title`` and of the heading lines in ``text``.

        ``headings`` gives the heading text when the caller knows it (a document section holds exactly one
        heading, its own title), which spares a scan of the text.
        """
        freqs = raw_bag(text)
        if headings is None:
            headings = "\n".join(_HEADING_LINE.findall(text)) if "#" in text else ""
        title_bag = raw_bag(title) if title else Counter()
        head_bag = (title_bag.copy() if headings == title else raw_bag(headings)) if headings else Counter()
        return cls(freqs, sum(freqs.values()), title_bag, head_bag)

    def plus(self, extra: str) -> DocTerms:
        """A copy with the words of ``extra`` added to the body (used for source-map claim texts)."""
        more = raw_bag(extra)
        freqs = self.freqs.copy()
        freqs.update(more)
        return DocTerms(freqs, self.length + sum(more.values()), self.title, self.headings)

    def content_terms(self) -> set[bytes]:
        """Distinct body and title terms without function words (for comparing items with each other)."""
        out = self.freqs.keys() - _NOT_CONTENT
        if self.title:
            out |= self.title.keys() - _NOT_CONTENT
        return out


def _postings(bags: Iterable[Counter[bytes]]) -> dict[bytes, list[tuple[int, int]]]:
    out: dict[bytes, list[tuple[int, int]]] = {}
    for i, bag in enumerate(bags):
        for term, n in bag.items():
            out.setdefault(term, []).append((i, n))
    return out


class BM25Index:
    """BM25F and plain BM25 over a fixed list of items; build once per pack state, score many tasks."""

    def __init__(self, docs: Sequence[DocTerms]) -> None:
        self.docs = list(docs)
        self.n = n = len(self.docs)
        self._bags = [d.freqs for d in self.docs]
        title_lengths = [sum(d.title.values()) for d in self.docs]
        head_lengths = [sum(d.headings.values()) for d in self.docs]
        self.avgdl = (sum(d.length for d in self.docs) / n) if n else 0.0
        avg_title = (sum(title_lengths) / n) if n else 0.0
        avg_head = (sum(head_lengths) / n) if n else 0.0
        avg_all = self.avgdl + avg_title
        # Titles and headings are sparse: postings lists touch only the items that have the term there.
        self._titles = _postings(d.title for d in self.docs)
        self._heads = _postings(d.headings for d in self.docs)
        self._body_norm = [1 - B + B * d.length / self.avgdl for d in self.docs] if self.avgdl else [1.0] * n
        self._head_norm = [1 - B + B * h / avg_head for h in head_lengths] if avg_head else [1.0] * n
        self._title_k = [K1 * (1 - TITLE_B + TITLE_B * t / avg_title) for t in title_lengths] if avg_title else (
            [K1] * n)
        self._plain_k = ([K1 * (1 - B + B * (d.length + t) / avg_all) for d, t in zip(self.docs, title_lengths,
                                                                                       strict=True)]
                         if avg_all else [K1] * n)
        self._body_postings: dict[bytes, dict[int, int]] | None = None
        self._parts: dict[tuple[str, bool], list[tuple[int, float]]] = {}
        """(query term, plain BM25?) -> what the term adds to each item: a task's words recur across tasks."""
        self._parts_size = 0

    def scores(self, query_terms: Iterable[str], ranking: str = DEFAULT_RANKING) -> list[float]:
        """One score per item, in item order; 0.0 for items sharing no term with the query.

        ``ranking`` is one of ``RANKINGS``; anything else scores as the default.
        """
        out = [0.0] * self.n
        bags = self._bags

        def body_tfs(key: bytes) -> dict[int, int]:
            # One flat pass over the bodies: cheaper than building postings for a pack scored only a few times.
            return {i: tf for i, bag in enumerate(bags) if (tf := bag.get(key, 0))}

        for i, score in self._scored(query_terms, ranking, body_tfs).items():
            out[i] = score
        return out

    def sparse_scores(self, query_terms: Iterable[str], ranking: str = DEFAULT_RANKING) -> dict[int, float]:
        """Item index -> score for the items sharing a term with the query (the same numbers as ``scores``).

        Uses body postings, built on the first call and kept with the index: touching only the items that hold a
        query word pays off for a caller scoring many tasks against one pack state (coverage).
        """
        if self._body_postings is None:
            self._body_postings = {t: dict(p) for t, p in _postings(self._bags).items()}
        postings = self._body_postings
        return self._scored(query_terms, ranking, lambda key: postings.get(key, {}))

    def _scored(self, query_terms: Iterable[str], ranking: str,
                body_tfs: Callable[[bytes], dict[int, int]]) -> dict[int, float]:
        """The scores of the items sharing a term with the query; ``body_tfs`` gives a term's body counts."""
        out: dict[int, float] = {}
        if not self.n or (self.avgdl == 0 and not self._titles):
            return out
        plain = ranking == "bm25"
        for term in dict.fromkeys(query_terms):
            key = (term, plain)
            parts = self._parts.get(key)
            if parts is None:
                parts = self._term_parts(term, plain, body_tfs)
                if self._parts_size > MAX_CACHED_PARTS:
                    self._parts.clear()
                    self._parts_size = 0
                self._parts[key] = parts
                self._parts_size += len(parts) + 1
            for i, x in parts:
                out[i] = out.get(i, 0.0) + x
        return out

    def _term_parts(self, term: str, plain: bool, body_tfs: Callable[[bytes], dict[int, int]],
                    ) -> list[tuple[int, float]]:
        """What ``term`` adds to each item's score, in the order it is added (so sums come out bit for bit)."""
        n = self.n
        tfs: dict[int, int] = {}
        titles: dict[int, int] = {}
        heads: dict[int, int] = {}
        for form in surface_forms(term):
            key = form.encode("utf-8", "surrogatepass")
            for i, c in body_tfs(key).items():
                tfs[i] = tfs.get(i, 0) + c
            for i, c in self._titles.get(key, ()):
                titles[i] = titles.get(i, 0) + c
            for i, c in self._heads.get(key, ()):
                heads[i] = heads.get(i, 0) + c
        df = len(tfs) + sum(1 for i in titles if i not in tfs)
        if not df:
            return []
        idf = math.log(1.0 + (n - df + 0.5) / (df + 0.5))
        if plain:
            k = self._plain_k
            return [(i, idf * tf * (K1 + 1) / (tf + k[i]))
                    for i in tfs.keys() | titles.keys() if (tf := tfs.get(i, 0) + titles.get(i, 0))]
        body_norm, head_norm, title_k = self._body_norm, self._head_norm, self._title_k
        parts = []
        for i, tf in tfs.items():
            weighted = tf / body_norm[i]
            if i in heads:
                weighted += HEADING_WEIGHT * heads[i] / head_norm[i]
            parts.append((i, idf * weighted * (K1 + 1) / (weighted + K1)))
        parts.extend((i, TITLE_WEIGHT * idf * tf * (K1 + 1) / (tf + title_k[i])) for i, tf in titles.items())
        return parts
