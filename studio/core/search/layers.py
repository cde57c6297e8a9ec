"""Simulate the three-layer retrieval strategy for a task, beside the standard resolver's picks.

The strategy (one of the designs the studio serves): an always-loaded compressed index (L0, ``compressed``)
is scanned for the task's words in pack names, paths, titles and keywords. Then:

- no entry matches: a **knowledge gap** when no file mentions the task's words either, an **index gap** when the
  files do but the L0 index does not carry them (nothing is fetched; the words are listed for the curator);
- one or two entries match every word of the task: go **straight to L2** and fetch those files whole;
- three or more entries match, or the matches are partial: run **L1**, full-text search ranked by bm25 with a
  snippet per hit, and fetch the best files whole (L2) while the budget lasts.

Tokens are counted per layer: L0 is the whole index text (it is always loaded), L1 the result listing an agent
would read (one line per hit: pack, path and line, score, snippet), L2 the files fetched. The budget bounds the
sum, as the resolver's budget bounds its fence. Words of the task are the resolver's query terms (folded words
without common ones, CJK character pairs), so both sides read the task alike.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from studio.core.model import Pack
from studio.core.resolver import ResolveRequest, ResolveResult, resolve
from studio.core.resolver.budget import DEFAULT_BUDGET
from studio.core.search.compressed import (
    RUNTIME_KINDS,
    CompressedIndex,
    IndexEntry,
    build_compressed_index,
    exact_tokens,
)
from studio.core.search.index import SearchIndex
from studio.core.search.query import DEFAULT_LIMIT, SearchHit, SearchResults
from studio.core.search.store import IndexLocationError
from studio.core.search.token_counts import TokenCounts
from studio.core.text.terms import terms as task_terms
from studio.core.tokens import Tokenizer, get_tokenizer

DIRECT_MAX = 2
"""At most this many exact L0 matches go straight to L2."""
L1_LIMIT = DEFAULT_LIMIT
L2_FILES = 3
"""Files the strategy fetches whole after L1 (the best distinct files of the ranking)."""
FUZZY_MIN = 4
"""Shortest word that may match another by prefix (``refund`` ~ ``refunds`` is the fold's job; this catches
``underwrit`` ~ ``underwriting``)."""

Decision = Literal["gap", "index-gap", "direct", "search"]


@dataclass(frozen=True, slots=True)
class L0Match:
    """An index line that shares words with the task."""

    entry: IndexEntry
    matched: tuple[str, ...]
    """Task words found as they are in the line's pack name, path, title or keywords."""
    fuzzy: tuple[str, ...]
    """Task words found only as the start of a longer word (or the other way round)."""
    exact: bool
    """Every word of the task was found as it is."""

    def to_json(self) -> dict[str, Any]:
        return {"pack": self.entry.pack, "path": self.entry.path, "kind": self.entry.kind, "title": self.entry.title,
                "matched": list(self.matched), "fuzzy": list(self.fuzzy), "exact": self.exact}


@dataclass(frozen=True, slots=True)
class L2File:
    """A file the strategy would fetch whole, or leave because the budget ran out."""

    pack: str
    root: str
    path: str
    tokens: int | None
    fetched: bool
    reason: str
    """``exact-match``, ``top-hit``, ``over-budget`` or ``not-in-the-index``."""

    def to_json(self) -> dict[str, Any]:
        return {"pack": self.pack, "path": self.path, "tokens": self.tokens, "fetched": self.fetched,
                "reason": self.reason}


@dataclass(frozen=True, slots=True)
class ResolverPick:
    """One item the standard resolver selected for the same task and budget."""

    pack: str
    root: str
    path: str
    section: str | None
    line: int
    """1-based first line of the item (1 for a whole file)."""
    tokens: int | None

    def to_json(self) -> dict[str, Any]:
        return {"pack": self.pack, "path": self.path, "section": self.section, "line": self.line,
                "tokens": self.tokens}


