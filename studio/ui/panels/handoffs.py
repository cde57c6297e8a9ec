"""Requests one mode panel hands to another (``ModePanel.handoff``): what to show when the other mode opens."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from studio.core.resolver import ResolveResult


@dataclass(frozen=True, slots=True)
class ResolveTask:
    """Open Resolve mode on this task, budget and profile (an eval case's configuration)."""

    task: str
    budget: int
    profile: str | None = None


@dataclass(frozen=True, slots=True)
class CaseFromResult:
    """Add a context case expecting ``result``'s picks to the answer-quality suite of the pack at ``pack_root``."""

    result: ResolveResult
    pack_root: Path
