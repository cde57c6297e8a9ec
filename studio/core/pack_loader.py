"""Loading the packs a scan found: one after another, or in forked worker processes while the scan goes on.

Loading is CPU-bound Python (parsing and checks), so a thread pool does not help; worker processes do. The
``StreamingLoader`` takes packs as the scan finds them and hands them to the workers in small batches, so the
walk of a large tree and the loading of what it already found overlap (10,000 packs: the walk alone is a
third of a second). A crash in a worker (a C extension) costs the packs of one batch a retry, and a pack that
kills its worker again is reported instead of taking the whole scan down.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from studio.core import pack_fingerprint, result_cache
from studio.core.diagnostics import Behavior, Code, Severity
from studio.core.model import Frontmatter, KnowledgeFile, Pack, Scope
from studio.core.pack import load_pack
from studio.core.pack_fs import recording
from studio.core.result_cache import CacheSpec, CacheStats, NewResult, StoredResult

if TYPE_CHECKING:  # multiprocessing is imported only when workers start: most commands load one pack
    from concurrent.futures import Future, ProcessPoolExecutor
    from multiprocessing.context import BaseContext

INTERNAL_ERROR = Code("internal-error", Severity.ERROR,
                      "the studio failed while loading this pack; it was skipped (please report it)", Behavior.SKIP, "",
                      hint="Please report this with the pack attached.")
CODES = (INTERNAL_ERROR,)

MIN_PACKS_FOR_PROCESSES = 200
"""Below this, starting workers costs more than it saves."""
BATCH = 100
"""Packs per job sent to a worker: large enough that sending it costs little next to loading it, small enough that
the workers start while the scan is still walking and finish together."""


@dataclass(frozen=True, slots=True)
class FoundPack:
    """A pack folder the scan found, with where it was found and its top-level folders (from the scan's listing)."""

    root: Path
    scope: Scope
    scope_root: Path | None
    top_dirs: frozenset[str] | None = None


def load_all(
    found: list[FoundPack],
    on_pack: Callable[[Pack], None] | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    content: bool = False,
    findings_only: bool = False,
    cache: CacheSpec | None = None,
    stats: CacheStats | None = None,
) -> tuple[list[Pack], bool]:
    """Load packs in this process, one after another, checking for cancel between packs: (packs, cancelled).

    The app runs this whole call off the GUI thread (in its scan process), where each pack is reported as it
    loads. With ``cache``, unchanged packs come from the result cache and new results are stored at the end.
    """
    total = len(found)
    if on_progress is not None:
        on_progress(0, total)
    packs: list[Pack] = []
    new: list[NewResult] = []
    stopped = False
    for start in range(0, total, BATCH):
        chunk = found[start:start + BATCH]
        stored = stored_results(chunk, content, findings_only, cache)
        for item in chunk:
            if cancelled is not None and cancelled():
                stopped = True
                break
            pack, result = load_cached(item, content, findings_only, cache, stored.get(item.root))
            _count(stats, result)
            if isinstance(result, NewResult):
                new.append(result)
            packs.append(pack)
            if on_pack is not None:
                on_pack(pack)
            if on_progress is not None:
                on_progress(len(packs), total)
        if stopped:
            break
    _store(cache, new, stats)
    packs.sort(key=pack_order)
    return packs, stopped


class StreamingLoader:
    """Packs handed over one at a time while a scan runs, loaded by ``processes`` forked workers.

    Until ``MIN_PACKS_FOR_PROCESSES`` packs have come in, nothing starts (a small workspace loads in this process,
    where starting workers would cost more); from then on every ``BATCH`` packs go to a worker at once. ``finish``
    returns every pack, sorted as ``load_all`` sorts them, and reports each to ``on_pack`` as its batch comes back
    (in the order handed over). Where fork is unavailable, or with one process, everything loads here.
    ``worker_init`` runs first thing in each worker (the app's helpers lower their priority and end with their
    parent).
    """

    def __init__(self, processes: int, *, content: bool = False, findings_only: bool = False,
                 on_pack: Callable[[Pack], None] | None = None,
                 on_progress: Callable[[int, int], None] | None = None,
                 cancelled: Callable[[], bool] | None = None,
                 worker_init: Callable[[], None] | None = None,
                 cache: CacheSpec | None = None) -> None:
        self._processes = processes
        self._cache = cache
        self.cache_stats = CacheStats()
        """What the result cache gave and took in this load (hits, misses, stored, too recent to store)."""
        self._worker_init = worker_init
        self._content = content
        self._findings_only = findings_only
        self._on_pack = on_pack
        self._on_progress = on_progress
        self._cancelled = cancelled
        self._pending: list[FoundPack] = []
        self._jobs: list[tuple[list[FoundPack], Future[list[tuple[Pack | bytes, NewResult | bool]]]]] = []
        self._handed = 0
        self._done = 0
        self._pool: ProcessPoolExecutor | None = None
        self._ctx: BaseContext | None = None
        if processes > 1:
            import multiprocessing

            if "fork" in multiprocessing.get_all_start_methods():
                self._ctx = multiprocessing.get_context("fork")

    def add(self, item: FoundPack) -> None:
        self._pending.append(item)
        self._handed += 1
        if self._ctx is None:
            return
        if self._pool is None and len(self._pending) >= MIN_PACKS_FOR_PROCESSES:
            self._start()
        if self._pool is not None and len(self._pending) >= BATCH:
            self._submit()

    def finish(self) -> tuple[list[Pack], bool]:
        """Every pack handed over, loaded (waits for the workers): (packs, cancelled before the end)."""
        if self._pool is None:
            return load_all(self._pending, self._on_pack, self._on_progress, self._cancelled, self._content,
                            self._findings_only, self._cache, self.cache_stats)
        from concurrent.futures.process import BrokenProcessPool

        self._submit()
        packs: list[Pack] = []
        new: list[NewResult] = []
        retry: list[FoundPack] = []
        stopped = False
        if self._on_progress is not None:
            self._on_progress(0, self._handed)
        with self._pool:
            for batch, future in self._jobs:
                if self._cancelled is not None and self._cancelled():
                    stopped = True
                    self._pool.shutdown(wait=False, cancel_futures=True)
                    break
                try:
                    loaded = self._take(batch, future.result(), new)
                except BrokenProcessPool:
                    retry.extend(batch)
                    continue
                self._report(loaded)
                packs.extend(loaded)
            # A crash breaks the whole pool, so every unfinished batch failed with the guilty one: run each
            # again on its own, and split only a batch that kills its worker again.
            assert self._ctx is not None
            for start in range(0, 0 if stopped else len(retry), BATCH):
                part = retry[start:start + BATCH]
                loaded = self._take(part, _load_isolated(part, self._ctx, self._content, self._findings_only,
                                                         self._cache), new)
                self._report(loaded)
                packs.extend(loaded)
        _store(self._cache, new, self.cache_stats)
        packs.sort(key=pack_order)
        return packs, stopped

    def _take(self, batch: list[FoundPack], loaded: list[tuple[Pack | bytes, NewResult | bool]],
              new: list[NewResult]) -> list[Pack]:
        packs = []
        for found, (item, result) in zip(batch, loaded, strict=True):
            pack = item if isinstance(item, Pack) else from_payload(found, item)
            if pack is None:  # a stored result that does not decode here: load it after all
                pack, result = load_safely(found, self._content, self._findings_only), False
            _count(self.cache_stats, result)
            if isinstance(result, NewResult):
                new.append(result)
            packs.append(pack)
        return packs

    def _report(self, loaded: list[Pack]) -> None:
        if self._on_pack is not None:
            for pack in loaded:
                self._on_pack(pack)
        if self._on_progress is not None:
            self._done += len(loaded)
            self._on_progress(self._done, self._handed)

    def _start(self) -> None:
        from concurrent.futures import ProcessPoolExecutor

        # Import the checks before forking, so that no worker (nor a crash retry) imports them again.
        from studio.core.checks import content_check_modules
        from studio.core.validate import validate_pack  # noqa: F401

        if self._content:
            content_check_modules()
        self._pool = ProcessPoolExecutor(self._processes, mp_context=self._ctx, initializer=self._worker_init)

    def _submit(self) -> None:
        from concurrent.futures import Future
        from concurrent.futures.process import BrokenProcessPool

        assert self._pool is not None
        for start in range(0, len(self._pending), BATCH):
            batch = self._pending[start:start + BATCH]
            try:
                future = self._pool.submit(_load_batch, batch, self._content, self._findings_only, self._cache)
            except BrokenProcessPool:  # a worker died already: the batch is retried on its own in finish()
                future = Future()
                future.set_exception(BrokenProcessPool("a worker process died"))
            self._jobs.append((batch, future))
        self._pending = []


def _load_isolated(batch: list[FoundPack], ctx: BaseContext, content: bool, findings_only: bool,
                   cache: CacheSpec | None) -> list[tuple[Pack | bytes, NewResult | bool]]:
    """Load ``batch`` in a worker of its own; when it kills the worker, halve it until the culprit is alone."""
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    with ProcessPoolExecutor(1, mp_context=ctx) as alone:
        try:
            return alone.submit(_load_batch, batch, content, findings_only, cache).result()
        except BrokenProcessPool:
            pass
    if len(batch) == 1:
        return [(_failed(batch[0], "Loading this pack crashed the loader process; it was skipped"), False)]
    middle = len(batch) // 2
    return (_load_isolated(batch[:middle], ctx, content, findings_only, cache)
            + _load_isolated(batch[middle:], ctx, content, findings_only, cache))


def _load_batch(batch: list[FoundPack], content: bool, findings_only: bool = False,
                cache: CacheSpec | None = None) -> list[tuple[Pack | bytes, NewResult | bool]]:
    """A worker's batch. A cache hit goes back as the stored bytes: the parent decodes them once, where decoding
    here and pickling the pack again to send it would cost twice that."""
    out: list[tuple[Pack | bytes, NewResult | bool]] = []
    stored = stored_results(batch, content, findings_only, cache)
    for item in batch:
        payload = cached_payload(item, stored.get(item.root))
        out.append((payload, True) if payload is not None else load_fresh(item, content, findings_only, cache))
    return out


def load_cached(found: FoundPack, content: bool, findings_only: bool, cache: CacheSpec | None,
                stored: StoredResult | None) -> tuple[Pack, NewResult | bool]:
    """The pack, from its ``stored`` result (``stored_results``) when its fingerprint is unchanged, else loaded
    (``load_safely``).

    The second item is True for a cache hit, a ``NewResult`` for the caller to store (workers never write the
    cache: the process that owns the run stores every new result in one transaction), or False when there is
    nothing to store (no cache, a failed load, a fingerprint too recent or one the cache cannot vouch for).
    """
    payload = cached_payload(found, stored)
    pack = from_payload(found, payload) if payload is not None else None
    if pack is not None:
        return pack, True
    return load_fresh(found, content, findings_only, cache)


def _key(found: FoundPack, content: bool, findings_only: bool, cache: CacheSpec) -> str:
    variant = ("content" if content else "fast") + ("+findings-only" if findings_only else "")
    return result_cache.result_key(cache, found.root, found.scope.value, found.scope_root, variant)


def stored_results(batch: list[FoundPack], content: bool, findings_only: bool,
                   cache: CacheSpec | None) -> dict[Path, StoredResult]:
    """The result cache's rows for the packs of ``batch``, by root (a few queries for the batch: one per pack cost
    twice as much). Nothing without a cache, or when the cache cannot be read."""
    if cache is None:
        return {}
    roots = {_key(found, content, findings_only, cache): found.root for found in batch}
    try:
        return {roots[key]: row for key, row in result_cache.lookup_many(cache, list(roots)).items()}
    except Exception:  # a damaged row is a miss, never a failed load  # noqa: BLE001
        return {}


def cached_payload(found: FoundPack, stored: StoredResult | None) -> bytes | None:
    """The stored result's bytes when the pack's fingerprint is unchanged; None for any reason to load it."""
    if stored is None:
        return None
    try:
        if pack_fingerprint.still_matches(found.root, stored.fingerprint):
            return stored.payload
    except Exception:  # a damaged row is a miss, never a failed load  # noqa: BLE001
        pass
    return None


def from_payload(found: FoundPack, payload: bytes) -> Pack | None:
    """The pack a stored result describes, for the folder the scan found (None when it does not decode)."""
    try:
        knowledge, diagnostics, top_dirs = result_cache.decode(payload)
    except Exception:  # noqa: BLE001
        return None
    if top_dirs != found.top_dirs or not isinstance(knowledge, KnowledgeFile | None) or \
            not isinstance(diagnostics, tuple):
        return None
    return Pack(found.root, found.scope, found.scope_root, knowledge=knowledge, diagnostics=diagnostics,
                top_dirs=top_dirs)


def load_fresh(found: FoundPack, content: bool, findings_only: bool,
               cache: CacheSpec | None) -> tuple[Pack, NewResult | bool]:
    """Load the pack, and with a cache the result to store for it (or False: see ``load_cached``)."""
    if cache is None:
        return load_safely(found, content, findings_only), False
    key = _key(found, content, findings_only, cache)
    start = time.time_ns()
    with recording(str(found.root)) as log:
        pack = load_safely(found, content, findings_only)
    if any(d.code == INTERNAL_ERROR.code for d in pack.diagnostics):
        return pack, False
    try:
        printed = pack_fingerprint.after_load(found.root, log)
    except OSError:
        printed = None
    if printed is None or printed.newest_ns >= start - cache.racy_ns:
        return pack, False
    # Stored without the root and scope (the key names them): rebuilding Path objects was a third of a hit.
    payload = result_cache.encode((pack.knowledge, pack.diagnostics, pack.top_dirs))
    return pack, NewResult(key, result_cache.StoredResult(printed.fingerprint, payload))


def _count(stats: CacheStats | None, result: NewResult | bool) -> None:
    if stats is None:
        return
    if result is True:
        stats.hits += 1
    else:
        stats.misses += 1
        if result is False:
            stats.unstored += 1


def _store(cache: CacheSpec | None, new: list[NewResult], stats: CacheStats | None) -> None:
    if cache is None or not new:
        return
    store = result_cache.ResultStore(cache)
    written = store.store(new)
    result_cache.forget_readers()  # this process's readers may have seen the file before it was written
    if stats is not None:
        stats.stored += written
        stats.notices.extend(store.notices)


SUMMARY_KEYS = ("name", "description", "type", "status", "trust", "grounding", "version", "profile", "runtime",
                "updated")
"""The frontmatter a findings-only pack keeps: what a pack's summary and the settling of collisions read."""
_SETTLE_POSITIONS: tuple[tuple[str, ...], ...] = (("name",), ("trust",))
"""Key positions settling reads (its findings sit on the ``name`` or ``trust`` line)."""


def _findings_only(pack: Pack) -> Pack:
    """The pack reduced to its findings and summary (see ``WorkspaceOptions.findings_only``): no text or body, and
    of the frontmatter only ``SUMMARY_KEYS`` and the positions settling needs. Workers send back far less."""
    kf = pack.knowledge
    if kf is None:
        return pack
    fm = kf.frontmatter
    lean = None
    if fm is not None:
        data = {key: fm.data[key] for key in SUMMARY_KEYS if key in fm.data}
        positions = {key: fm.positions[key] for key in _SETTLE_POSITIONS if key in fm.positions}
        lean = Frontmatter(data, positions, fm.start_line, fm.end_line, "")
    knowledge = KnowledgeFile(lean, body="", body_start_line=kf.body_start_line, text="", has_bom=kf.has_bom,
                              crlf=kf.crlf, truncated=kf.truncated, size=kf.size)
    return Pack(pack.root, pack.scope, pack.scope_root, knowledge=knowledge, diagnostics=pack.diagnostics,
                top_dirs=pack.top_dirs, verdict=pack.verdict)


def _failed(found: FoundPack, message: str) -> Pack:
    """``found`` as a pack holding one internal-error finding: what a load that broke down leaves of it."""
    return Pack(root=found.root, scope=found.scope, scope_root=found.scope_root,
                diagnostics=(INTERNAL_ERROR(message, pack=str(found.root)),))


def load_safely(found: FoundPack, content: bool = False, findings_only: bool = False) -> Pack:
    """``load_pack`` promises not to raise; if a bug breaks that, one pack fails, not the workspace."""
    try:
        pack = load_pack(found.root, found.scope, found.scope_root, content=content, top_dirs=found.top_dirs)
        return _findings_only(pack) if findings_only else pack
    except Exception as exc:  # the boundary that keeps one bad pack from sinking the scan
        return _failed(found, f"The studio failed while loading this pack: {exc!r}")


def pack_order(pack: Pack | FoundPack) -> tuple[int, tuple[str, ...]]:
    """The workspace's order: scope precedence, then the folder's path."""
    return (pack.scope.precedence, pack.root.parts)


__all__ = ["INTERNAL_ERROR", "FoundPack", "StreamingLoader", "load_all", "load_safely", "pack_order"]
