"""The two versions a diff compares, opened from what a user names: two folders, or one pack folder at a git ref
and at another ref (or as it is now). One place for the CLI and the app, so both read refs the same way.

    with ExitStack() as stack:
        old, new = open_versions(stack, Path("packs/atlas"), from_ref="v1")
"""

from __future__ import annotations

import os
from contextlib import ExitStack
from pathlib import Path

from studio.core.diff.git_tree import Git
from studio.core.diff.snapshot import Snapshot, folder_snapshot, ref_snapshot


def open_versions(stack: ExitStack, old: Path, new: Path | None = None, *, from_ref: str | None = None,
                  to_ref: str | None = None) -> tuple[Snapshot, Snapshot]:
    """(old, new) snapshots, closed with ``stack``: ``old`` and ``new`` folders, or the folder ``old`` at
    ``from_ref`` and at ``to_ref`` (None: the folder as it is). ``DiffTrouble`` when a version cannot be read."""
    if from_ref is None:
        if new is None:
            raise ValueError("two folders, or a folder and a ref")
        return stack.enter_context(folder_snapshot(old)), stack.enter_context(folder_snapshot(new))
    if to_ref is None:
        return stack.enter_context(ref_snapshot(old, from_ref)), stack.enter_context(folder_snapshot(old))
    git = stack.enter_context(Git.around(Path(os.path.abspath(old))))
    return (stack.enter_context(ref_snapshot(old, from_ref, git)),
            stack.enter_context(ref_snapshot(old, to_ref, git)))
