"""The entries Quick Open searches, held as columns in the order ties are broken in."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import overload

from studio.core.labels import telling_suffixes
from studio.core.model import Pack
from studio.core.quick_open.entries import Entry, EntryKind, fold
from studio.core.quick_open.listing import PackListing, list_packs


def tie_order(entry: Entry) -> tuple[int, int, str, str]:
    """How entries with the same score are ordered: shorter text, then packs before files, then by name."""
    return len(entry.text), entry.kind, entry.key, entry.text


class Index(Sequence[Entry]):
    """The entries a search runs over, in ``tie_order``, so a search can stop once nothing further down can
    enter the top.

    Held as columns of strings and ints, not as 40,000 ``Entry`` objects: the garbage collector does not
    track strings and ints, while every long-lived object it does track makes its full collections longer
    (building entries as objects in a worker set off one that held the GUI thread for 50-160 ms). ``Entry``
    objects are made on demand, for the few results shown. Immutable; safe to share with worker threads.
    """

    texts: list[str]
    keys: list[str]
    bases: list[int]
    splits: list[int]
    """Where the relative path starts in the text; 0 for a pack."""
    owners: list[int]
    """Index into ``roots`` of each entry's pack."""
    roots: list[Path]

    def __init__(self, listings: Iterable[PackListing] = ()) -> None:
        """The listed packs (each by name) and their files (each as ``<pack name>/<relative path>``)."""
        texts: list[str] = []
        splits: list[int] = []
        owners: list[int] = []
        roots: list[Path] = []
        listings = list(listings)
        shown = telling_names(listings)
        for listing in listings:
            owner = len(roots)
            roots.append(listing.root)
            name = shown.get(listing.root, listing.name)
            texts.append(name)
            splits.append(0)
            owners.append(owner)
            split = len(name) + 1
            for rel in listing.files:
                texts.append(f"{name}/{rel}")
                splits.append(split)
                owners.append(owner)
        keys = [fold(text) for text in texts]
        bases = [text.rfind("/") + 1 if split else 0 for text, split in zip(texts, splits, strict=True)]
        self._set(texts, keys, bases, splits, owners, roots, _tie_sorted(texts, keys, splits))

    @classmethod
    def of(cls, entries: Iterable[Entry]) -> Index:
        """An index of entries made one by one (``Entry.for_pack``, ``Entry.for_file``)."""
        rows = list(entries)
        roots: dict[Path, int] = {}
        owners = [roots.setdefault(e.root, len(roots)) for e in rows]
        texts, keys = [e.text for e in rows], [e.key for e in rows]
        splits = [len(e.text) - len(e.rel) if e.rel else 0 for e in rows]
        index = cls.__new__(cls)
        index._set(texts, keys, [e.base for e in rows], splits, owners, list(roots), _tie_sorted(texts, keys, splits))
        return index

    def without(self, roots: Iterable[Path]) -> Index:
        """This index minus the packs at ``roots`` (still in tie order; nothing is sorted again)."""
        leaving = set(roots)
        staying = [root for root in self.roots if root not in leaving]
        renumber = {old: new for new, old in enumerate(i for i, root in enumerate(self.roots) if root not in leaving)}
        keep = [i for i, owner in enumerate(self.owners) if owner in renumber]
        index = Index.__new__(Index)
        index._set(self.texts, self.keys, self.bases, self.splits, [renumber.get(o, -1) for o in self.owners],
                   staying, keep)
        return index

    def _set(self, texts: list[str], keys: list[str], bases: list[int], splits: list[int], owners: list[int],
             roots: list[Path], order: list[int]) -> None:
        self.texts = [texts[i] for i in order]
        self.keys = [keys[i] for i in order]
        self.bases = [bases[i] for i in order]
        self.splits = [splits[i] for i in order]
        self.owners = [owners[i] for i in order]
        self.roots = roots

    def kind(self, i: int) -> EntryKind:
        return EntryKind.FILE if self.splits[i] else EntryKind.PACK

    def __len__(self) -> int:
        return len(self.texts)

    @overload
    def __getitem__(self, i: int) -> Entry: ...
    @overload
    def __getitem__(self, i: slice) -> list[Entry]: ...
    def __getitem__(self, i: int | slice) -> Entry | list[Entry]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        split = self.splits[i]
        text = self.texts[i]
        return Entry(self.kind(i), text, self.roots[self.owners[i]], text[split:] if split else "", self.keys[i],
                     self.bases[i])


def _tie_sorted(texts: list[str], keys: list[str], splits: list[int]) -> list[int]:
    """Row numbers in ``tie_order``.

    Sorted by length first, then one small sort per length, on string keys: one sort of 40,000 rows is a
    single C call that keeps every other Python thread (the GUI's) waiting for tens of milliseconds, and
    tuple keys would be 40,000 more objects for the garbage collector to walk.
    """
    by_length: dict[int, list[int]] = {}
    for i, text in enumerate(texts):
        by_length.setdefault(len(text), []).append(i)
    order: list[int] = []
    for length in sorted(by_length):
        # Same length means same key length, so "kind, key, NUL, text" compares as (kind, key, text).
        order.extend(sorted(by_length[length], key=lambda i: f"{1 if splits[i] else 0}{keys[i]}\0{texts[i]}"))
    return order


def telling_names(listings: Sequence[PackListing]) -> dict[Path, str]:
    """For packs whose name another listed pack carries: the pack folder as far as it tells them apart
    (``v0.4.0/acme`` beside ``v0.7.2/acme``, as the tree's labels do), so their rows differ and typing the
    telling folder finds them. A unique name is not in the result."""
    by_name: dict[str, list[Path]] = {}
    for listing in listings:
        by_name.setdefault(listing.name, []).append(listing.root)
    out: dict[Path, str] = {}
    for name, same in by_name.items():
        if len(same) < 2:
            continue
        for root, folder in telling_suffixes(same).items():
            head, sep, last = folder.rpartition("/")
            # The folder's own name says the pack's name when they agree: keep the name, put the telling head first.
            out[root] = f"{head}{sep}{name}" if sep and last == name else folder if folder != name else str(root)
    return out


def build_index(packs: Iterable[Pack]) -> Index:
    """Every pack and every pack's files, in ``tie_order``: what ``search`` searches."""
    return Index(list_packs(packs))
