"""The ``dispute list`` view of a pack: every thread with the files its claim is compiled into."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from studio.core.disputes.claims import ClaimIndex, read_claims
from studio.core.disputes.effect import current_threads
from studio.core.disputes.threads import Threads
from studio.core.pack_fs import held


def dispute_listing(root: Path) -> tuple[Threads, ClaimIndex]:
    """The pack's threads and claims, read through one held pack."""
    with held(root) as pack:
        return current_threads(Path(root), pack), read_claims(Path(root), pack)


def listing_json(threads: Threads, claims: ClaimIndex) -> dict[str, Any]:
    """``{disputes: [...], complete}``: threads in the order they were opened."""
    out = []
    for thread in sorted(threads.by_claim.values(), key=lambda t: (t.opened, t.claim)):
        claim = claims.get(thread.claim)
        out.append(thread.to_json(list(claim.files) if claim is not None else []))
    return {"disputes": out, "complete": threads.complete}


__all__ = ["dispute_listing", "listing_json"]
