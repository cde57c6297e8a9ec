"""Run a search: the FTS5 match, ranked by bm25 with column weights, then a snippet and line for each hit.

Ranking: FTS5's ``bm25`` with the heading column weighted ``HEADING_WEIGHT`` and the path ``PATH_WEIGHT``
against the body's 1.0: curators name headings and files after what they hold. Scores are reported positive
(FTS5's bm25 is negative, lower is better) to four significant digits, never rounded to a fixed number of
decimals: a word in most sections of a large workspace scores around 1e-6, and three decimals showed a column of
0.000. Each hit also carries its ``relevance``, its score over the best hit's (1.0 for the best), which is what
people read. FTS5 scores every row a query matches,
so an unfiltered search of a large index ranks its two halves at once (``SPLIT_MIN_ROWS``).

``mode="auto"`` asks for every term first and, when nothing has them all, for any of them (the result says
which). Filters: pack roots, row kinds (``frontmatter``, ``guide``, ``compiled``, ``split``, ``document``,
``wiki``, ``source``) and a path prefix. User text reaches FTS5 only through ``textprep.fts_expression``; if
FTS5 still refuses it, the result carries a sentence saying so instead of an exception.
"""

from __future__ import annotations

import heapq
import json
import os
import sqlite3
import time
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Literal

from studio.core.cache_files import NotOurs, is_damage, reason
from studio.core.diagnostics import Diagnostic
from studio.core.pack_fs import PackFS
from studio.core.search.cpu import spare_core
from studio.core.search.snippets import UNREAD, heading_at, make_snippet, read_lines, safe_text
from studio.core.search.store import Store
from studio.core.search.textprep import Query, fts_expression, highlight_pattern, parse_query

HEADING_WEIGHT = 8.0
PATH_WEIGHT = 3.0
BODY_WEIGHT = 1.0
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
    """bm25 with the column weights, positive (higher is better), to four significant digits."""
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
    """Why nothing could be searched (empty query, an expression FTS5 refused, a damaged index)."""
    note: str = ""
    """What the user should know about how the text was read (words dropped, terms cut)."""
    elapsed_ms: float = 0.0
    notices: list[Diagnostic] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"query": self.query, "matched": self.matched, "problem": self.problem, "note": self.note,
                "results": [h.to_json() for h in self.hits]}


def search(store: Store, text: str, *, roots: Iterable[str] | None = None, kinds: Iterable[str] | None = None,
           path_prefix: str = "", limit: int = DEFAULT_LIMIT, mode: SearchMode = "auto") -> SearchResults:
    """Search the index; ``roots`` limits to those packs (None: every pack in the index). Never raises for user
    text; a damaged database is reset (``store.notices`` says so) and the result says to search again."""
    started = time.perf_counter()
    query = parse_query(text)
    result = SearchResults(text, note=_note(query))
    if query.empty:
        result.problem = "Type a word or a phrase to search for." if not text.strip() else (
            "Nothing to search for: the text has no letters or digits.")
        return result
    limit = max(1, min(limit, MAX_LIMIT))
    modes: list[Literal["all", "any"]] = ["all", "any"] if mode == "auto" else [mode]
    if len(query.terms) == 1:
        modes = modes[:1]
    rows: list[tuple[Any, ...]] = []
    try:
        store.reopen_if_replaced()
        for m in modes:
            expression = fts_expression(query, m)
            assert expression is not None
            rows = _match(store, expression, roots, kinds, path_prefix, limit)
            if rows:
                result.matched = m
                break
    except (sqlite3.DatabaseError, NotOurs) as exc:
        if isinstance(exc, NotOurs) or is_damage(exc):  # checked first: a table gone is an OperationalError too
            store.reset(reason(exc))
            result.notices = list(store.notices)
            result.problem = "The search index was damaged and has been cleared; it is being built again."
            return result
        if not isinstance(exc, sqlite3.OperationalError):
            raise
        result.problem = f"The search could not run: {exc}. Try fewer or simpler words."
        return result
    result.hits = _hits(rows, query)
    result.elapsed_ms = (time.perf_counter() - started) * 1000
    return result


_COLUMNS = ("p.name, p.root, f.path, s.kind, s.heading, s.start_line, s.end_line FROM {source} "
            "JOIN sections s ON s.id = {rowid} JOIN files f ON f.id = s.file_id JOIN packs p ON p.id = s.pack_id")
_BM25 = f"bm25(fts, {HEADING_WEIGHT}, {PATH_WEIGHT}, {BODY_WEIGHT})"


def _match(store: Store, expression: str, roots: Iterable[str] | None, kinds: Iterable[str] | None,
           path_prefix: str, limit: int) -> list[tuple[Any, ...]]:
    if roots is not None:
        wanted = {os.path.abspath(r) for r in roots}
        with store.lock:
            stored = {r for (r,) in store.conn.execute("SELECT root FROM packs")}
        roots = None if stored <= wanted else sorted(wanted & stored)
    if roots is None and kinds is None and not path_prefix:
        rows = _ranked_first(store, expression, limit)
        if rows is not None:
            return rows
    where = ["fts MATCH ?"]
    params: list[Any] = [expression]
    if roots is not None:
        where.append("s.pack_id IN (SELECT id FROM packs WHERE root IN (SELECT value FROM json_each(?)))")
        params.append(_json_list(roots))
    if kinds is not None:
        where.append("s.kind IN (SELECT value FROM json_each(?))")
        params.append(_json_list(kinds))
    if path_prefix:
        where.append("substr(f.path, 1, ?) = ?")
        params.extend([len(path_prefix), path_prefix])
    sql = (f"SELECT {_BM25} AS score, " + _COLUMNS.format(source="fts", rowid="fts.rowid")
           + f" WHERE {' AND '.join(where)} ORDER BY score LIMIT ?")
    params.append(limit)
    with store.lock:
        return store.conn.execute(sql, params).fetchall()


