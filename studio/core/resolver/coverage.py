"""Which document sections a split already carries (those sections become ``superseded-by-split``).

A section of ``documents/<stem>.md`` counts as covered by a split in ``compiled/splits/<stem>/`` when
(a) the source map links them (the same claim compiled into both), (b) the split's file name (without a
``001_`` number) matches the section's slug, or (c) most of the section's distinct terms (``CONTAINMENT``)
occur in one split. (a) and (b) are cheap and checked for every section. (c) compares a section only with
the splits that share one of its ``PROBE_TERMS`` rarest terms, and the resolver asks for it only for
sections that would otherwise be selected.
Sections no split covers stay available as fallback reads (digest 6.3 step 4).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from studio.core.resolver.candidates import Candidate, PackFiles
from studio.core.resolver.rank import DocTerms
from studio.core.resolver.sections import slugify
from studio.core.sourcemap import SourceMap

CONTAINMENT = 0.6
PROBE_TERMS = 8


class Coverage:
    """Split coverage of one pack's document sections; the term test is computed on demand and cached."""

    def __init__(self, files: PackFiles, source_map: SourceMap, doc_terms: dict[Candidate, DocTerms]) -> None:
        self._terms = doc_terms
        self._splits: dict[str, list[Candidate]] = {}
        self._names: dict[str, dict[str, str]] = {}
        for c in files.candidates:
            if c.layer == "split" and c.doc_stem:
                self._splits.setdefault(c.doc_stem, []).append(c)
                self._names.setdefault(c.doc_stem, {}).setdefault(_split_name(c.path), c.path)
        self._eager: dict[str, str] = {}
        for c in files.candidates:
            if c.layer != "document" or c.doc_stem not in self._splits:
                continue
            mapped = sorted(source_map.covered_sections.get(c.key, ()))
            hit = mapped[0] if mapped else self._names[c.doc_stem].get(c.slug or "")
            if hit:
                self._eager[c.key] = hit
        self._lazy: dict[str, str | None] = {}
        self._postings: dict[str, _SplitTerms] | None = None

    def by_map_or_name(self, c: Candidate) -> str | None:
        """The covering split found through the source map or a matching file name."""
        return self._eager.get(c.key)

    def has_splits(self, c: Candidate) -> bool:
        return c.doc_stem in self._splits

    def fill(self, candidates: list[Candidate], limit: int | None = None) -> int:
        """Run the term test ahead of time for up to ``limit`` sections not tested yet; returns how many remain.

        The resolver asks only about sections a task ranks high, so a new task meets untested ones (3-8 ms
        on a 300-section document); the session fills them in while the user is idle.
        """
        todo = [c for c in candidates
                if c.layer == "document" and c.doc_stem in self._splits and c.key not in self._lazy]
        for c in todo[:limit]:
            self.by_terms(c)
        return max(0, len(todo) - (len(todo) if limit is None else limit))

    def by_terms(self, c: Candidate) -> str | None:
        """The split holding at least ``CONTAINMENT`` of the section's distinct terms, if any."""
        if c.key in self._lazy:
            return self._lazy[c.key]
        found = None
        own = self._terms.get(c)
        mine = own.content_terms() if own is not None else set()
        if mine and c.doc_stem in self._splits:
            found = self._best_container(mine, self._split_terms()[c.doc_stem])
        self._lazy[c.key] = found
        return found

    def _split_terms(self) -> dict[str, _SplitTerms]:
        if self._postings is None:
            self._postings = {}
            for stem, splits in self._splits.items():
                index: defaultdict[bytes, list[str]] = defaultdict(list)
                sets: dict[str, set[bytes]] = {}
                for s in splits:
                    terms = self._terms.get(s)
                    sets[s.path] = terms.content_terms() if terms else set()
                    for t in sets[s.path]:
                        index[t].append(s.path)
                self._postings[stem] = _SplitTerms(dict(index), {t: len(p) for t, p in index.items()}, sets)
        return self._postings

    @staticmethod
    def _best_container(mine: set[bytes], splits: _SplitTerms) -> str | None:
        # Only splits sharing one of the section's rarest terms are compared: a split that carries the
        # section almost surely carries its distinctive words, and this keeps the check to a few splits.
        # Rarest means fewest splits, then the term itself; terms in no split come first and point nowhere.
        seen = splits.df.keys() & mine
        unseen = len(mine) - len(seen)
        if unseen >= PROBE_TERMS:
            return None
        rarest = sorted(sorted(seen), key=splits.df.__getitem__)[:PROBE_TERMS - unseen]  # stable: ties by term
        shortlist = sorted({path for t in rarest for path in splits.postings[t]})
        best, best_share = None, 0.0
        for path in shortlist:
            share = len(mine & splits.sets[path]) / len(mine)  # neither side has stop words
            if share > best_share:
                best, best_share = path, share
        return best if best_share >= CONTAINMENT else None


@dataclass(frozen=True, slots=True)
class _SplitTerms:
    """The content terms of one document's splits, inverted: which splits hold a term, and how many."""

    postings: dict[bytes, list[str]]
    df: dict[bytes, int]
    sets: dict[str, set[bytes]]
    """Split path -> its content terms."""


def _split_name(path: str) -> str:
    stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    number, _, rest = stem.partition("_")
    # Numbered splits like 008_voice.md carry the section name after the number.
    return slugify(rest if number.isdigit() and rest else stem).replace("_", "-")