@dataclass(slots=True)
class LayersResult:
    """The path one task takes through L0, L1 and L2, with its cost, and the resolver's answer beside it."""

    task: str
    budget: int
    terms: tuple[str, ...]
    index: CompressedIndex
    matches: list[L0Match]
    decision: Decision
    reason: str
    l1: SearchResults | None = None
    l1_text: str = ""
    l1_tokens: int = 0
    l2: list[L2File] = field(default_factory=list)
    gaps: list[str] = field(default_factory=list)
    """Task words found nowhere: not in the index lines, not in any file's text."""
    unindexed: list[str] = field(default_factory=list)
    """Task words the full text holds but no index line mentions (L0 cannot route them)."""
    resolver: list[ResolverPick] = field(default_factory=list)
    resolver_tokens: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def l0_tokens(self) -> int:
        return self.index.tokens or 0

    @property
    def l2_tokens(self) -> int:
        return sum(f.tokens or 0 for f in self.l2 if f.fetched)

    @property
    def total_tokens(self) -> int:
        return self.l0_tokens + self.l1_tokens + self.l2_tokens

    def to_json(self) -> dict[str, Any]:
        return {
            "task": self.task, "budget": self.budget, "terms": list(self.terms), "decision": self.decision,
            "reason": self.reason,
            "l0": {"tokens": self.l0_tokens, "bytes": self.index.bytes, "entries": len(self.index.entries),
                   "matches": [m.to_json() for m in self.matches]},
            "l1": None if self.l1 is None else {"tokens": self.l1_tokens, "matched": self.l1.matched,
                                                "results": [_hit_json(h) for h in self.l1.hits]},
            "l2": {"tokens": self.l2_tokens, "files": [f.to_json() for f in self.l2]},
            "tokens": {"l0": self.l0_tokens, "l1": self.l1_tokens, "l2": self.l2_tokens, "total": self.total_tokens},
            "gaps": self.gaps, "unindexed": self.unindexed,
            "resolver": {"tokens": self.resolver_tokens, "selected": [p.to_json() for p in self.resolver]},
            "notes": self.notes,
        }


def _hit_json(hit: SearchHit) -> dict[str, Any]:
    return {"pack": hit.pack, "path": hit.path, "line": hit.line, "heading": hit.heading, "score": hit.score,
            "snippet": hit.snippet}


def simulate_layers(task: str, packs: Sequence[Pack], index: SearchIndex, *, budget: int = DEFAULT_BUDGET,
                    compressed: CompressedIndex | None = None, tokenizer: Tokenizer | None = None,
                    with_resolver: bool = True, resolved: ResolveResult | None = None) -> LayersResult:
    """Walk ``task`` through L0 -> L1 -> L2 over ``packs`` (loadable ones); ``index`` must hold them (the caller
    refreshes it). The resolver's side is ``resolved`` when given (the caller's own run, with its overrides),
    else a plain resolve of the same task and budget. Never raises for bad pack content or odd task text."""
    tok = tokenizer if tokenizer is not None else get_tokenizer()
    loaded = [p for p in packs if p.loads]
    if compressed is None:
        compressed = build_compressed_index(loaded, tokenizer=tok, counts=TokenCounts(index.store))
    words = tuple(dict.fromkeys(task_terms(task)))
    matches = [m for m in (_match(e, words) for e in compressed.entries) if m is not None]
    matches.sort(key=lambda m: (not m.exact, -len(m.matched), -len(m.fuzzy), m.entry.pack, m.entry.path))
    result = LayersResult(task, budget, words, compressed, matches, "gap", "")
    if not tok.available:
        result.notes.append(f"Token counts are unavailable: {tok.unavailable_reason or tok.name}.")
    roots = [str(p.root) for p in loaded]
    exact = [m for m in matches if m.exact]
    if not words:
        result.reason = "The task has no words to look up (only common words, or none)."
    elif not matches:
        result.reason = "No index line mentions any word of the task: a knowledge gap."
    elif len(matches) <= DIRECT_MAX and len(exact) == len(matches):
        result.decision = "direct"
        result.reason = (f"{len(matches)} index line{'s' if len(matches) > 1 else ''} match every word of the task: "
                         "fetch the file whole (L2) without searching.")
        _fetch(result, [(m.entry.pack, m.entry.root, m.entry.path) for m in matches], "exact-match", tok)
    else:
        result.decision = "search"
        partial = len(matches) - len(exact)
        why = f"{len(matches)} index lines match" if len(matches) > DIRECT_MAX else (
            f"{partial} of {len(matches)} matching lines match only some words")
        result.reason = f"{why}: ambiguous, so search the full text (L1) and fetch the best files (L2)."
        # The task's words, not its raw text: a Chinese sentence has no spaces, and searched as written it
        # would be one long phrase; as words and character pairs it ranks like the resolver reads it.
        result.l1 = index.search(" ".join(words), roots=roots, kinds=RUNTIME_KINDS, limit=L1_LIMIT, mode="any")
        result.l1_text = l1_listing(result.l1)
        result.l1_tokens = tok.count(result.l1_text) if tok.available and result.l1_text else 0
        files = list(dict.fromkeys((h.pack, h.root, h.path) for h in result.l1.hits))[:L2_FILES]
        _fetch(result, files, "top-hit", tok)
    _find_gaps(result, index, roots, matches)
    if result.decision == "gap" and words and not matches and result.unindexed and not result.gaps:
        # The text has the words; only the index lacks them. Calling that a knowledge gap would send the
        # curator to write content the pack already has.
        result.decision = "index-gap"
        found = ", ".join(result.unindexed)
        result.reason = (f"No index line mentions any word of the task, but the files do ({found}): an index gap. "
                         "Put those words in titles or keywords so L0 routes to the files.")
    if with_resolver:
        _resolver_side(result, loaded, budget, resolved)
    return result