def _ranked_first(store: Store, expression: str, limit: int) -> list[tuple[Any, ...]] | None:
    """Without filters: rank in FTS5 alone, then look up only the best rows (not every match). None when rows
    left behind by edits crowded out live ones, so the caller must rank with the lookups after all."""
    wanted = limit * 2 + 20
    halves = _halves(store)
    if halves is not None:
        return _ranked_in_halves(store, expression, limit, wanted, *halves)
    sql = ("SELECT r.score, " + _COLUMNS.format(
        source=f"(SELECT rowid AS id, {_BM25} AS score FROM fts WHERE fts MATCH ? ORDER BY score LIMIT ?) r",
        rowid="r.id") + " ORDER BY r.score LIMIT ?")
    with store.lock:
        rows = store.conn.execute(sql, (expression, wanted, limit)).fetchall()
        if len(rows) < limit:
            ranked = store.conn.execute("SELECT count(*) FROM (SELECT rowid FROM fts WHERE fts MATCH ? LIMIT ?)",
                                        (expression, wanted)).fetchone()[0]
            if ranked >= wanted:
                return None
    return rows


SPLIT_MIN_ROWS = 16_000
"""From this many rows on, an unfiltered search ranks the two halves of the index (by row id) at once, on two
connections and two threads. FTS5 scores every row a query matches (bm25 looks up each row's length), and a
common word matches most rows: on the 1,000-pack corpus (49,000 rows) that is 30-35 ms of a search's 45-50.
bm25's statistics (row count, document frequencies, average length) are the whole index's in either half, so
the merged list is the one a single ranking gives; with a second core free the ranking takes 55-70% of the
time, without one it costs more (each half counts the terms' rows once), so it is done only when a core is
free (``cpu.spare_core``)."""

_RANKER: list[ThreadPoolExecutor] = []


def _halves(store: Store) -> tuple[sqlite3.Connection, int] | None:
    """The second connection and the row id splitting the index in two, or None when one ranking is better."""
    if not spare_core():
        return None
    side = store.side()
    if side is None:
        return None
    with store.lock:
        low, high = store.conn.execute("SELECT min(id), max(id) FROM sections").fetchone()
    if low is None or high - low < SPLIT_MIN_ROWS:
        return None
    return side, (low + high) // 2


def _ranked_in_halves(store: Store, expression: str, limit: int, wanted: int, side: sqlite3.Connection,
                      pivot: int) -> list[tuple[Any, ...]] | None:
    half = f"SELECT rowid, {_BM25} AS score FROM fts WHERE fts MATCH ? AND rowid {{}} ? ORDER BY score LIMIT ?"

    def upper() -> list[tuple[int, float]]:
        with store.side_lock:
            return side.execute(half.format(">"), (expression, pivot, wanted)).fetchall()

    if not _RANKER:
        _RANKER.append(ThreadPoolExecutor(max_workers=1, thread_name_prefix="search-rank"))
    future = _RANKER[0].submit(upper)
    try:
        with store.lock:
            lower = store.conn.execute(half.format("<="), (expression, pivot, wanted)).fetchall()
    finally:
        higher = future.result()  # waited for on every path (and its error raised when this half had none)
    ranked = heapq.nsmallest(wanted, lower + higher, key=lambda r: float(r[1]))
    with store.lock:
        found = {row[0]: row[1:] for row in store.conn.execute(
            "SELECT s.id, p.name, p.root, f.path, s.kind, s.heading, s.start_line, s.end_line FROM sections s "
            "JOIN files f ON f.id = s.file_id JOIN packs p ON p.id = s.pack_id "
            "WHERE s.id IN (SELECT value FROM json_each(?))", (json.dumps([rowid for rowid, _ in ranked]),))}
    rows = [(score, *found[rowid]) for rowid, score in ranked if rowid in found][:limit]
    if len(rows) < limit and len(ranked) >= wanted:
        return None  # rows left behind by edits crowded out live ones
    return rows


def _significant(value: float, digits: int = 4) -> float:
    return float(f"{value:.{digits}g}")


def _json_list(values: Iterable[str]) -> str:
    return json.dumps(list(values), ensure_ascii=False)


def _hits(rows: list[tuple[Any, ...]], query: Query) -> list[SearchHit]:
    pattern = highlight_pattern(query)
    files = _lines_of(rows)
    best = max((-float(row[0]) for row in rows), default=0.0)
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
                              _significant(-score), snippet_text, spans, (start, end), unread,
                              round(-score / best, 3) if best > 0 else 1.0))
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
