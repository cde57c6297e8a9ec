"""Token counts of whole files, kept in the search database so that the compressed index (L0) counts a file once.

Counting tokens exactly (tiktoken) runs at about 15 MB of text a second: most of what the L0 index of a large
workspace cost to build. A count is stored under a BLAKE2b digest of the encoding's name and the text counted,
so it holds for that text wherever it is found (a file renamed, another pack with the same file) and can never
be stale: a changed file has another digest. Counts not used for ``KEEP_DAYS`` are dropped.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from studio.core.blake2 import blake2b
from studio.core.search.store import BUSY_TIMEOUT_S, INDEX_FILE, Store
from studio.core.tokens import Tokenizer

KEEP_DAYS = 60
WAIT_MS = 250
_CHUNK = 500
"""Digests looked up per statement (SQLite's bound-parameter limit is far above)."""


def digest(encoding: str, text: str) -> bytes:
    h = blake2b(encoding.encode("utf-8"), digest_size=16)
    h.update(b"\0")
    h.update(text.encode("utf-8", "surrogatepass"))
    return h.digest()


class TokenCounts:
    """Stored counts in one search database (see ``store``); every method is safe to call when the database is
    busy or read-only: counts are only a cache."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def lookup(self, keys: Sequence[bytes]) -> dict[bytes, int]:
        found: dict[bytes, int] = {}
        with contextlib.suppress(sqlite3.Error), self.store.lock:
            conn = self.store.conn
            for start in range(0, len(keys), _CHUNK):
                chunk = keys[start:start + _CHUNK]
                marks = ",".join("?" * len(chunk))
                found.update(conn.execute(f"SELECT key, tokens FROM token_counts WHERE key IN ({marks})", chunk))
        return found

    def remember(self, new: dict[bytes, int], used: Sequence[bytes]) -> None:
        """Store ``new`` counts, mark ``used`` ones as used today, and drop counts unused for ``KEEP_DAYS``.

        Waits at most ``WAIT_MS`` for the database: a build of the search index holds it for seconds, and a
        count not stored is only counted again next time."""
        today = int(time.time() // 86400)
        with self.store.lock:
            conn = self.store.conn
            conn.execute(f"PRAGMA busy_timeout = {WAIT_MS}")
            try:
                self._write(new, used, today)
            finally:
                conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")

    def _write(self, new: dict[bytes, int], used: Sequence[bytes], today: int) -> None:
        with contextlib.suppress(sqlite3.Error), self.store.write() as conn:
            conn.executemany("INSERT OR REPLACE INTO token_counts(key, tokens, used) VALUES (?, ?, ?)",
                             [(k, n, today) for k, n in new.items()])
            conn.executemany("UPDATE token_counts SET used = ? WHERE key = ? AND used < ?",
                             [(today, k, today) for k in used])
            conn.execute("DELETE FROM token_counts WHERE used < ?", (today - KEEP_DAYS,))


def count_texts(tok: Tokenizer, texts: list[str], counts: TokenCounts | None,
                budget: int | None) -> list[tuple[int | None, bool]]:
    """(tokens, estimated) per text: stored counts, exact counts within ``budget`` characters, lower bounds."""
    if not tok.available:
        return [(None, False)] * len(texts)
    keys = [digest(tok.name, t) for t in texts]
    known = counts.lookup(keys) if counts is not None else {}
    new: dict[bytes, int] = {}
    left = budget
    out: list[tuple[int | None, bool]] = []
    for key, text in zip(keys, texts, strict=True):
        n = known.get(key, new.get(key))
        if n is None and (left is None or len(text) <= left):
            n = new[key] = tok.count(text)
            if left is not None:
                left -= len(text)
        out.append((tok.at_least(text), True) if n is None else (n, False))
    if counts is not None:
        counts.remember(new, [k for k in keys if k in known])
    return out


@contextlib.contextmanager
def counts_in(cache_dir: Path | str) -> Iterator[TokenCounts | None]:
    """The stored counts of the search database in ``cache_dir`` (None when it cannot be opened: counts are a
    cache)."""
    try:
        store = Store(Path(cache_dir) / INDEX_FILE)
    except (OSError, sqlite3.Error):
        yield None
        return
    try:
        yield TokenCounts(store)
    finally:
        store.close()
