"""Keywords of the compressed index (L0): each file's most distinctive words by tf-idf across the index's files.

Candidate terms of a file are its lower-cased words of three letters or more that are not common words, folded
(``refunds`` -> ``refund``), and its CJK character pairs (``品牌语气`` -> ``品牌``, ``牌语``, ``语气``): the
resolver's terms (``text.terms.raw_bag``) narrowed to what can be a keyword. They are found here directly
instead of cutting every term of the text and sorting the few candidates out afterwards: on 100 packs of the
1,000-pack corpus 0.9 s of CPU instead of 2.4 s. A property test holds both to the same terms.
"""

from __future__ import annotations

import heapq
import math
import operator
import re
from collections import Counter
from collections.abc import Iterable

from studio.core.text.terms import STOPWORDS, fold, raw_bag

KEYWORDS = 5
NOT_KEYWORDS = frozenset({
    "one", "two", "three", "use", "used", "using", "via", "per", "etc", "hoc", "read", "see", "new", "well",
    "yes", "non", "able", "based", "include", "including", "example", "first", "next",
    "last", "always", "never", "usually", "often", "instead", "rather", "without", "keep", "kept",
})
"""Words the query stop list keeps (they can matter in a question) that still name no topic of a file, and
fragments of Latin phrases (``ad hoc``): never a keyword."""

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
"""The resolver's CJK ranges (``resolver.rank``): kana, ideographs (and extension A, compatibility), Hangul."""
_WORD = re.compile(rf"[^\W_{_CJK}]+")
"""A word as the resolver cuts them: a run of letters and digits, CJK excluded."""
_LATIN = re.compile(r"[a-z]{3,}")
MIXED = "\0mixed"
"""The class of a byte run holding non-ASCII characters (no term is this: terms have no NUL)."""
_UNSEEN = "\0unseen"
_CJK_RUN = re.compile(rf"[{_CJK}]{{2,}}")
_RUN_BYTES = bytes(b + 32 if 65 <= b <= 90 else b if 97 <= b <= 122 or 48 <= b <= 57 or b >= 0x80 else 32
                   for b in range(256))
"""A ``bytes.translate`` table: ASCII letters lower-cased, ASCII digits and non-ASCII bytes kept, every other
ASCII byte (``_`` too: it parts words, as in the resolver) a space."""


class Folds:
    """Word -> candidate term, or None; remembered across the files of one index (a workspace repeats the same
    words thousands of times). A candidate is a word of three letters a-z but a common one, folded, or (as the
    resolver's CJK pairs are two characters) a word of two letters that are not both ASCII."""

    def __init__(self) -> None:
        self._seen: dict[str, str | None] = {}
        self.runs: dict[bytes, str | None] = {}
        """A byte run of ``file_terms`` -> its candidate term, None, or ``MIXED`` (a run to search as text)."""
        self._words: dict[str, str] = {}
        """Folded term -> a word it was folded from, for terms not seen as words themselves (``shown``)."""
        self._whole: set[str] = set()

    def __call__(self, word: str) -> str | None:
        term = self._seen.get(word, "")
        if term == "":
            if _LATIN.fullmatch(word):
                term = None if word in STOPWORDS else fold(word)
            else:
                term = word if len(word) == 2 and not word.isascii() and word.isalpha() else None
            self._seen[word] = term
            if term == word:
                self._whole.add(term)
            elif term is not None:
                self._words.setdefault(term, word)
        return term

    def shown(self, term: str) -> str:
        """The keyword as a reader sees it: the term when the text has it as a word, else a word it was folded
        from (``indexes`` for the term ``indexe``, which is no word)."""
        return term if term in self._whole else self._words.get(term, term)

    def run(self, run: bytes) -> str | None:
        """The class of a byte run not seen before (and remember it)."""
        if not run.isascii():
            term: str | None = MIXED
        elif run.isalpha() and len(run) >= 3:
            term = self(run.decode("ascii"))
        else:
            term = None
        self.runs[run] = term
        return term


def file_terms(text: str, folds: Folds) -> Counter[str]:
    """The candidate keywords of ``text`` with their counts.

    The text is cut, as bytes, into runs of ASCII letters and digits and non-ASCII characters (a C-level
    ``translate`` and ``split``, three times faster than a regex): a run of ASCII alone is a word as it is; the
    few runs holding other characters (an accented word, a curly quote, Chinese) are searched with the word
    and CJK patterns, all in one string.
    """
    if "\u03a3" in text:  # capital sigma lower-cases by its context, which the runs alone do not have
        text = text.lower()
    out: Counter[str] = Counter()
    get = out.get
    runs = Counter(text.encode("utf-8", "surrogatepass").translate(_RUN_BYTES).split())
    known = folds.runs.get
    mixed: list[bytes] = []
    for run, count in runs.items():
        term = known(run, _UNSEEN)
        if term is _UNSEEN:
            term = folds.run(run)
        if term is None:
            continue
        if term is MIXED:
            mixed.extend([run] * count)
        else:
            out[term] = get(term, 0) + count
    if not mixed:
        return out
    rest = b"\0".join(mixed).decode("utf-8", "surrogatepass").lower()
    for word in _WORD.findall(rest):
        term = folds(word)
        if term is not None:
            out[term] = get(term, 0) + 1
    # Every pair of neighbouring characters of the CJK runs, counted in one pass over the runs joined by a
    # character that is no letter: the pairs that straddle two runs hold it and are left out with the others
    # that are no word (a kana mark such as ・).
    joined = "\0".join(_CJK_RUN.findall(rest))
    for pair, count in Counter(map(operator.add, joined[:-1], joined[1:])).items():
        if pair.isalpha():
            out[pair] = get(pair, 0) + count
    return out


class Scorer:
    """Picks each file's keywords once every file's terms are known (``df`` counts files per term)."""

    def __init__(self, df: Counter[str], files: int) -> None:
        self.df = df
        self.files = files
        self._weights: dict[str, float] | None = None

    def keywords(self, terms: Counter[str], known: str) -> tuple[str, ...]:
        """The file's most distinctive terms (tf-idf), leaving out what ``known`` (its title and path) says.

        A term in more than half the files says nothing about any of them; a CJK pair must occur twice in the
        file and in two files, since most pairs straddle two words. Words that name no topic (``NOT_KEYWORDS``)
        are never keywords.
        """
        weights = self._weights
        if weights is None:
            weights = self._weights = self._weigh()
        scored = [(tf * weight, word) for word, tf in terms.items()
                  if (weight := weights[word]) > 0 and (tf > 1 or word.isascii())]
        seen = {fold(t.decode("utf-8", "replace")) for t in raw_bag(known)}
        best = heapq.nsmallest(KEYWORDS + len(seen), scored, key=lambda s: (-s[0], s[1]))
        return tuple(word for _score, word in best if word not in seen)[:KEYWORDS]

    def _weigh(self) -> dict[str, float]:
        """Each term's idf, or 0 for a term that cannot be a keyword (too common, or a CJK pair of one file)."""
        files = self.files
        out: dict[str, float] = {}
        for word, n in self.df.items():
            if files > 3 and n * 2 > files or (n < 2 and not word.isascii()) or word in NOT_KEYWORDS:
                out[word] = 0.0
            else:
                out[word] = math.log(1 + files / n)
        return out


def document_frequencies(bags: Iterable[Counter[str]]) -> Counter[str]:
    df: Counter[str] = Counter()
    for bag in bags:
        df.update(bag.keys())
    return df
