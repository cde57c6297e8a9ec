"""Per-file feedback: helpful and harmful counts, a confidence, and the latest outcomes with their tasks.

Input is a ``RunsReport`` already read (the Runs view, ``pack-studio runs`` and the resolver's fold all read the
same records, so they agree). Only feedback records that match their schema count; malformed and invalid ones
already carry positioned findings from the reader. A valid record is still left out, with a finding of its
own, when it names another pack or a path outside this one.

**Confidence** is the Wilson score lower bound (95 %, z = 1.96) of the share of helpful outcomes: the helpful
share we can be fairly sure of given how few votes there are. One helpful vote gives 0.21, five give 0.57,
twenty give 0.84; 3 helpful and 1 harmful give 0.30. A file without feedback has no confidence (``None``),
which is not the same as a low one. Files rank by confidence, then by helpful count (more evidence first),
then by fewer harmful votes, then by path.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.core.diagnostics import Code, Diagnostic, Severity
from studio.core.feedback.record import FeedbackRecord
from studio.core.pack_fs import PackFS, Status
from studio.core.paths import is_unsafe_pointer, pointer_status
from studio.core.runs.model import RunKind, RunRecord, RunsReport, Validity
from studio.core.runs.schemas import locate

Z_95 = 1.96
RECENT = 5
"""Latest outcomes kept per file for display."""
MAX_RECORD_BYTES = 4 * 1024 * 1024
"""The runs reader's limit (``MAX_RUN_BYTES``): a record re-read to position a finding is never larger."""

FEEDBACK_OTHER_PACK = Code("feedback-other-pack", Severity.WARNING, "a feedback record names another pack; it is "
                           "not counted for this one", hint="Move the record to the pack it is about.")
FEEDBACK_OUTSIDE_PACK = Code("feedback-outside-pack", Severity.WARNING, "a feedback record names a path outside "
                             "the pack; it is not counted", hint="Feedback is about files inside the pack.")
FEEDBACK_FILE_GONE = Code("feedback-file-gone", Severity.INFO, "a feedback record is about a file that is no longer "
                          "in the pack; its counts are shown but rank nothing",
                          hint="Delete or archive the record if the file was removed on purpose.")
CODES = (FEEDBACK_OTHER_PACK, FEEDBACK_OUTSIDE_PACK, FEEDBACK_FILE_GONE)


def wilson_lower(successes: int, total: int, z: float = Z_95) -> float:
    """Lower bound of the Wilson score interval for ``successes`` out of ``total`` (0.0 when ``total`` is 0)."""
    if total <= 0:
        return 0.0
    p = successes / total
    z2 = z * z
    centre = p + z2 / (2 * total)
    margin = z * math.sqrt(p * (1 - p) / total + z2 / (4 * total * total))
    return max(0.0, (centre - margin) / (1 + z2 / total))


def _event_dict(event: FeedbackRecord) -> dict[str, Any]:
    """One outcome in a file's history (``FileFeedback.to_dict``): the record without the pack and file it is
    filed under, and the record file it was read from."""
    return {"outcome": event.outcome, "query": event.query, "trace_id": event.trace_id, "section": event.section,
            "reviewer": event.reviewer, "timestamp": event.timestamp, "record": event.stored_at}


@dataclass(slots=True)
class FileFeedback:
    """Everything recorded about one file."""

    path: str
    events: list[FeedbackRecord] = field(default_factory=list)
    """The records about it, read back from ``runs/``, oldest first."""
    exists: bool = True

    @property
    def helpful(self) -> int:
        return sum(1 for e in self.events if e.outcome == "helpful")

    @property
    def harmful(self) -> int:
        return sum(1 for e in self.events if e.outcome == "harmful")

    @property
    def confidence(self) -> float | None:
        total = len(self.events)
        return wilson_lower(self.helpful, total) if total else None

    def counts_for(self, section: str | None) -> tuple[int, int]:
        """(helpful, harmful) that apply to one candidate: whole-file outcomes plus those about ``section``
        (every outcome of the file when ``section`` is None, i.e. for the whole file)."""
        relevant = [e for e in self.events if section is None or e.section is None or e.section == section]
        helpful = sum(1 for e in relevant if e.outcome == "helpful")
        return helpful, len(relevant) - helpful

    def recent(self, n: int = RECENT) -> list[FeedbackRecord]:
        """The latest ``n`` outcomes, newest first."""
        return list(reversed(self.events[-n:]))

    def rank_key(self) -> tuple[float, int, int, str]:
        confidence = self.confidence
        return (-(confidence if confidence is not None else -1.0), -self.helpful, self.harmful, self.path)

    def to_dict(self) -> dict[str, Any]:
        confidence = self.confidence
        return {"file": self.path, "helpful": self.helpful, "harmful": self.harmful,
                "confidence": None if confidence is None else round(confidence, 4), "exists": self.exists,
                "last": [_event_dict(e) for e in self.recent()]}


