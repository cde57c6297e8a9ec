"""Run a search: the engine's top matches, checked against SQLite, then a snippet and line for each hit.

Ranking: the engine's bm25 with the heading field boosted ``engine.FIELD_BOOSTS`` (8) and the path (3) against
the body's 1.0: curators name headings and files after what they hold. The engine answers a top-k query with
block-max WAND, so a word in most sections costs about what a rare one does. Scores are reported to four
significant digits, never rounded to a fixed number of decimals, and each hit also carries its ``relevance``,
its score over the best hit's (1.0 for the best), which is what people read.

``mode="auto"`` asks for every term first and, when nothing has them all, for any of them (the result says
which). Filters: pack roots, row kinds (``frontmatter``, ``guide``, ``compiled``, ``split``, ``document``,
``wiki``, ``source``) and a path prefix, applied inside the engine so the top k are the filtered top k. User
text reaches the engine only through ``textprep.engine_expression``; if the engine still refuses it, the result
carries a sentence saying so instead of an exception.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from studio.core.cache_files import NotOurs, is_damage, reason
from studio.core.diagnostics import Diagnostic
from studio.core.pack_fs import PackFS, is_text_name
from studio.core.search.engine import MAX_TOKEN_BYTES, EngineError, EngineUnavailable
from studio.core.search.snippets import UNREAD, heading_at, make_snippet, read_lines, safe_text
from studio.core.search.store import Store
from studio.core.search.textprep import Query, engine_expression, highlight_pattern, parse_query

DEFAULT_LIMIT = 5
"""Layer L1 of the compressed-index design answers with 5 results unless more are asked for."""
MAX_LIMIT = 1000

SearchMode = Literal["all", "any", "auto"]


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One matching section, placed at its best line."""

    pack: str
    """The pack's name."""
    root: str
    """Absolute pack folder."""
    path: str
    """Pack-relative file path."""
    line: int
    heading: str | None
    kind: str
    score: float
    """bm25 with the field boosts, positive (higher is better), to four significant digits."""
    snippet: str
    highlights: tuple[tuple[int, int], ...] = ()
    section_lines: tuple[int, int] = (0, 0)
    unread: str = ""
    """Why no snippet could be cut (``the file is now a symlink leading outside the pack`` ...): the file changed
    since it was indexed and was not read; empty when the snippet was cut."""
    relevance: float = 1.0
    """``score`` over the best hit's score of the same search: 1.0 for the best, down towards 0."""

    def to_json(self) -> dict[str, Any]:
        out = {"pack": self.pack, "root": self.root, "path": self.path, "line": self.line, "heading": self.heading,
               "kind": self.kind, "score": self.score, "relevance": self.relevance, "snippet": self.snippet,
               "highlights": [list(h) for h in self.highlights]}
        if self.unread:
            out["unread"] = self.unread
        return out


@dataclass(slots=True)
class SearchResults:
    """The answer to one query."""

    query: str
    hits: list[SearchHit] = field(default_factory=list)
    matched: str = "none"
    """``all`` (every term), ``any`` (at least one term) or ``none`` (nothing searched or found)."""
    problem: str = ""
    """Why nothing could be searched (empty query, an expression the engine refused, a damaged index)."""
    note: str = ""
    """What the user should know about how the text was read (words dropped, terms cut)."""
    elapsed_ms: float = 0.0
    notices: list[Diagnostic] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"query": self.query, "matched": self.matched, "problem": self.problem, "note": self.note,
                "results": [h.to_json() for h in self.hits]}


def search(store: Store, text: str, *, roots: Iterable[str] | None = None, kinds: Iterable[str] | None = None,
           path_prefix: str = "", limit: int = DEFAULT_LIMIT, mode: SearchMode = "auto",
           again: bool = True) -> SearchResults:
    """Search the index; ``roots`` limits to those packs (None: every pack in the index). Never raises for user
    text; a damaged database is reset (``store.notices`` says so) and the result says to search again. What
    looked like damage but was another process's commit under way (``Store.reset`` finds the index whole under
    the write lock) is searched again, once (``again``); met a second time, it is reset."""
    started = time.perf_counter()
    roots = None if roots is None else list(roots)
    query = parse_query(text)
    result = SearchResults(text, note=_note(query))
    if query.empty:
        result.problem = "Type a word or a phrase to search for." if not text.strip() else (
            "Nothing to search for: the text has no letters or digits.")
        return result
    limit = max(1, min(limit, MAX_LIMIT))
    if not is_text_name(path_prefix):  # no stored path holds an undecodable byte (``files._stamp``)
        return result
    kinds = None if kinds is None else [k for k in kinds if isinstance(k, str) and is_text_name(k)]
    modes: list[Literal["all", "any"]] = ["all", "any"] if mode == "auto" else [mode]
    if len(query.terms) == 1:
        modes = modes[:1]
    rows: list[tuple[Any, ...]] = []
    try:
        store.reopen_if_replaced()
        searcher = store.engine.searcher()
        filters = _filters(store, roots)
        for m in modes:
            expression = engine_expression(query, m, lambda prefix: store.engine.completions(searcher, prefix),
                                           store.engine.tokens)
            if expression is None:
                result.problem = ("Nothing to search for: the index leaves out words this long "
                                  f"({MAX_TOKEN_BYTES} bytes or more).")
                return result
            rows = _match(store, searcher, expression, filters, kinds, path_prefix, limit)
            if rows:
                result.matched = m
                break
    except (sqlite3.DatabaseError, NotOurs) as exc:
        if isinstance(exc, NotOurs) or is_damage(exc):  # checked first: a table gone is an OperationalError too
            if not store.reset(reason(exc), check=again):  # met again: damage the look under the lock missed
                return search(store, text, roots=roots, kinds=kinds, path_prefix=path_prefix, limit=limit,
                              mode=mode, again=False)
            result.notices = list(store.notices)
            result.problem = "The search index was damaged and has been cleared; it is being built again."
            return result
        if not isinstance(exc, sqlite3.OperationalError):
            raise
        result.problem = f"The search could not run: {exc}. Try fewer or simpler words."
        return result
    except EngineError as exc:
        advice = "Try again in a moment." if isinstance(exc, EngineUnavailable) else "Try fewer or simpler words."
        result.problem = f"The search could not run: {exc}. {advice}"
        return result
    result.hits = _hits(rows, query)
    result.elapsed_ms = (time.perf_counter() - started) * 1000
    return result


