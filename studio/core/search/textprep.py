"""Text for the search engine and user text turned into an engine query, for English words and Chinese alike.

Tokenisation: the engine's simple tokenizer (runs of letters and digits, lower-cased, diacritics folded; see
``engine``) with every CJK character made a token of its own here, by putting spaces around it before the
engine sees the text, and Chinese words searched as phrases of adjacent characters. Measured earlier with
``bench/bench_search.py --tokenizers`` (200 packs of the 1,000-pack corpus, 25 English and 25 Chinese queries)
against the alternatives: trigrams cannot match a query shorter than three characters, and most Chinese words
are two (``语气``, ``品牌``: 19 of 25 sampled Chinese queries found nothing), at 9x the indexing time and 5.5x
the size; a whole run of Chinese kept as one token is never found by a word inside it; CJK bigrams find the
same texts as single characters with phrases but cost 5x the preparation. The engine's regex tokenizer could
cut CJK characters itself, but over Unicode classes it indexed 4.5x slower than spreading them here.

A phrase of single characters must not run across punctuation (``阶，段`` is not ``阶段``), so each CJK
punctuation mark becomes a boundary token (``BOUNDARY``, a letter of an archaic script that the tokenizer keeps
as a word and no query contains unless it was typed). A single query word also matches its plural forms, with
the resolver's light plural fold (``studio.core.resolver.rank``); a word ending in ``*`` stands for the
commonest indexed words it begins (``engine.completions``).

User text never reaches the engine as syntax: every word or ``"quoted phrase"`` becomes a quoted string (quotes
and backslashes taken out), so ``AND``, ``NEAR``, ``field:``, unbalanced quotes or a lone ``*`` are searched as text
or dropped, never a syntax error. Inside the quotes is the user's text as the index was given its text
(``index_text``), and the engine's own analyzer (``Analyze``) says which words it keeps: Python's idea of a letter
is not Rust's (a Devanagari or Thai vowel sign is a letter to the engine and a gap to Python's ``\\w``), and the
engine drops words of ``engine.MAX_TOKEN_BYTES`` or more; tokens cut by Python found nothing in Hindi, and a term
the engine drops whole made the query an error. Python's tokens (``Term.tokens``) serve only what the engine does
not do: common words, plural forms, highlights.

Both sides are normalised first (``normal``): NFC, so a decomposed ``école`` is the precomposed one, and the
capital dotted I made a plain I, since lower-casing it leaves a combining dot that splits the word in two.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from studio.core.text.terms import STOPWORDS, fold, surface_forms

BOUNDARY = "\ua66e"
"""Token put where CJK punctuation was, so that a phrase of characters cannot match across it (CYRILLIC LETTER
MULTIOCULAR O: a letter, so the engine's tokenizer keeps it, from a script no pack is written in)."""
MAX_QUERY_CHARS = 1000
MAX_TERMS = 32

_CJK_RANGES = ((0x3040, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0xAC00, 0xD7AF))
"""Kana, CJK ideographs (and extension A, compatibility) and Hangul: the resolver's CJK ranges."""
_CJK_PUNCT_RANGES = ((0x3000, 0x303F), (0xFF01, 0xFF0F), (0xFF1A, 0xFF20), (0xFF3B, 0xFF40), (0xFF5B, 0xFF65))
_CJK_CLASS = "".join(f"{chr(a)}-{chr(b)}" for a, b in _CJK_RANGES)
_CJK_PUNCT_CLASS = "".join(f"{chr(a)}-{chr(b)}" for a, b in _CJK_PUNCT_RANGES)
_TOKEN = rf"[{_CJK_CLASS}]|[{_CJK_PUNCT_CLASS}{BOUNDARY}]|[^\W_{_CJK_CLASS}{BOUNDARY}]+"
"""What the engine makes a token of, once CJK characters stand alone: runs of letters and digits, single CJK
characters, and CJK punctuation (indexed as ``BOUNDARY``)."""
_ASCII_TOKEN = re.compile(r"[A-Za-z0-9]+")
"""``_TOKEN`` on ASCII text, where no CJK character or boundary can be: it finds letters and digits there."""


@functools.cache
def _compiled(source: str) -> re.Pattern[str]:
    """The patterns over CJK ranges, compiled when text that is not ASCII first needs them: with their Unicode
    classes the three took 3.3 ms to compile, a fifteenth of a warm ``pack-studio search`` over 1,000 packs, and
    an English query or text never uses them."""
    return re.compile(source)


Mode = Literal["all", "any"]


def _in(ranges: tuple[tuple[int, int], ...], code: int) -> bool:
    return any(a <= code <= b for a, b in ranges)


_PUNCT_CLASS = _CJK_PUNCT_CLASS
_CJK_RUN = rf"([{_CJK_CLASS}{_PUNCT_CLASS}{BOUNDARY}]+)"
_PUNCT = rf"[{_PUNCT_CLASS}{BOUNDARY}]"


ARRAY_MIN_CHARS = 512
"""From this length on, text is spread with array operations (numpy) rather than string joins."""


def normal(text: str) -> str:
    """``text`` in the one form the index and queries share: NFC, with the capital dotted I (U+0130) a plain I."""
    if text.isascii():
        return text
    return unicodedata.normalize("NFC", text).replace("\u0130", "I")


def index_text(text: str) -> str:
    """``text`` as the engine's tokenizer should see it (``normal``): each CJK character a token, CJK punctuation
    a boundary.

    Short text: split at runs of CJK characters and spread each run out with ``str.join`` (twice as fast as a
    ``str.translate`` table or a regex substitution, which pay a Python step per character or per match). Long
    text (a row of the index): the same with numpy over the text's code points, since ``str.join`` still makes
    a string object per CJK character: on the 1,000-pack corpus 0.4 s of CPU instead of 2.4 s.
    Both put a space before and after every CJK character and punctuation mark and turn the marks into
    ``BOUNDARY``, so the engine reads the same tokens from either.
    """
    if text.isascii():
        return text
    text = normal(text)
    if len(text) >= ARRAY_MIN_CHARS:
        return _spread_array(text)
    return _spread_runs(text)


def _spread_runs(text: str) -> str:
    parts = _compiled(_CJK_RUN).split(text)
    if len(parts) == 1:
        return text
    parts[1::2] = [" " + " ".join(run) + " " for run in parts[1::2]]
    spread = "".join(parts)
    # Pack text cannot forge a boundary: a BOUNDARY already in the text becomes one like any punctuation.
    punct = _compiled(_PUNCT)
    return punct.sub(BOUNDARY, spread) if punct.search(spread) else spread


_CLASSES: list[Any] = []
"""The code point -> class table of ``_spread_array`` (0 other, 1 CJK character, 2 CJK punctuation), made once."""


def _spread_array(text: str) -> str:
    import numpy as np

    if not _CLASSES:
        table = np.zeros(0x10000, dtype=np.uint8)
        for a, b in _CJK_RANGES:
            table[a:b + 1] = 1
        for a, b in _CJK_PUNCT_RANGES:
            table[a:b + 1] = 2
        table[ord(BOUNDARY)] = 2
        _CLASSES.append(table)
    points = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    kind = _CLASSES[0].take(points, mode="clip")  # past U+FFFF: U+FFFF's class, 0
    count = int(np.count_nonzero(kind))
    if not count:
        return text
    # A code point's place: its index, plus two for each special one before it, plus one if it is special
    # itself (the space put before it); the spaces around special ones fill the places left over.
    special = (kind != 0).astype(np.int32)
    places = np.cumsum(special * 2 + 1, dtype=np.int32) - 1 - special
    out = np.full(points.size + 2 * count, ord(" "), dtype=np.uint32)
    out[places] = np.where(kind == 2, np.uint32(ord(BOUNDARY)), points)
    return out.tobytes().decode("utf-32-le", "surrogatepass")


@dataclass(frozen=True, slots=True)
class Term:
    """One searched unit: a word, or a phrase whose tokens must be adjacent."""

    text: str
    """As the user wrote it (without quotes or the trailing ``*``)."""
    tokens: tuple[str, ...]
    """Lower-cased words and single CJK characters, in order."""
    quoted: bool = False
    prefix: bool = False
    engine_text: str = ""
    """What the engine is given to analyse: the text as the index was given its text, without quotes, backslashes
    or boundaries at either end."""

    @property
    def is_word(self) -> bool:
        """A single Latin word (its plural forms are searched too)."""
        return len(self.tokens) == 1 and not self.quoted and not self.prefix and not _is_cjk(self.tokens[0])


@dataclass(frozen=True, slots=True)
class Query:
    """Parsed user text: the terms searched, the words left out, and what to tell the user about it."""

    text: str
    terms: tuple[Term, ...]
    dropped: tuple[str, ...] = ()
    """Common words left out (``the``, ``how``) and terms past ``MAX_TERMS``."""
    note: str = ""

    @property
    def empty(self) -> bool:
        return not self.terms


def _is_cjk(token: str) -> bool:
    return len(token) == 1 and _in(_CJK_RANGES, ord(token))


_CHUNK = re.compile(r'"([^"]*)"?|([^\s"]+)')


def parse_query(text: str) -> Query:
    """Words and ``"quoted phrases"`` of ``text``; a trailing ``*`` makes a prefix. Never raises.

    A chunk without spaces is one term (``tenant-isolation`` and ``品牌语气`` are phrases of their tokens).
    Common English words are dropped unless quoted or unless nothing else is left.
    """
    note = ""
    if len(text) > MAX_QUERY_CHARS:
        text, note = text[:MAX_QUERY_CHARS], f"Only the first {MAX_QUERY_CHARS} characters were searched."
    text = normal(text.encode("utf-8", "replace").decode("utf-8"))  # lone surrogates: never stored, never sent
    terms: list[Term] = []
    common: list[Term] = []
    for m in _CHUNK.finditer(text):
        quoted = m.group(1) is not None
        raw = m.group(1) if quoted else m.group(2)
        prefix = not quoted and raw.endswith("*")
        raw = raw.rstrip("*") if prefix else raw
        if raw.isascii():
            tokens = tuple(t.lower() for t in _ASCII_TOKEN.findall(raw))
        else:
            tokens = tuple(_token(t) for t in _compiled(_TOKEN).findall(raw))
        while tokens and tokens[0] == BOUNDARY:
            tokens = tokens[1:]
        while tokens and tokens[-1] == BOUNDARY:
            tokens = tokens[:-1]
        if not tokens:
            continue
        term = Term(raw, tokens, quoted, prefix and not _is_cjk(tokens[-1]), _engine_text(raw))
        (common if term.is_word and tokens[0] in STOPWORDS else terms).append(term)
    if not terms:
        terms, common = common, []
    dropped = [t.text for t in common]
    if len(terms) > MAX_TERMS:
        dropped += [t.text for t in terms[MAX_TERMS:]]
        terms = terms[:MAX_TERMS]
        note = (note + " " if note else "") + f"Only the first {MAX_TERMS} terms were searched."
    return Query(text, tuple(terms), tuple(dropped), note)


def _token(raw: str) -> str:
    return BOUNDARY if len(raw) == 1 and _compiled(_PUNCT).match(raw) else raw.lower()


_UNQUOTABLE = str.maketrans({'"': " ", "\\": " "})
"""Inside a quoted string only these two mean anything to the engine's query parser."""


def _engine_text(raw: str) -> str:
    return index_text(raw).translate(_UNQUOTABLE).strip(" " + BOUNDARY)


def _quoted(text: str) -> str:
    return '"' + text.translate(_UNQUOTABLE) + '"'


Completions = Callable[[str], list[str]]
"""A prefix (as the engine's analyzer leaves it) -> the indexed words it begins (``engine.Engine.completions``)."""
Analyze = Callable[[str], list[str]]
"""Text -> the words the engine's analyzer makes of it (``engine.Engine.tokens``)."""


def term_expression(term: Term, complete: Completions, analyze: Analyze) -> str | None:
    """One term in the engine's query language: a quoted phrase, the plural forms of a word, a phrase ending in a
    prefix, or a single prefix's completions; None when the engine keeps no word of it (all too long)."""
    words = analyze(term.engine_text)
    if not words:
        return None
    if term.is_word and analyze(term.tokens[0]) == words:  # Python's word is the engine's (not a piece of it)
        # Forms the engine reads as the same word are given once: each one given adds to the score.
        kept: dict[tuple[str, ...], str] = {tuple(words): term.engine_text}
        for form in surface_forms(fold(term.tokens[0])):
            kept.setdefault(tuple(analyze(form)) or (form,), form)
        return any_of(list(kept.values()))
    if term.prefix and len(words) == 1:
        # A completion is a word of the index, so the analyzer keeps it as it is unless it is not a plain word.
        completions = [w for w in complete(words[0]) if analyze(w) == [w]]
        return any_of(completions or [term.engine_text])
    return _quoted(term.engine_text) + ("*" if term.prefix else "")


def any_of(texts: list[str]) -> str:
    unique = list(dict.fromkeys(texts))
    if len(unique) == 1:
        return _quoted(unique[0])
    return "(" + " OR ".join(_quoted(t) for t in unique) + ")"


def engine_expression(query: Query, mode: Mode, complete: Completions, analyze: Analyze) -> str | None:
    """The engine's query text for ``query`` (None when there is nothing to search: no term, or only terms the
    engine keeps no word of)."""
    parts = [p for p in (term_expression(t, complete, analyze) for t in query.terms) if p is not None]
    if not parts:
        return None
    return (" AND " if mode == "all" else " OR ").join(parts)


_GAP = r"(?:[^\w\n]|_){0,8}"
"""What may sit between two tokens of a phrase in the original text (spaces, punctuation; not a line break, so
that no match spans two lines and a section can be searched as one string)."""


_PUNCT_PIECE = r"[^\w\s]"
"""A CJK punctuation mark in the original text (any punctuation: a short class compiles fast)."""


class Highlighter:
    """Finds the query's terms in original text (case-insensitive), for snippets and highlights.

    The regex holds only escaped literals and ``\\W`` gaps, so it compiles in a fraction of a millisecond
    (character classes spanning the CJK blocks take 10-20 ms to compile case-insensitively, once per query);
    that a Latin match does not start or end inside a longer word is checked on each match instead.
    Approximate where the engine folds more than a regex can (diacritics): a snippet then falls back to the
    section's first line. Text is matched lower-cased against the (lower-case) terms where lower-casing keeps
    its length, which is twice as fast as a case-insensitive regex; otherwise case-insensitively.
    """

    def __init__(self, query: Query) -> None:
        parts: list[str] = []
        for term in query.terms:
            if term.is_word:
                forms = {*surface_forms(fold(term.tokens[0])), term.tokens[0]}
                parts.append("|".join(sorted((re.escape(f) for f in forms), key=len, reverse=True)))
                continue
            pieces = [_PUNCT_PIECE if tok == BOUNDARY else re.escape(tok) for tok in term.tokens]
            if term.prefix:
                pieces[-1] += r"[^\W_]*"
            parts.append(_GAP.join(pieces))
        source = "|".join(f"(?:{p})" for p in parts)
        self.pattern = re.compile(source, re.IGNORECASE) if parts else None
        self._cased = any(ch.lower() != ch.upper() for term in query.terms for tok in term.tokens for ch in tok)
        self._lower = re.compile(source) if parts else None
        """The same terms, matched case-sensitively: against lower-cased text, or any text when no term has
        letters with a case (Chinese)."""

    def spans(self, text: str, limit: int = 400) -> list[tuple[int, int]]:
        """(start, end) of up to ``limit`` matches in ``text``."""
        out: list[tuple[int, int]] = []
        if self.pattern is None or self._lower is None:
            return out
        pattern, scanned = self._lower, text
        if self._cased:
            scanned = text.lower()
            if len(scanned) != len(text):  # a character that lower-cases into two: offsets would not match
                pattern, scanned = self.pattern, text
        for m in pattern.finditer(scanned):
            a, b = m.span()
            if b > a and not _inside_word(text, a, b):
                out.append((a, b))
                if len(out) >= limit:
                    break
        return out


def _latin(ch: str) -> bool:
    return ch.isalnum() and not _in(_CJK_RANGES, ord(ch))


def _inside_word(text: str, a: int, b: int) -> bool:
    """True when the match starts or ends in the middle of a Latin word (``fund`` inside ``refund``)."""
    return (a > 0 and _latin(text[a]) and _latin(text[a - 1])) or (
        b < len(text) and _latin(text[b - 1]) and _latin(text[b]))


def highlight_pattern(query: Query) -> Highlighter:
    return Highlighter(query)
