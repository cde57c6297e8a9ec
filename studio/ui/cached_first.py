"""A warm workspace shown from the result cache at once, then confirmed in the background (issue #28, item 4).

Opening 10,000 unchanged packs is mostly proving that nothing changed: every file of every pack is stat'ed before
the cache may answer for it. The window need not wait for that proof to show what the cache already knows. So the
scan's child process first lists the workspace's pack folders (``find_packs``: the walk alone, no file read) and
hands the window each one's stored result as it is, unchecked (``stored_results``); the window shows them all.
Then the child opens the workspace as it always did, every fingerprint checked, and sends only the packs that came
out different from what the window was shown (``Confirmation``). The verdicts of settling follow as before; a pack
the cache knew but the scan no longer finds is not among them, and leaves.

Nothing shown from the cache outlives the confirmation: the workspace the window keeps is the confirmed one. A
stored result that does not decode is simply not shown early. Everything here runs outside the GUI process except
``decode``, which the scan's worker thread calls.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from studio.core import pack_loader
from studio.core.model import Pack
from studio.core.pack_loader import FoundPack
from studio.core.workspace import WorkspaceOptions, find_packs

GIVE_UP_AFTER = 100
"""Misses, before any hit, after which the cache is taken to know nothing of this workspace."""
LOOKUP_BATCH = 100
"""Pack folders looked up in one go (a query per pack cost twice as much as a few per batch)."""


@dataclass(frozen=True, slots=True)
class Stored:
    """One pack folder the scan found and its stored result, unchecked: what the window shows before confirming."""

    found: FoundPack
    payload: bytes


def stored_results(options: WorkspaceOptions, send: Callable[[Stored], None],
                   cancelled: Callable[[], bool] | None = None,
                   on_found: Callable[[int], None] | None = None) -> dict[str, Stored]:
    """Send the stored result of every pack folder of the workspace the cache knows, as each is looked up; returns
    what was sent, by root, for the ``Confirmation``. Nothing when there is no cache.

    ``on_found(how many)`` hears how many pack folders the walk found, before any result is sent."""
    cache = options.cache
    if cache is None or not cache.path.is_file():
        return {}  # a first start: nothing to show early, and the walk is not done twice
    folders = find_packs(options, cancelled=cancelled)  # a cancel or a rescan need not wait for the walk
    if on_found is not None:
        on_found(len(folders))
    sent: dict[str, Stored] = {}
    looked = 0
    for start in range(0, len(folders), LOOKUP_BATCH):
        if cancelled is not None and cancelled():
            break
        batch = [FoundPack(Path(f.root), f.scope, f.scope_root, f.top_dirs)
                 for f in folders[start:start + LOOKUP_BATCH]]
        # The loader's own lookup (its keys), without its fingerprint check: shown now, confirmed later.
        rows = pack_loader.stored_results(batch, options.content_checks, options.findings_only, cache)
        for found in batch:
            row = rows.get(found.root)
            if row is None:
                looked += 1
                continue
            item = Stored(found, row.payload)
            sent[str(found.root)] = item
            send(item)
        if not sent and looked >= GIVE_UP_AFTER:
            break  # the cache knows none of this workspace (another one's, or a newer studio's)
    return sent


def decode(item: Stored) -> Pack | None:
    """The pack a stored result describes, for the folder the scan found (None when it does not decode)."""
    return pack_loader.from_payload(item.found, item.payload)


class Confirmation:
    """Decides, pack by pack as the real load reports them, which the window must be sent: those it was not shown
    from the cache, or was shown otherwise than they loaded now."""

    def __init__(self, shown: dict[str, Stored]) -> None:
        self._shown = shown

    def differs(self, pack: Pack) -> bool:
        item = self._shown.pop(str(pack.root), None)
        # Decoded here again, not kept from before: the comparison needs each copy only for a moment.
        return item is None or decode(item) != pack
