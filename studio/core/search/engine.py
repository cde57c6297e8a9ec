"""The full-text engine under the search index: a tantivy index beside the SQLite file, and how it is queried.

Why tantivy (measured with ``bench/bench_search.py --engines`` on the studio's own sections; figures in the
issue note): FTS5's bm25 scores every row a query matches, so a word in most sections cost 30-55 ms at 1,000
packs and grew with the workspace, and its inserts were 5-7x reading the text. tantivy ranks with block-max
WAND (a top-k query skips blocks that cannot enter the top k, so a common word costs about what a rare one
does), tokenises in its own threads without the interpreter lock, and deletes a changed file's rows for real.

Division of labour: SQLite (``store``) keeps everything the studio reasons about (packs, files, their stamps
and digests, sections and their lines, folder stamps, token counts) and its write lock is the one lock writers
take; the engine holds only what ranking needs: per section its text fields (``heading``, ``path``, ``body``,
not stored) and a few integers and keywords to filter and to find it again (``sid`` the section's row id,
``fid`` its file's, ``pack``, ``kind``, ``file``). A tantivy writer is only ever opened by the process that
holds SQLite's write transaction, so two processes never race for tantivy's own writer lock.

Text: tantivy's simple tokenizer (runs of letters and digits), lower-cased, long tokens dropped, diacritics
folded; the text arrives with every CJK character standing alone and CJK punctuation made ``BOUNDARY``
(``textprep.index_text``, done in the studio because tantivy's regex tokenizer was 4.5x slower than the
simple one over Unicode classes: 17.9 s against 3.9 s on the 1,000-pack corpus).

Consistency: the engine commits first, SQLite second, both inside SQLite's write transaction. A crash between
the two leaves engine rows SQLite does not know (new ones, or rows of a file SQLite still holds as it was): a
hit is used only when its ``sid`` is a section of SQLite whose file is its ``fid`` (``query``), and the next
write of that file deletes every engine row of its ``fid`` first, so such rows are never shown and do not stay.
Emptying the whole index (``indexer.clear``) marks itself in SQLite first: a crash after the engine emptied
would otherwise leave SQLite sure of every file over an empty engine, which no later comparison of stamps sees.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import tantivy

from studio.core.cache_files import NotOurs

ENGINE_FOLDER_SUFFIX = ".tantivy"
"""The engine's folders sit in ``<index file><suffix>/<token>``: one per SQLite file ever made (``token`` in its
``meta``), so a rebuilt SQLite file never meets the rows of the one it replaced."""
TOKENIZER_NAME = "studio-words"
TEXT_FIELDS = ("heading", "path", "body")
FIELD_BOOSTS = {"heading": 8.0, "path": 3.0}
"""Heading and path above the body (1.0): curators name headings and files after what they hold."""
MAX_TOKEN_BYTES = 64
"""Words of this many UTF-8 bytes or more are not indexed (tantivy's ``remove_long`` counts bytes, not characters:
32 Cyrillic letters are dropped)."""
FRESH_HEAP_BYTES = 192 * 1024 * 1024
"""The writer's memory while an empty index is built, shared by its threads: few, large segments."""
UPDATE_HEAP_BYTES = 24 * 1024 * 1024
MAX_REGEX_BYTES = 800
"""Longest path prefix (UTF-8 bytes) filtered with a regex: tantivy refuses a regex of more than 1,000 states,
about one per byte (measured: 981 ASCII characters, 245 emoji)."""
READ_ATTEMPTS = 3
"""Reloads tried before a missing file is taken for damage (see ``Engine.searcher``)."""
PREFIX_EXPANSIONS = 64
"""Words a prefix (``retr*``) stands for at most: its commonest completions in the index."""


class EngineError(Exception):
    """The engine refused a query it was given (never for user text, which ``textprep`` quotes)."""


class EngineUnavailable(EngineError):
    """The engine could not read its files for a reason that is not damage (too many open files, no memory, no
    permission): the index is left as it is, and the same call may work later."""


def _schema() -> Any:
    builder = tantivy.SchemaBuilder()
    for name in TEXT_FIELDS:
        builder.add_text_field(name, tokenizer_name=TOKENIZER_NAME)
    # Signed integers: a Python int given to an unsigned field kills tantivy's writer thread (tantivy 0.27).
    builder.add_integer_field("sid", indexed=False, fast=True)
    builder.add_integer_field("fid", indexed=True, fast=True)
    builder.add_integer_field("pack", indexed=True)
    builder.add_text_field("kind", tokenizer_name="raw")
    builder.add_text_field("file", tokenizer_name="raw")
    return builder.build()


def _analyzer() -> Any:
    return (tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple())
            .filter(tantivy.Filter.remove_long(MAX_TOKEN_BYTES))
            .filter(tantivy.Filter.lowercase())
            .filter(tantivy.Filter.ascii_fold())
            .build())


def new_token() -> str:
    import secrets  # here: a warm search never makes a token, and the import costs a millisecond

    return secrets.token_hex(8)


