"""Dispute threads rebuilt from the ``runs/dispute-*.json`` records: one thread per claim, in time order.

Nothing but the record files holds a thread, so two branches that each added positions merge into one thread
with both (each position is its own file; git never has to merge the inside of one). Steps are ordered by their
timestamp and then by file name. The state machine is deliberately forgiving, because records from merged
branches can arrive in any order: an ``open`` starts a thread (or reopens a decided one), a ``comment`` adds a
position (a comment with no open before it opens the thread), and a ``decide`` closes it with its decision; the
latest decision counts. Records that are not dispute records, or that are malformed, are skipped here
(``validate-run`` reports them).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.core.disputes.model import DECISIONS, RECORD_PREFIX, STEPS, DisputeStep, Evidence
from studio.core.jsonread import read_pack_json
from studio.core.pack_fs import PackFS, held

MAX_RECORD_BYTES = 256 * 1024
"""A step holds at most 20,000 characters of text, 20 excerpts of 1,000 and a new claim text: well under this."""
MAX_RECORDS = 5_000
"""Dispute records read per pack; beyond this the thread list says it is incomplete."""


@dataclass(slots=True)
class Thread:
    """One claim's dispute: its positions, its state and the decision that ended it (if any)."""

    claim: str
    steps: list[DisputeStep] = field(default_factory=list)
    state: str = "open"
    """``open`` or ``decided``."""
    decision: str | None = None
    new_text: str | None = None
    old_text: str = ""
    """The claim's text as it was when the dispute was opened (what ``amend`` replaces)."""
    opened: str = ""
    decided: str | None = None
    records: list[str] = field(default_factory=list)
    """The record files of the thread, pack-relative, in order."""

    @property
    def is_open(self) -> bool:
        return self.state == "open"

    def to_json(self, files: list[str]) -> dict[str, Any]:
        """The ``dispute list --format json`` shape."""
        return {"claim": self.claim, "state": self.state, "decision": self.decision, "opened": self.opened,
                "decided": self.decided, "new_text": self.new_text,
                "positions": [{"author": s.author, "step": s.step, "text": s.text,
                               "evidence": [e.to_json() for e in s.evidence], "at": s.timestamp,
                               **({"decision": s.decision} if s.decision else {})} for s in self.steps],
                "files": files, "records": list(self.records)}


@dataclass(slots=True)
class Threads:
    """Every thread of a pack, by claim id, with whether the records could all be read."""

    by_claim: dict[str, Thread] = field(default_factory=dict)
    complete: bool = True

    def open_claims(self) -> set[str]:
        return {c for c, t in self.by_claim.items() if t.is_open}

    def get(self, claim_id: str) -> Thread | None:
        return self.by_claim.get(claim_id)


def read_steps(root: Path, fs: PackFS | None = None) -> tuple[list[DisputeStep], bool]:
    """Every well-formed dispute step under ``runs/`` (top level only), and whether all were read."""
    steps: list[DisputeStep] = []
    with held(root, fs) as pack:
        folder = pack.open_dir("runs")
        if folder is None:
            return steps, True
        try:  # the descriptor belongs to the PackFS (not closed here); listdir reads a duplicate of it
            names = sorted(n for n in os.listdir(folder) if n.startswith(RECORD_PREFIX) and n.endswith(".json"))
        except OSError:
            return steps, False
        complete = len(names) <= MAX_RECORDS
        for name in names[:MAX_RECORDS]:
            parsed = read_pack_json(pack, f"runs/{name}", MAX_RECORD_BYTES, follow=False)
            step = _step(parsed.value, name) if parsed is not None else None
            if step is not None:
                steps.append(step)
    return steps, complete


def build_threads(steps: list[DisputeStep], complete: bool = True) -> Threads:
    """The threads ``steps`` make, whatever order they come in."""
    out = Threads(complete=complete)
    for step in sorted(steps, key=lambda s: (s.timestamp, _name_order(s.name))):
        thread = out.by_claim.get(step.claim)
        if thread is None:
            thread = out.by_claim[step.claim] = Thread(step.claim, opened=step.timestamp, old_text=step.claim_text)
        elif step.step == "open" and not thread.is_open:
            thread.state, thread.decided = "open", None  # reopened: the earlier decision no longer holds
        thread.steps.append(step)
        if step.name:
            thread.records.append(f"runs/{step.name}")
        if step.step == "decide":
            thread.state, thread.decision, thread.decided = "decided", step.decision, step.timestamp
            thread.new_text = step.new_text if step.decision == "amend" else None
    return out


def load_threads(root: Path, fs: PackFS | None = None) -> Threads:
    """The pack's threads, read from ``runs/`` (never raises for bad records)."""
    steps, complete = read_steps(root, fs)
    return build_threads(steps, complete)


def _name_order(name: str) -> tuple[str, int]:
    """``x.json`` before ``x-2.json`` before ``x-10.json``: the order exclusive names were taken in."""
    stem = name[:-5] if name.endswith(".json") else name
    head, _, tail = stem.rpartition("-")
    if head and tail.isdigit() and len(tail) < 5:
        return head, int(tail)
    return stem, 1


def _step(data: Any, name: str) -> DisputeStep | None:
    if not isinstance(data, dict) or data.get("record") != "dispute" or data.get("step") not in STEPS:
        return None
    fields = {k: data.get(k) for k in ("pack", "claim", "author", "text", "timestamp")}
    if not all(isinstance(v, str) and v for v in fields.values()):
        return None
    decision = data.get("decision")
    if data["step"] == "decide" and decision not in DECISIONS:
        return None
    new_text = data.get("new_text")
    raw_evidence = data.get("evidence")
    evidence = tuple(_evidence(e) for e in raw_evidence if isinstance(e, dict)) \
        if isinstance(raw_evidence, list) else ()
    claim_text = data.get("claim_text")
    return DisputeStep(str(fields["pack"]), str(fields["claim"]), str(data["step"]), str(fields["author"]),
                       str(fields["text"]), str(fields["timestamp"]), evidence,
                       str(decision) if data["step"] == "decide" else None,
                       new_text if isinstance(new_text, str) else None,
                       claim_text if isinstance(claim_text, str) else "", name)


def _evidence(raw: dict[str, Any]) -> Evidence:
    line = raw.get("line")
    excerpt = raw.get("excerpt")
    return Evidence(str(raw.get("path", "")), line if isinstance(line, int) and not isinstance(line, bool) else None,
                    excerpt if isinstance(excerpt, str) else "")


__all__ = ["MAX_RECORDS", "Thread", "Threads", "build_threads", "load_threads", "read_steps"]