@dataclass(slots=True)
class FeedbackSummary:
    """Per-file feedback of one pack, best first, and what was left out."""

    pack: str
    files: list[FileFeedback] = field(default_factory=list)
    records: int = 0
    """Feedback records counted."""
    not_counted: int = 0
    """Feedback records left out (malformed, invalid, another pack, a path outside the pack)."""
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def get(self, path: str) -> FileFeedback | None:
        return next((f for f in self.files if f.path == path), None)

    def to_dict(self) -> dict[str, Any]:
        return {"pack": self.pack, "records": self.records, "not_counted": self.not_counted,
                "confidence": "Wilson score lower bound (95%) of the helpful share",
                "files": [f.to_dict() for f in self.files],
                "diagnostics": [d.to_dict() for d in self.diagnostics]}


def aggregate_feedback(report: RunsReport, pack_name: str, pack_root: Path | None = None) -> FeedbackSummary:
    """Fold every feedback record of ``report`` into per-file counts (``pack_root`` lets it check existence).

    With ``pack_root``, the files named are looked at (and a record re-read to place a finding) through the
    pack's descriptors, opened once: a name that is a symlink out of the pack counts as outside, never as there.
    """
    if pack_root is None:
        return _aggregate(report, pack_name, None)
    with PackFS(os.path.abspath(pack_root)) as fs:
        return _aggregate(report, pack_name, fs)


def _aggregate(report: RunsReport, pack_name: str, fs: PackFS | None) -> FeedbackSummary:
    summary = FeedbackSummary(pack_name)
    by_path: dict[str, FileFeedback] = {}
    for record in report.by_kind(RunKind.FEEDBACK_RECORD):
        data = record.data
        if record.validity is not Validity.VALID or not isinstance(data, dict):
            summary.not_counted += 1  # the reader already reported why
            continue
        path = str(data.get("file", "")).replace("\\", "/")
        entry = by_path.get(path)
        state = Status.OK if entry is not None or fs is None else pointer_status(fs, path)
        problem = _problem(record, data, pack_name, fs, path, state)
        if problem is not None:
            summary.not_counted += 1
            summary.diagnostics.append(problem)
            continue
        if entry is None:
            entry = by_path[path] = FileFeedback(path, exists=state is Status.OK)
            if not entry.exists:
                summary.diagnostics.append(_positioned(FEEDBACK_FILE_GONE, fs, record, ["file"],
                                                       f"{path} is no longer in the pack ({record.path})"))
        entry.events.append(FeedbackRecord(
            pack_name, path, str(data["outcome"]), str(data["query"]),
            data.get("section") if isinstance(data.get("section"), str) else None,
            data.get("trace_id") if isinstance(data.get("trace_id"), str) else None,
            reviewer=str(data.get("reviewer", "")), timestamp=str(data["timestamp"]), stored_at=record.path,
        ))
        summary.records += 1
    for entry in by_path.values():
        entry.events.sort(key=_event_order)
    summary.files = sorted(by_path.values(), key=FileFeedback.rank_key)
    return summary


def _event_order(event: FeedbackRecord) -> tuple[str, str, int]:
    """Time, then the writer's ``-2``, ``-3`` suffix for records of the same second (a plain path sort would put
    ``feedback-…Z-2.json`` before ``feedback-…Z.json``)."""
    stem = event.stored_at.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    base, _, number = stem.rpartition("-")
    if base and number.isdigit() and len(number) <= 4:
        return (event.timestamp, base, int(number))
    return (event.timestamp, stem, 1)


def _problem(record: RunRecord, data: dict[str, Any], pack_name: str, fs: PackFS | None, path: str,
             state: Status) -> Diagnostic | None:
    if data.get("pack") != pack_name:
        return _positioned(FEEDBACK_OTHER_PACK, fs, record, ["pack"],
                           f"{record.path} is feedback for pack '{data.get('pack')}', not '{pack_name}'")
    if is_unsafe_pointer(path) or state is Status.OUTSIDE:  # UNREADABLE (a name too long to look up): gone
        return _positioned(FEEDBACK_OUTSIDE_PACK, fs, record, ["file"],
                           f"{record.path} names {path}, which is outside the pack")
    return None


def _positioned(code: Code, fs: PackFS | None, record: RunRecord, key: list[str], message: str) -> Diagnostic:
    """The finding at the line and column of ``key`` in the record (the file is re-read only for this)."""
    line, column = 1, 1
    if fs is not None:
        found = fs.read(record.path, MAX_RECORD_BYTES)
        if found.status is Status.OK and found.data is not None:
            line, column = locate(found.data.decode("utf-8-sig", errors="replace"), key)
    return code(message, record.path, line, column, pack=fs.root if fs else "")
