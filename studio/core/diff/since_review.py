"""Where "changes since the last review decision" start: the git commit the pack's newest review record names,
or else the newest commit made before that record's time.

A review record (``runs/review-<UTC>.json``, ``studio.core.review``) holds when the curator decided, not which
commit they looked at; a record that carries a ``commit`` (or ``ref``) field says so itself and is taken at its
word. Otherwise the commit before the decision is the version the curator saw, as far as git can tell (what was
committed by then). Nothing is written; the record is read as ``review_reasons.last_decision`` reads it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.core.diff.git_tree import Git
from studio.core.diff.trouble import DiffTrouble
from studio.core.model import Pack
from studio.core.pack_fs import PackFS
from studio.core.review_reasons import last_decision
from studio.core.runs.reader import read_run_in
from studio.core.runs.timestamps import parse_time_text

REF_FIELDS = ("commit", "ref")
"""Fields of a review record that may name the commit the decision was about (checked in this order)."""


@dataclass(frozen=True, slots=True)
class ReviewBase:
    """The version of the pack a review decision was made on."""

    ref: str
    """A commit id (or the ref the record names)."""
    record: str
    """Pack-relative path of the review record."""
    decision: str
    timestamp: str
    how: str
    """One line saying how ``ref`` was found (for the diff view's heading)."""


def review_base(pack: Pack) -> ReviewBase:
    """The commit the pack's newest review decision was made on; ``DiffTrouble`` when there is no decision, no
    repository, or no commit before it."""
    decision = last_decision(pack)
    if decision is None:
        raise DiffTrouble(f"{pack.name} has no recorded review decision (runs/review-*.json)")
    named = _named_ref(Path(os.path.abspath(pack.root)), decision.record)
    if named is not None:
        return ReviewBase(named, decision.record, decision.decision, decision.timestamp,
                          f"the commit {decision.record} names")
    when = parse_time_text(decision.timestamp)
    if when is None:
        raise DiffTrouble(f"{decision.record} has no readable time and names no commit")
    with Git.around(Path(os.path.abspath(pack.root))) as git:
        commit = git.commit_before(when)
    if commit is None:
        raise DiffTrouble(f"no commit was made before the review of {decision.timestamp} ({decision.record})")
    return ReviewBase(commit, decision.record, decision.decision, decision.timestamp,
                      f"the last commit before the review of {decision.timestamp}")


def _named_ref(root: Path, record: str) -> str | None:
    with PackFS(root) as fs:
        data: Any = read_run_in(fs, record).data
    if not isinstance(data, dict):
        return None
    for name in REF_FIELDS:
        value = data.get(name)
        if isinstance(value, str) and value.strip() and len(value) <= 256:
            return value.strip()
    return None
