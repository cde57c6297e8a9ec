"""What Quick Open lists: an entry (a pack by name, or a pack file by path) and the case folding it is matched in."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path


class EntryKind(IntEnum):
    """What an entry opens. The value is the tie-break order: a pack goes above a file with the same score."""

    PACK = 0
    FILE = 1


@dataclass(frozen=True, slots=True)
class Entry:
    """One thing Quick Open can open: a pack (by name) or a file in a pack (by ``<pack name>/<relative path>``)."""

    kind: EntryKind
    text: str
    """What is matched and shown: the pack's name, or the pack's name, ``/`` and the file's relative path."""
    root: Path
    """The pack root."""
    rel: str
    """The file's path relative to the root, ``/``-separated; empty for a pack."""
    key: str
    """``text`` lower-cased character by character, so that positions in it are positions in ``text``."""
    base: int
    """Index in ``text`` where the last path segment starts (0 for a pack)."""

    @classmethod
    def for_pack(cls, name: str, root: Path) -> Entry:
        return cls(EntryKind.PACK, name, root, "", fold(name), 0)

    @classmethod
    def for_file(cls, pack_name: str, root: Path, rel: str) -> Entry:
        text = f"{pack_name}/{rel}"
        return cls(EntryKind.FILE, text, root, rel, fold(text), text.rfind("/") + 1)

    @property
    def path(self) -> Path:
        """What opening the entry opens: the pack root or the file."""
        return self.root / self.rel if self.rel else self.root


def fold(text: str) -> str:
    """Lower-case ``text`` without changing its length.

    ``str.lower`` turns a few characters into two (``İ``); those are kept as they are, so an index into
    the folded text is an index into the original, which is what highlighting needs.
    """
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(low if len(low := c.lower()) == 1 else c for c in text)


def normalise_query(query: str) -> str:
    """The query as matched: folded like entry texts, without whitespace (``north faq`` finds ``northwind/faq.md``)."""
    return fold("".join(query.split()))
