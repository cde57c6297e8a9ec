"""A step of a claim dispute (open, comment, decide) as a value: what one ``runs/dispute-*.json`` record holds.

Every step is its own file, ``runs/dispute-<claim>-<UTC time>.json`` (``studio.core.dispute_actions`` checks and
writes it, atomically and exclusively), so two people writing at the same moment both keep their position, and a
git merge of two branches simply holds both files. The thread is rebuilt from the files (``threads``); nothing is
ever edited in place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from studio.core.atomic import record_tool
from studio.core.jsonwrite import FieldsJson

STEPS = ("open", "comment", "decide")
DECISIONS = ("keep", "amend", "retract")
MAX_TEXT_CHARS = 20_000
"""A reason or comment longer than this is not a position in a discussion; refused rather than stored."""
RECORD_PREFIX = "dispute-"
_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


class DisputeError(ValueError):
    """The step cannot be recorded as asked (unknown claim, bad decision, no text, evidence outside the pack)."""


class UnknownClaim(DisputeError):
    """The claim id is in neither the source map nor ``ontology/claims.json``; ``nearest`` holds look-alikes."""

    def __init__(self, claim_id: str, nearest: list[str]) -> None:
        hint = f"; nearest: {', '.join(nearest)}" if nearest else "; the pack declares no claim like it"
        super().__init__(f"unknown claim '{claim_id}'{hint}")
        self.claim_id = claim_id
        self.nearest = nearest


@dataclass(frozen=True, slots=True)
class Evidence(FieldsJson):
    """A place in the pack a position points to, with the excerpt the evidence reader found there."""

    path: str
    line: int | None
    excerpt: str


@dataclass(frozen=True, slots=True)
class DisputeStep:
    """What one ``runs/dispute-*.json`` holds."""

    pack: str
    claim: str
    step: str
    author: str
    text: str
    timestamp: str
    """ISO 8601 UTC with microseconds (the order of the thread)."""
    evidence: tuple[Evidence, ...] = ()
    decision: str | None = None
    new_text: str | None = None
    """For ``amend``: the claim's new text."""
    claim_text: str = ""
    """The claim's text when the step was written: what an amendment replaces."""
    name: str = ""
    """The record's file name (set when read back; orders steps of the same instant)."""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"record": "dispute", "step": self.step, "pack": self.pack, "claim": self.claim,
                               "author": self.author, "text": self.text, "timestamp": self.timestamp,
                               "evidence": [e.to_json() for e in self.evidence]}
        if self.decision is not None:
            out["decision"] = self.decision
        if self.new_text is not None:
            out["new_text"] = self.new_text
        if self.claim_text:
            out["claim_text"] = self.claim_text
        out["tool"] = record_tool()
        return out


def record_slug(claim_id: str) -> str:
    """The claim id as a file-name part: letters, digits, ``.``, ``_``, ``-`` only, at most 60 characters."""
    return _UNSAFE_NAME.sub("_", claim_id).strip("._")[:60] or "claim"


__all__ = ["DECISIONS", "MAX_TEXT_CHARS", "RECORD_PREFIX", "STEPS", "DisputeError", "DisputeStep", "Evidence",
           "UnknownClaim", "record_slug"]