def folder_for(index_file: Path, token: str) -> Path:
    return Path(str(index_file) + ENGINE_FOLDER_SUFFIX) / token


def remove_others(index_file: Path, keep: str | None) -> None:
    """Delete the engine folders of SQLite files that no longer exist (all of them when ``keep`` is None)."""
    parent = Path(str(index_file) + ENGINE_FOLDER_SUFFIX)
    with contextlib.suppress(OSError):
        for entry in os.scandir(parent):
            if entry.name != keep and entry.is_dir(follow_symlinks=False):
                import shutil  # here: it imports three compression modules (2 ms) a warm search never needs

                shutil.rmtree(entry.path, ignore_errors=True)


class Engine:
    """One tantivy index: on disk in ``folder``, or in memory (``folder`` None)."""

    def __init__(self, folder: Path | None, *, create: bool) -> None:
        """Open the index in ``folder``; ``create``: make it when missing (else a missing one is ``NotOurs``:
        SQLite remembers files the engine does not hold)."""
        self.folder = folder
        try:
            if folder is None:
                self.index = tantivy.Index(_schema())
            else:
                if not (folder.is_dir() and tantivy.Index.exists(str(folder))):  # exists() raises without it
                    if not create:
                        raise NotOurs("its full-text part is missing")
                    folder.mkdir(parents=True, exist_ok=True)
                self.index = tantivy.Index(_schema(), path=str(folder), reuse=True)
        except ValueError as exc:
            if isinstance(_damage_or(exc), NotOurs):
                raise NotOurs(f"its full-text part cannot be opened ({exc})") from exc
            # Not damage (too many open files, no permission): the caller keeps the index in memory this time.
            raise OSError(f"the search index's full-text part cannot be opened ({exc})") from exc
        self._analyzer = _analyzer()
        self.index.register_tokenizer(TOKENIZER_NAME, self._analyzer)

    # -- writing ---------------------------------------------------------------------------------------------
    def writer(self, *, fresh: bool = False) -> EngineWriter:
        """A writer; call only while holding SQLite's write transaction (the lock writers share).

        On an index opened afresh: tantivy keeps the list of the files it manages in memory from the moment the
        index was opened and writes it back at each commit, so a long-lived index (the window's) would write over
        the files other processes' commits listed since, and those would never be cleaned up."""
        threads = 2 if fresh and (os.cpu_count() or 1) > 1 else 1
        try:
            index = self.index
            if self.folder is not None:
                index = tantivy.Index(_schema(), path=str(self.folder), reuse=True)
                index.register_tokenizer(TOKENIZER_NAME, self._analyzer)
            raw = index.writer(FRESH_HEAP_BYTES if fresh else UPDATE_HEAP_BYTES, threads)
        except ValueError as exc:
            raise _damage_or(exc) from exc
        return EngineWriter(raw)

    # -- reading ---------------------------------------------------------------------------------------------
    def searcher(self) -> Any:
        """A searcher over the last commit of any process.

        A file missing is retried before it is called damage: another process's commit deletes the files of the
        commit before it, and a reload that read the old list a moment earlier then misses one."""
        for attempt in range(READ_ATTEMPTS):
            try:
                self.index.reload()
                return self.index.searcher()
            except ValueError as exc:
                failure = _damage_or(exc)
                if not isinstance(failure, NotOurs) or attempt == READ_ATTEMPTS - 1:
                    raise failure from exc
                time.sleep(0.01 * (attempt + 1))
        raise AssertionError("unreachable")

    def num_docs(self) -> int:
        return int(self.searcher().num_docs)

    def size_bytes(self) -> int:
        if self.folder is None:
            return 0
        total = 0
        with contextlib.suppress(OSError):
            for entry in os.scandir(self.folder):
                with contextlib.suppress(OSError):
                    total += entry.stat(follow_symlinks=False).st_size
        return total

    def tokens(self, text: str) -> list[str]:
        """The words the index would hold for ``text`` (already prepared by ``textprep.index_text``)."""
        return list(self._analyzer.analyze(text))

    def parse(self, expression: str) -> Any:
        """``expression`` (tantivy's query language, as ``textprep.engine_expression`` writes it) over the text
        fields with their boosts."""
        try:
            return self.index.parse_query(expression, list(TEXT_FIELDS), FIELD_BOOSTS)
        except ValueError as exc:
            raise EngineError(str(exc)) from exc

    def completions(self, searcher: Any, prefix: str, limit: int = PREFIX_EXPANSIONS) -> list[str]:
        """The commonest indexed words starting with ``prefix`` (already lower-cased), in any text field."""
        counts: dict[str, int] = {}
        for name in TEXT_FIELDS:
            try:
                found = searcher.terms_with_prefix(name, prefix, limit=limit)
            except ValueError as exc:
                raise _damage_or(exc) from exc
            for term, count in found:
                counts[term] = counts.get(term, 0) + int(count)
        return sorted(counts, key=lambda t: (-counts[t], t))[:limit]

    def filtered(self, text_query: Any, *, packs: Sequence[int] | None, kinds: Iterable[str] | None,
                 path_prefix: str, files: Callable[[], list[str]] = list) -> Any:
        """``text_query`` limited to ``packs``, ``kinds`` and files under ``path_prefix``; the filters add
        nothing to the score. ``files``: the indexed paths starting with ``path_prefix``, asked for only when the
        prefix is too long for a regex (``MAX_REGEX_BYTES``)."""
        schema = self.index.schema
        clauses = [(tantivy.Occur.Must, text_query)]
        filters = []
        if packs is not None:
            filters.append(tantivy.Query.term_set_query(schema, "pack", list(packs)))
        if kinds is not None:
            filters.append(tantivy.Query.term_set_query(schema, "kind", list(kinds)))
        if len(path_prefix.encode("utf-8")) > MAX_REGEX_BYTES:
            filters.append(tantivy.Query.term_set_query(schema, "file", files()))
        elif path_prefix:
            # ``(?s:.*)``: ``.`` alone stops at a line break, and a file name may hold one.
            filters.append(tantivy.Query.regex_query(schema, "file", regex_literal(path_prefix) + "(?s:.*)"))
        clauses += [(tantivy.Occur.Must, tantivy.Query.const_score_query(f, 0.0)) for f in filters]
        return text_query if not filters else tantivy.Query.boolean_query(clauses)

    def top(self, searcher: Any, query: Any, count: int) -> list[tuple[float, int, int]]:
        """(score, section id, file id) of the ``count`` best matches, best first."""
        try:
            hits = searcher.search(query, count, count=False).hits
            if not hits:
                return []
            addresses = [address for _, address in hits]
            sids = searcher.fast_field_values("sid", addresses)
            fids = searcher.fast_field_values("fid", addresses)
        except ValueError as exc:
            raise _damage_or(exc) from exc
        return [(float(score), int(sid), int(fid)) for (score, _), sid, fid in zip(hits, sids, fids, strict=True)
                if sid is not None and fid is not None]