def _filters(store: Store, roots: Iterable[str] | None) -> list[int] | None:
    """The pack ids ``roots`` stand for (None: no filter, when they cover every pack of the index)."""
    if roots is None:
        return None
    wanted = {os.path.abspath(r) for r in roots}
    with store.lock:
        stored = dict(store.conn.execute("SELECT root, id FROM packs").fetchall())
    if set(stored) <= wanted:
        return None
    return sorted(stored[r] for r in wanted if r in stored)


MAX_ROUNDS = 4
"""Times a search asks the engine again, each for four times as many rows, when rows SQLite does not know (see
``engine``) crowded out the ones it does; in practice the first answer serves."""


def _match(store: Store, searcher: Any, expression: str, packs: list[int] | None, kinds: Iterable[str] | None,
           path_prefix: str, limit: int) -> list[tuple[Any, ...]]:
    """(score, pack name, root, path, kind, heading, first line, last line) of the ``limit`` best sections."""
    engine = store.engine
    text_query = engine.parse(expression)
    query = engine.filtered(text_query, packs=packs, kinds=None if kinds is None else list(kinds),
                            path_prefix=path_prefix, files=lambda: _paths_under(store, path_prefix))
    wanted = limit + 10
    for _ in range(MAX_ROUNDS):
        ranked = engine.top(searcher, query, wanted)
        with store.lock:
            found = {row[0]: row[1:] for row in store.conn.execute(
                "SELECT s.id, s.file_id, p.name, p.root, f.path, s.kind, s.heading, s.start_line, s.end_line "
                "FROM sections s JOIN files f ON f.id = s.file_id JOIN packs p ON p.id = s.pack_id "
                "WHERE s.id IN (SELECT value FROM json_each(?))", (json.dumps([sid for _, sid, _ in ranked]),))}
        rows = [(score, *found[sid][1:]) for score, sid, fid in ranked if sid in found and found[sid][0] == fid]
        if len(rows) >= limit or len(ranked) < wanted:
            return rows[:limit]
        wanted *= 4
    return rows[:limit]


def _paths_under(store: Store, prefix: str) -> list[str]:
    with store.lock:
        return [path for (path,) in store.conn.execute(
            "SELECT DISTINCT path FROM files WHERE substr(path, 1, ?) = ?", (len(prefix), prefix))]


def _significant(value: float, digits: int = 4) -> float:
    return float(f"{value:.{digits}g}")


def _hits(rows: list[tuple[Any, ...]], query: Query) -> list[SearchHit]:
    pattern = highlight_pattern(query)
    files = _lines_of(rows)
    best = max((float(row[0]) for row in rows), default=0.0)
    hits = []
    for score, name, root, path, kind, heading, start, end in rows:
        lines = files[(root, path)]
        spans: tuple[tuple[int, int], ...]
        unread = ""
        if isinstance(lines, str):
            snippet_text, spans, line, unread = "", (), start, UNREAD.get(lines, UNREAD["unreadable"])
        else:
            snip = make_snippet(lines, start, end, pattern)
            snippet_text, spans, line = snip.text, snip.highlights, snip.line
            if kind != "frontmatter":
                heading = heading_at(lines, start, line) or heading
        hits.append(SearchHit(safe_text(name), root, path, line, safe_text(heading) if heading else None, kind,
                              _significant(score), snippet_text, spans, (start, end), unread,
                              round(score / best, 3) if best > 0 else 1.0))
    return hits


def _lines_of(rows: list[tuple[Any, ...]]) -> dict[tuple[str, str], list[str] | str]:
    """The lines (or why not) of every file the rows point into, read pack by pack: one ``PackFS`` per pack,
    and only one open at a time (a result may span hundreds of packs)."""
    by_root: dict[str, dict[str, None]] = {}
    for row in rows:
        by_root.setdefault(row[2], {})[row[3]] = None
    out: dict[tuple[str, str], list[str] | str] = {}
    for root, paths in by_root.items():
        with PackFS(root) as fs:
            for path in paths:
                out[(root, path)] = read_lines(fs, path)
    return out


def _note(query: Query) -> str:
    parts = [query.note] if query.note else []
    if query.dropped:
        parts.append("Common words left out: " + ", ".join(query.dropped[:10]) + ".")
    return " ".join(parts)
