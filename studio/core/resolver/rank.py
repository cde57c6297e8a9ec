"""Task relevance: Okapi BM25 over word terms and CJK character bigrams.

Why this choice: packs are small (hundreds of items), must work offline and deterministically, and are
written in English, Chinese or both. BM25 needs no model, is explainable (a score per item that a curator
can compare) and is fast enough to re-run on every slider move. Chinese has no spaces, so a run of CJK
ideographs becomes overlapping character bigrams (``品牌语气`` -> ``品牌``, ``牌语``, ``语气``) — the
standard trick for CJK retrieval without a segmenter; a single ideograph stays a unigram. Latin text becomes
lower-cased words with a light plural fold, minus a short stop list. Titles (path stem and heading) are
counted twice because curators name files and headings after what they hold.
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
_STOP_TEXT = (
    "a an and are as at be but by can do does for from has have how i in is it its me my no not of on or our "
    "please so that the their them then there these this to us was we what when where which who why will with "
    "you your"
)
STOPWORDS = frozenset(_STOP_TEXT.split(" "))


# The plural fold, done by two regex passes over the whole text (much faster than per word): "boundaries"
# -> "boundary", "warranties" -> "warranty", "kettles" -> "kettle"; "glass" keeps its "ss".
_IES = re.compile(r"(?<=[a-z]{2})ies\b")
_PLURAL_S = re.compile(r"(?<=[a-z]{3})(?<!s)s\b")


def _fold_text(text: str) -> str:
    return _PLURAL_S.sub("", _IES.sub("y", text.lower()))


def _keep(word: str) -> bool:
    return word not in STOPWORDS and (len(word) > 1 or word.isdigit())


def terms(text: str) -> list[str]:
    """The BM25 terms of ``text``, in order: folded words (no stop words) and CJK bigrams."""
    out: list[str] = []
    for match in _TOKEN.findall(_fold_text(text)):
        if _CJK_START.match(match):
            out.extend(_bigrams(match))
        elif _keep(match):
            out.append(match)
    return out


def _bigrams(run: str) -> list[str]:
    return [run] if len(run) == 1 else list(map(operator.add, run[:-1], run[1:]))


def _bag(text: str) -> Counter[str]:
    """``Counter(terms(text))``, computed faster: order does not matter, so words and CJK runs are found
    by C-level ``findall`` passes and only distinct words are filtered."""
    folded = _fold_text(text)
    out: Counter[str] = Counter(_WORD.findall(folded))
    for word in [w for w in out if not _keep(w)]:
        del out[word]
    for run in _CJK_RUN.findall(folded):
        out.update(_bigrams(run))
    return out


@dataclass(slots=True)
class DocTerms:
    """Term frequencies and length of one item (cacheable: depends on its text and title only)."""

    freqs: Counter[str]
    length: int

    @classmethod
    def of(cls, text: str, title: str = "") -> DocTerms:
        freqs = _bag(text)
        length = sum(freqs.values())
        title_words = terms(title)
        freqs.update(title_words * 2)
        return cls(freqs, length + 2 * len(title_words))

    def plus(self, extra: str) -> DocTerms:
        """A copy with the words of ``extra`` added (used for source-map claim texts)."""
        more = terms(extra)
        freqs = self.freqs.copy()
        freqs.update(more)
        return DocTerms(freqs, self.length + len(more))


class BM25Index:
    """BM25 over a fixed list of items; build once per pack state, score many tasks."""

    def __init__(self, docs: Sequence[DocTerms]) -> None:
        self.docs = list(docs)
        self.n = len(self.docs)
        self.avgdl = (sum(d.length for d in self.docs) / self.n) if self.n else 0.0
        df: Counter[str] = Counter()
        for d in self.docs:
            df.update(d.freqs.keys())
        self.idf = {t: math.log(1.0 + (self.n - f + 0.5) / (f + 0.5)) for t, f in df.items()}

    def scores(self, query_terms: Iterable[str]) -> list[float]:
        """One score per item, in item order; 0.0 for items sharing no term with the query."""
        q = [t for t in dict.fromkeys(query_terms) if t in self.idf]
        out = [0.0] * self.n
        if not q or self.avgdl == 0:
            return out
        for i, d in enumerate(self.docs):
            norm = K1 * (1 - B + B * d.length / self.avgdl)
            s = 0.0
            for t in q:
                f = d.freqs.get(t)
                if f:
                    s += self.idf[t] * f * (K1 + 1) / (f + norm)
            out[i] = s
        return out