class EngineWriter:
    """Rows added and deleted, made visible by ``commit`` (``rollback`` drops them); either ends the writer."""

    def __init__(self, raw: Any) -> None:
        self._raw: Any = raw

    def add(self, sid: int, fid: int, pack: int, kind: str, file: str, heading: str, path: str, body: str) -> None:
        self._call("add_document", tantivy.Document(sid=sid, fid=fid, pack=pack, kind=kind, file=file,
                                                     heading=heading, path=path, body=body))

    def delete_file(self, fid: int) -> None:
        self._call("delete_documents_by_term", "fid", fid)

    def delete_pack(self, pack: int) -> None:
        self._call("delete_documents_by_term", "pack", pack)

    def delete_all(self) -> None:
        self._call("delete_all_documents")

    def commit(self) -> None:
        self._call("commit")
        self._finish()

    def rollback(self) -> None:
        if self._raw is None:
            return
        with contextlib.suppress(ValueError):
            self._raw.rollback()
        self._finish()

    def _call(self, name: str, *args: Any) -> None:
        if self._raw is None:
            raise EngineError("the writer was closed")
        try:
            getattr(self._raw, name)(*args)
        except ValueError as exc:
            raise _damage_or(exc) from exc

    def _finish(self) -> None:
        """Let go of tantivy's writer lock now (it is held until the writer is consumed), after any merge it
        started: merges of small segments take milliseconds, and waiting keeps their files from being left
        half-written when the process ends."""
        raw, self._raw = self._raw, None
        if raw is not None:
            with contextlib.suppress(ValueError):
                raw.wait_merging_threads()


_DAMAGE_MARKERS = ("corrupt", "invaliddata", "unexpectedeof", "filedoesnotexist", "notfound", "no such file",
                   "deserializ", "checksum", "incompatible")
"""What tantivy's messages say of a damaged or vanished file (seen for a garbled or truncated segment file:
``IoError { kind: InvalidData, "Footer magic byte mismatch. File corrupted ..." }`` or ``UnexpectedEof``; a
deleted one: ``FileDoesNotExist``; a garbled ``meta.json``: ``Data corruption ... cannot be deserialized``).
An I/O error of another kind is not damage: too many open files, no memory, permission denied or a full disk
left the index as it was, and deleting it would cost the user a rebuild for nothing (or for no better)."""


def _damage_or(exc: ValueError) -> Exception:
    """tantivy's ``ValueError`` as the index's damage (``NotOurs``: the caller deletes and rebuilds it) when its
    message says a file is corrupt or gone, else as a refusal (``EngineError``) that leaves the files alone."""
    text = str(exc).lower().replace(" ", "")
    if any(marker.replace(" ", "") in text for marker in _DAMAGE_MARKERS):
        return NotOurs(f"its full-text part is damaged ({exc})")
    if "ioerror" in text:
        return EngineUnavailable(str(exc))
    return EngineError(str(exc))


_REGEX_META = set("\\.+*?()|[]{}^$#&-~")


def regex_literal(text: str) -> str:
    """``text`` matched literally by tantivy's regex (Rust syntax: only its meta characters may be escaped)."""
    return "".join("\\" + ch if ch in _REGEX_META else ch for ch in text)
