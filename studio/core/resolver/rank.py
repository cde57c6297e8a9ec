"""Task relevance: Okapi BM25 over word terms and CJK character bigrams.

Why this choice: packs are small (hundreds of items), must work offline and deterministically, and are
written in English, Chinese or both. BM25 needs no model, is explainable (a score per item that a curator
can compare) and is fast enough to re-run on every slider move. Chinese has no spaces, so a run of CJK
ideographs becomes overlapping character bigrams (``品牌语气`` -> ``品牌``, ``牌语``, ``语气``) — the
standard trick for CJK retrieval without a segmenter; a single ideograph stays a unigram. Latin text becomes
lower-cased words with a light plural fold, minus a short stop list (both applied to the query: items are
indexed raw, which is what keeps indexing cheap). Titles (path stem and heading) are counted twice because
curators name files and headings after what they hold.

Item terms are kept as UTF-8 ``bytes``: finding and counting them in the encoded text is the cheapest way
Python has, and indexing is most of what a first resolve of a large pack costs besides reading it.
"""

from __future__ import annotations

import math
import operator
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

K1 = 1.2
B = 0.75

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_TOKEN = re.compile(rf"[{_CJK}]+|[^\W_{_CJK}]+")
_CJK_START = re.compile(rf"[{_CJK}]")
_CJK_RUN = re.compile(rf"[{_CJK}]+")
_WORD = re.compile(rf"[^\W_{_CJK}]+")
_RUN_BYTES = bytes(
    b + 32 if chr(b) in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" else
    b if b >= 0x80 or chr(b) in "abcdefghijklmnopqrstuvwxyz0123456789_" else 0x20
    for b in range(256)
)
"""A ``bytes.translate`` table that lower-cases ASCII letters and blanks every ASCII byte but ``[a-z0-9_]``.
Splitting UTF-8 after it gives the maximal runs of ASCII word bytes and non-ASCII characters: every word and
CJK run lies inside exactly one, a run of ``[a-z0-9]`` alone is exactly one word, and runs never cut a
character. (``translate`` + ``split`` is about three times faster than ``findall`` of the same runs.)"""
_STOP_TEXT = (
    "a an and are as at be but by can do does for from has have how i in is it its me my no not of on or our "
    "please so that the their them then there these this to us was we what when where which who why will with "
    "you your"
)
STOPWORDS = frozenset(_STOP_TEXT.split(" "))
_NOT_CONTENT = frozenset(w.encode() for w in STOPWORDS | frozenset("abcdefghijklmnopqrstuvwxyz"))


def fold(word: str) -> str:
    """The light plural fold: "boundaries" -> "boundary", "kettles" -> "kettle"; "glass" keeps its "ss"."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def surface_forms(term: str) -> tuple[str, ...]:
    """Words whose fold is ``term``, among the few the fold can produce it from."""
    options = [term, term + "s"]
    if term.endswith("y"):
        options.append(term[:-1] + "ies")
    return tuple(w for w in dict.fromkeys(options) if fold(w) == term)


def _keep(word: str) -> bool:
    return word not in STOPWORDS and (len(word) > 1 or word.isdigit())


def terms(text: str) -> list[str]:
    """The query terms of ``text``, in order: folded words (no stop words) and CJK bigrams."""
    out: list[str] = []
    for match in _TOKEN.findall(text.lower()):
        if _CJK_START.match(match):
            out.extend(_bigrams(match))
        elif _keep(match):
            out.append(fold(match))
    return out


def _bigrams(run: str) -> list[str]:
    return [run] if len(run) == 1 else list(map(operator.add, run[:-1], run[1:]))


def raw_bag(text: str) -> Counter[bytes]:
    """Every lower-cased word and CJK bigram of ``text`` (UTF-8 encoded) with its count, unfolded and unfiltered.

    Items are indexed raw because that takes a few C-level passes and a ``Counter``; the fold and the stop
    list are applied on the query side (``surface_forms``), which has a handful of words. The passes cut
    whole runs of word bytes and non-ASCII characters, and only the few *distinct* runs that hold an
    underscore or a non-ASCII character are cut into words and CJK bigrams afterwards (the same terms as
    the word and CJK patterns find in the whole text, at a fraction of the cost: most runs are plain words).
    """
    # Only runs with non-ASCII characters need str.lower(), and lower-casing them one by one is the same as
    # lower-casing the text, except for capital sigma, which str.lower() turns into a final sigma by context.
    if "\u03a3" in text:
        text = text.lower()
    data = text.encode("utf-8", "surrogatepass")
    out: Counter[bytes] = Counter(data.translate(_RUN_BYTES).split())
    odd = [] if data.isascii() else [r for r in out if not r.isascii()]
    if b"_" in data:
        odd += [r for r in out if b"_" in r and r.isascii()]
    for run in odd:
        n = out.pop(run)
        decoded = run.decode("utf-8", "surrogatepass").lower()
        for word in _WORD.findall(decoded):
            out[word.encode("utf-8", "surrogatepass")] += n
        for cjk in _CJK_RUN.findall(decoded):
            for bigram in _bigrams(cjk):
                out[bigram.encode("utf-8", "surrogatepass")] += n
    return out


@dataclass(slots=True)
class DocTerms:
    """Raw term counts and length of one item (cacheable: depends on its text and title only)."""

    freqs: Counter[bytes]
    """UTF-8 term -> count (see ``raw_bag``)."""
    length: int

    @classmethod
    def of(cls, text: str, title: str = "") -> DocTerms:
        """Terms of ``text``, with the terms of ``title`` counted twice (one pass: no term spans a line break)."""
        freqs = raw_bag(f"{text}\n{title}\n{title}")
        return cls(freqs, sum(freqs.values()))

    def plus(self, extra: str) -> DocTerms:
        """A copy with the words of ``extra`` added (used for source-map claim texts)."""
        more = raw_bag(extra)
        freqs = self.freqs.copy()
        freqs.update(more)
        return DocTerms(freqs, self.length + sum(more.values()))

    def content_terms(self) -> set[bytes]:
        """Distinct terms without stop words (for comparing items with each other)."""
        return self.freqs.keys() - _NOT_CONTENT


class BM25Index:
    """BM25 over a fixed list of items; build once per pack state, score many tasks."""

    def __init__(self, docs: Sequence[DocTerms]) -> None:
        self.docs = list(docs)
        self.n = len(self.docs)
        self.avgdl = (sum(d.length for d in self.docs) / self.n) if self.n else 0.0
        self._norms = [K1 * (1 - B + B * d.length / self.avgdl) for d in self.docs] if self.avgdl else []

    def scores(self, query_terms: Iterable[str]) -> list[float]:
        """One score per item, in item order; 0.0 for items sharing no term with the query."""
        out = [0.0] * self.n
        if self.avgdl == 0:
            return out
        norms = self._norms
        bags = [d.freqs for d in self.docs]
        for term in dict.fromkeys(query_terms):
            # One flat pass per surface form: this runs on every re-run, for every item.
            tfs = [0] * self.n
            for form in surface_forms(term):
                key = form.encode("utf-8", "surrogatepass")
                tfs = [tf + bag.get(key, 0) for tf, bag in zip(tfs, bags, strict=True)]
            df = sum(1 for tf in tfs if tf)
            if not df:
                continue
            idf = math.log(1.0 + (self.n - df + 0.5) / (df + 0.5))
            for i, tf in enumerate(tfs):
                if tf:
                    out[i] += idf * tf * (K1 + 1) / (tf + norms[i])
        return out
