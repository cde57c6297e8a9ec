"""What Quick Open runs in worker threads: listing pack files into a new index, and one cancellable search."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

from studio.core.model import Pack
from studio.core.quick_open import DEFAULT_LIMIT, Index, PackListing, Search, list_packs, search


class LatestSearch:
    """The id of the newest search, read by running searches (from their worker) to notice they are stale."""

    def __init__(self) -> None:
        self.id = 0


def yield_gil() -> None:
    # Called between slices of a few hundred microseconds of core work. Without it, every Python call the
    # GUI thread makes meanwhile (a slot, each row's paint) can wait CPython's 5 ms switch interval for the
    # GIL; sleep(0) releases it but the running worker usually takes it straight back, a real (0.2 ms)
    # sleep lets a waiting GUI thread in. It costs a search at 40,000 entries some 10-30 ms of latency.
    time.sleep(0.0002)


def walk_job(stale: list[Pack], keep: list[PackListing], stop: threading.Event) -> tuple[list[PackListing],
                                                                                       Index | None]:
    """Worker: list the stale packs, then sort everything into a new index (None when stopped early)."""

    def stopped() -> bool:
        yield_gil()
        return stop.is_set()

    listings = list_packs(stale, cancelled=stopped)
    if stop.is_set():
        return listings, None
    return listings, Index([*keep, *listings])


def search_job(query: str, index: Index, among: Sequence[int] | None, latest: LatestSearch,
               request_id: int) -> tuple[Index, Search | None]:
    """Worker: one search, abandoned (None) as soon as a newer query exists."""

    def stale() -> bool:
        yield_gil()
        return latest.id != request_id

    return index, search(query, index, DEFAULT_LIMIT, among, cancelled=stale)
