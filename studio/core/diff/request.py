"""One comparison the app asks for, run whole in a worker: a pack against a git ref, another folder, or the
commit of its last review decision. Never raises for bad input: the outcome holds the report or one line of
trouble, so a worker only has to hand it back.
"""

from __future__ import annotations

from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

from studio.core.diff.compare import DiffOptions, diff_packs
from studio.core.diff.report import PackDiff
from studio.core.diff.since_review import review_base
from studio.core.diff.trouble import DiffTrouble
from studio.core.diff.versions import open_versions
from studio.core.model import Pack

KINDS = ("ref", "folder", "review")


@dataclass(frozen=True, slots=True)
class DiffRequest:
    """``pack`` (the new version, as it is on disk) against ``kind``: ``ref`` (``value`` is a git commit, tag or
    branch), ``folder`` (``value`` is another copy of the pack) or ``review`` (the commit of its last review
    decision; ``value`` unused)."""

    pack: Pack
    kind: str
    value: str = ""
    options: DiffOptions = DiffOptions()


@dataclass(frozen=True, slots=True)
class DiffOutcome:
    report: PackDiff | None
    trouble: str = ""
    """Why there is no report (one line)."""
    base: str = ""
    """What the old version is, in words (the review base is found here, not by the caller)."""


def run_request(request: DiffRequest) -> DiffOutcome:
    root = request.pack.root
    try:
        base = ""
        with ExitStack() as stack:
            if request.kind == "folder":
                old, new = open_versions(stack, Path(request.value), root)
            elif request.kind == "review":
                found = review_base(request.pack)
                base = f"{found.decision} of {found.timestamp} ({found.record}): {found.how}"
                old, new = open_versions(stack, root, from_ref=found.ref)
            else:
                old, new = open_versions(stack, root, from_ref=request.value.strip())
            return DiffOutcome(diff_packs(old, new, request.options), base=base)
    except DiffTrouble as exc:
        return DiffOutcome(None, str(exc))
    except OSError as exc:  # a folder that vanished or cannot be read while it was compared
        return DiffOutcome(None, f"{exc.filename or root}: {exc.strerror or exc}")
