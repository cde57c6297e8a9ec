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
from collections.abc import Iterable, Sequence
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

    def scores(self, query_terms: Iterable[str], ranking: str = DEFAULT_RANKING) -> list[float]:
        """One score per item, in item order; 0.0 for items sharing no term with the query.

        ``ranking`` is one of ``RANKINGS``; anything else scores as the default.
        """
        n = self.n
        out = [0.0] * n
        if not n or (self.avgdl == 0 and not self._titles):
            return out
        plain = ranking == "bm25"
        bags = self._bags
        for term in dict.fromkeys(query_terms):
            # One flat pass per surface form over the bodies: this runs on every re-run, for every item.
            tfs = [0] * n
            titles: dict[int, int] = {}
            heads: dict[int, int] = {}
            for form in surface_forms(term):
                key = form.encode("utf-8", "surrogatepass")
                tfs = [tf + bag.get(key, 0) for tf, bag in zip(tfs, bags, strict=True)]
                for i, c in self._titles.get(key, ()):
                    titles[i] = titles.get(i, 0) + c
                for i, c in self._heads.get(key, ()):
                    heads[i] = heads.get(i, 0) + c
            df = n - tfs.count(0) + sum(1 for i in titles if not tfs[i])
            if not df:
                continue
            idf = math.log(1.0 + (n - df + 0.5) / (df + 0.5))
            if plain:
                k = self._plain_k
                for i in range(n):
                    tf = tfs[i] + titles.get(i, 0)
                    if tf:
                        out[i] += idf * tf * (K1 + 1) / (tf + k[i])
                continue
            body_norm, head_norm = self._body_norm, self._head_norm
            for i, tf in enumerate(tfs):
                if tf:
                    weighted = tf / body_norm[i]
                    if heads and i in heads:
                        weighted += HEADING_WEIGHT * heads[i] / head_norm[i]
                    out[i] += idf * weighted * (K1 + 1) / (weighted + K1)
            title_k = self._title_k
            for i, tf in titles.items():
                out[i] += TITLE_WEIGHT * idf * tf * (K1 + 1) / (tf + title_k[i])
        return out
