"""Which copy an eval runs on, and which packs compete with it: one rule for the CLI, the app and the bench.

A curator evaluates the copy in view (the folder they opened), even when another copy of the same name wins
the workspace: the figures are that folder's, and a note says a client would load the other copy. Rivals in a
discovery eval are the packs a client would list in its catalog beside this one: hidden copies (shadowed,
quarantined, archived) are never listed, and a namesake is never a rival, because a client loads one copy of a
name, so copies of one pack never take a prompt from each other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from studio.core.model import Pack


def copy_in_view(pack: Pack) -> tuple[Pack, list[str]]:
    """``pack`` as the eval runs it, and notes on how a client would treat it differently."""
    notes: list[str] = []
    if not pack.behavior.loads:
        notes.append("A client would not load this pack: validation skipped or quarantined it; fix its errors first.")
    if pack.shadowed_by is None:
        return pack, notes
    notes.append(f"This copy is shadowed by {pack.shadowed_by}: a client loads that copy for the name "
                 f"{pack.name!r}. The figures are for this copy, as if it won.")
    return replace(pack, verdict=replace(pack.verdict, shadowed_by=None)), notes


def rivals(pack: Pack, workspace: Sequence[Pack]) -> list[Pack]:
    """Packs that compete with ``pack`` for a prompt: listed in a client's catalog, under another name."""
    return [p for p in workspace if p.root != pack.root and p.name and p.name != pack.name and p.in_catalog]
