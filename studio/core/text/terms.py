"""Text as the resolver's ranking and the search index see it: lower-cased words with a light plural fold, and
CJK character bigrams (a run of ideographs has no spaces; ``品牌语气`` -> ``品牌``, ``牌语``, ``语气``).

``terms`` gives a query's terms (stop words dropped), ``raw_bag`` an item's terms with their counts (unfolded,
unfiltered: the fold is applied on the query side through ``surface_forms``). One definition for the resolver
(``resolver.rank``), the search index's tokeniser and keywords, the evals and coverage: search must read text as
the resolver does, and a search must not import the resolver to learn how.
"""

from __future__ import annotations

import operator
import re
from collections import Counter
from functools import cache

from studio.core.text.stopwords import ENGLISH_STOPWORDS, is_stop_bigram

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"


@cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """The token, CJK-start, CJK-run and word patterns, compiled on first use: their CJK classes take 6 ms to
    compile, which every command importing this module paid at start (a warm search needs only ``fold``)."""
    return (re.compile(rf"[{_CJK}]+|[^\W_{_CJK}]+"), re.compile(rf"[{_CJK}]"), re.compile(rf"[{_CJK}]+"),
            re.compile(rf"[^\W_{_CJK}]+"))


_RUN_BYTES = bytes(
    b + 32 if chr(b) in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" else
    b if b >= 0x80 or chr(b) in "abcdefghijklmnopqrstuvwxyz0123456789_" else 0x20
    for b in range(256)
)
"""A ``bytes.translate`` table that lower-cases ASCII letters and blanks every ASCII byte but ``[a-z0-9_]``.
Splitting UTF-8 after it gives the maximal runs of ASCII word bytes and non-ASCII characters: every word and
CJK run lies inside exactly one, a run of ``[a-z0-9]`` alone is exactly one word, and runs never cut a
character. (``translate`` + ``split`` is about three times faster than ``findall`` of the same runs.)"""
STOPWORDS = ENGLISH_STOPWORDS
"""Query words the ranking ignores (kept under this name for ``report``; see ``studio.core.text.stopwords``)."""


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
    """The query terms of ``text``, in order: folded words and CJK bigrams, without stop words."""
    out: list[str] = []
    token, cjk_start, _, _ = _patterns()
    for match in token.findall(text.lower()):
        if cjk_start.match(match):
            out.extend(b for b in _bigrams(match) if not is_stop_bigram(b))
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
    _, _, cjk_run, word_pattern = _patterns()
    for run in odd:
        n = out.pop(run)
        decoded = run.decode("utf-8", "surrogatepass").lower()
        for word in word_pattern.findall(decoded):
            out[word.encode("utf-8", "surrogatepass")] += n
        for cjk in cjk_run.findall(decoded):
            for bigram in _bigrams(cjk):
                out[bigram.encode("utf-8", "surrogatepass")] += n
    return out
