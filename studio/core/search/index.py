"""``SearchIndex``: the one object callers hold: open the index, keep it current, search it, describe it."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from studio.core.cache_files import NotOurs, default_cache_dir, is_damage, reason
from studio.core.diagnostics import Diagnostic
from studio.core.scan import Stamp
from studio.core.search import indexer, query
from studio.core.search.changes import RefreshReport
from studio.core.search.query import SearchMode, SearchResults
from studio.core.search.store import INDEX_FILE, INDEX_IN_MEMORY, Store

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class IndexInfo:
    """What the CLI and the status line say about the index."""

    path: str
    """The database file, or ``:memory:``."""
    packs: int
    files: int
    sections: int
    bytes: int
    updated: float
    """Seconds since the epoch of the last refresh (0 when never refreshed)."""

    def to_json(self) -> dict[str, Any]:
        updated = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(self.updated)) if self.updated else None
        return {"path": self.path, "packs": self.packs, "files": self.files, "sections": self.sections,
                "bytes": self.bytes, "updated": updated}


HEAL_ATTEMPTS = 3
"""Runs of an action that met what looked like damage (see ``SearchIndex._healing``)."""


class SearchIndex:
    """The workspace search index (see ``studio.core.search``). Thread-safe: calls are serialised on one
    connection; several processes may share the file."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @classmethod
    def open(cls, cache_dir: Path | str | None = None) -> SearchIndex:
        """The index in ``cache_dir`` (default ``default_cache_dir()``); in memory, with a notice, when that
        folder cannot hold it."""
        folder = Path(cache_dir) if cache_dir is not None else default_cache_dir()
        try:
            return cls(Store(folder / INDEX_FILE))
        except (OSError, sqlite3.Error) as exc:
            index = cls(Store(None))
            index.store.notices.append(INDEX_IN_MEMORY(f"The search index cannot be kept in {folder} ({exc}); "
                                                       "it is kept in memory for this run.", file=str(folder)))
            return index

    @classmethod
    def in_memory(cls) -> SearchIndex:
        return cls(Store(None))

    @property
    def path(self) -> Path | None:
        return self.store.path

    @property
    def notices(self) -> list[Diagnostic]:
        """Things the user should be told once (an index rebuilt, an index kept in memory)."""
        return self.store.notices

    def close(self) -> None:
        self.store.close()

    def _healing(self, action: Callable[[], T]) -> T:
        """``action()``; when it meets a damaged index (bad pages, a table gone: on any path, not only at open),
        the file is deleted and made again with a notice (``Store.reset``) and ``action`` runs once more on the
        fresh one. What the write lock shows was not damage (another process's commit under way) is tried again
        first. Busy or locked files are not damage: those errors reach the caller."""
        for attempt in range(HEAL_ATTEMPTS - 1):
            try:
                return action()
            except (sqlite3.DatabaseError, NotOurs) as exc:
                if not (isinstance(exc, NotOurs) or is_damage(exc)):
                    raise
                # The first time, judged again under the write lock; met again, it is damage the look missed.
                if self.store.reset(reason(exc), check=attempt == 0):
                    break
        return action()

    # -- keeping it current --------------------------------------------------------------------------------
    def refresh(self, roots: Iterable[Path | str], *, on_progress: Callable[[int, int], None] | None = None,
                cancelled: Callable[[], bool] | None = None, quick: bool = True,
                seen: Mapping[str, Stamp] | None = None) -> RefreshReport:
        """Bring the packs at ``roots`` up to date (build from nothing on first use). ``quick``: skip packs whose
        folders did not change since their last walk (``folders``; False stats every file). ``seen``: the pack
        folders' stamps from the caller's scan of this run (``workspace.FoundRoot.stamp``), not stat'ed again."""
        wanted = list(roots)
        return self._healing(lambda: indexer.refresh(self.store, wanted, on_progress=on_progress,
                                                     cancelled=cancelled, quick=quick, seen=seen))

    def update_paths(self, paths: Iterable[Path | str]) -> RefreshReport:
        """Re-index what changed at ``paths`` (what the live-reload watcher reports); cheap for one file."""
        wanted = list(paths)
        return self._healing(lambda: indexer.update_paths(self.store, wanted))

    def maintain(self) -> None:
        """Housekeeping after updates (a bounded merge of small segments, a checkpoint of a grown WAL); run it
        after ``update_paths`` has returned, on the same worker."""
        self._healing(self.store.maintain)

    # -- reading ---------------------------------------------------------------------------------------------
    def search(self, text: str, *, roots: Iterable[Path | str] | None = None, kinds: Iterable[str] | None = None,
               path_prefix: str = "", limit: int = query.DEFAULT_LIMIT, mode: SearchMode = "auto") -> SearchResults:
        return query.search(self.store, text, roots=None if roots is None else [str(r) for r in roots],
                            kinds=kinds, path_prefix=path_prefix, limit=limit, mode=mode)

    def info(self) -> IndexInfo:
        return self._healing(self._info)

    def _info(self) -> IndexInfo:
        with self.store.lock:
            conn = self.store.conn
            packs = conn.execute("SELECT count(*) FROM packs").fetchone()[0]
            files = conn.execute("SELECT count(*) FROM files").fetchone()[0]
            sections = conn.execute("SELECT count(*) FROM sections").fetchone()[0]
        updated = float(self.store.meta("updated", "0") or 0)
        return IndexInfo(str(self.path) if self.path else ":memory:", packs, files, sections,
                         self.store.size_bytes(), updated)