def l1_listing(results: SearchResults) -> str:
    """What an agent reads from L1: one line per hit."""
    return "\n".join(f"{h.pack}|{h.path}:{h.line}|{h.score:.2f}|{h.snippet}" for h in results.hits)


def _match(entry: IndexEntry, words: tuple[str, ...]) -> L0Match | None:
    if not words:
        return None
    text = " ".join((entry.pack, entry.path.replace("/", " "), entry.title, " ".join(entry.keywords)))
    have = set(task_terms(text))
    matched = tuple(w for w in words if w in have)
    fuzzy = tuple(w for w in words if w not in have and len(w) >= FUZZY_MIN and w.isascii() and any(
        len(h) >= FUZZY_MIN and (h.startswith(w) or w.startswith(h)) for h in have))
    if not matched and not fuzzy:
        return None
    return L0Match(entry, matched, fuzzy, len(matched) == len(words))


def _fetch(result: LayersResult, files: list[tuple[str, str, str]], reason: str, tok: Tokenizer) -> None:
    by_file = {(e.root, e.path): e for e in result.index.entries}
    left = result.budget - result.l0_tokens - result.l1_tokens
    for pack, root, path in files:
        entry = by_file.get((root, path))
        if entry is None:  # skipped by the index (unreadable since), so its size is unknown
            result.l2.append(L2File(pack, root, path, None, False, "not-in-the-index"))
            continue
        tokens = exact_tokens(entry, tok) if entry.estimated else entry.tokens  # a lower bound cannot decide
        fits = tokens is not None and tokens <= left
        if fits and tokens is not None:
            left -= tokens
        result.l2.append(L2File(pack, root, path, tokens, fits, reason if fits else "over-budget"))
    if result.l0_tokens > result.budget:
        result.notes.append(f"The index alone ({result.l0_tokens:,} tokens) is over the budget of {result.budget:,}; "
                            "filter it by scope, type or pack.")


def _find_gaps(result: LayersResult, index: SearchIndex, roots: list[str], matches: list[L0Match]) -> None:
    routed = {w for m in matches for w in (*m.matched, *m.fuzzy)}
    for word in result.terms:
        if word in routed:
            continue
        found = index.search(word, roots=roots, kinds=RUNTIME_KINDS, limit=1, mode="all").hits
        (result.unindexed if found else result.gaps).append(word)


def _resolver_side(result: LayersResult, packs: list[Pack], budget: int, resolved: ResolveResult | None) -> None:
    if resolved is None:
        if not packs:
            return
        resolved = resolve(ResolveRequest(task=result.task, packs=list(packs), budget=budget))
    result.resolver_tokens = resolved.tokens_used
    for res in resolved.packs:
        result.resolver.extend(ResolverPick(res.name, str(res.pack.root), d.path, d.section,
                                            d.lines[0] if d.lines else 1, d.tokens) for d in res.selected)


def simulate_with_cache(task: str, packs: Sequence[Pack], *, budget: int = DEFAULT_BUDGET, cache_dir: str | None = None,
                        resolved: ResolveResult | None = None) -> LayersResult:
    """``simulate_layers`` with the search index of the cache folder brought up to date for ``packs`` first
    (an in-memory index when the cache folder cannot be used, or would lie inside a pack)."""
    index = SearchIndex.open(cache_dir)
    busy = ""
    try:
        roots = [p.root for p in packs if p.loads]
        try:
            index.refresh(roots)
        except IndexLocationError:
            index.close()
            index = SearchIndex.in_memory()
            index.refresh(roots)
        except sqlite3.OperationalError as exc:  # another studio holds the index (building it from nothing)
            busy = (f"The search index could not be brought up to date ({exc}); L1 searched what it holds, which "
                    "may be incomplete.")
        result = simulate_layers(task, packs, index, budget=budget, resolved=resolved)
        if busy:
            result.notes.append(busy)
        return result
    finally:
        index.close()
