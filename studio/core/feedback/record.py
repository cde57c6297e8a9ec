"""One feedback record: "this file (or section) was helpful / harmful for this task", checked and written to ``runs/``.

The checks run before anything is written, so a bad request leaves the pack untouched: the outcome must be
``helpful`` or ``harmful``, the task must be given, and the file must be a regular file inside the pack (a
pack-relative path, or an absolute path that lies inside the pack root; nothing that walks out with ``..`` or
through a symlink). The record goes to ``runs/feedback-<UTC timestamp>.json`` atomically and never replaces an
existing file (``-2``, ``-3`` ... for records of the same second), with the same care as review records.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from studio.core.atomic import record_author, record_tool, write_stamped_record
from studio.core.jsonwrite import dumps
from studio.core.pack_fs import PackFS, Status
from studio.core.paths import is_unsafe_pointer

OUTCOMES = ("helpful", "harmful")
MAX_NAME_ATTEMPTS = 1000
MAX_QUERY_CHARS = 10_000
"""A task longer than this is not a task description; refused rather than stored."""
MAX_LABEL_CHARS = 500
"""Section headings, trace ids and reviewer names."""


class FeedbackError(ValueError):
    """The feedback cannot be recorded as asked (unknown outcome, no task, a file outside the pack or missing)."""


@dataclass(frozen=True, slots=True)
class Feedback:
    """What someone says about one file of a pack: it was helpful or harmful for a task.

    The app's request holds one before anything is checked; ``FeedbackRecord`` is one checked and stamped.
    """

    pack: str
    """The pack's name."""
    file: str
    """The file: pack-relative POSIX path once checked (a request carries it as given)."""
    outcome: str
    """``helpful`` or ``harmful``."""
    query: str
    """The task the file was used for."""
    section: str | None = None
    """The heading section it is about; None for the whole file."""
    trace_id: str | None = None
    """The context record's run_id when the result judged was saved as a run."""


@dataclass(frozen=True, slots=True)
class FeedbackRecord(Feedback):
    """Checked feedback, who gave it and when: what ``runs/feedback-<timestamp>.json`` holds, and each outcome the
    aggregate counts (read back, with the file it was read from)."""

    reviewer: str = ""
    timestamp: str = ""
    """ISO 8601 UTC, e.g. ``2026-05-01T10:30:00Z``."""
    stored_at: str = ""
    """Pack-relative path of the record file, for a record read back from ``runs/`` (not part of the file)."""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"record": "feedback", "pack": self.pack, "file": self.file}
        if self.section is not None:
            out["section"] = self.section
        out.update({"outcome": self.outcome, "query": self.query})
        if self.trace_id is not None:
            out["trace_id"] = self.trace_id
        out.update({"reviewer": self.reviewer, "timestamp": self.timestamp,
                    "tool": record_tool()})
        return out


def pack_relative_file(pack_root: Path, file: str) -> str:
    """``file`` as a pack-relative POSIX path of an existing regular file; FeedbackError otherwise."""
    root = Path(os.path.abspath(pack_root))
    text = file.strip()
    if not text or "\x00" in text:
        raise FeedbackError("a file is needed: a path inside the pack, e.g. compiled/facts.md")
    if os.path.isabs(text):
        absolute = Path(os.path.abspath(text))
        try:
            text = absolute.relative_to(root).as_posix()
        except ValueError:
            raise FeedbackError(f"{file} is outside the pack {root}") from None
    rel = text.replace("\\", "/")
    while rel.startswith("./"):
        rel = rel[2:]
    if is_unsafe_pointer(rel):  # ``..`` or a drive
        raise FeedbackError(f"{file} is outside the pack {root}")
    with PackFS(root) as fs:  # looked at by descriptor: a symlink is followed only while it stays inside
        status, _resolved, mode = fs.kind(rel)
    if status is Status.OUTSIDE:
        raise FeedbackError(f"{file} is outside the pack {root}")
    if status is Status.MISSING:
        raise FeedbackError(f"{rel} does not exist in the pack")
    if status is not Status.OK or not stat.S_ISREG(mode):
        raise FeedbackError(f"{rel} is not a regular file")
    return rel


def make_feedback_record(pack_root: Path, pack_name: str, file: str, outcome: str, query: str, *,
                         section: str | None = None, trace_id: str | None = None, reviewer: str | None = None,
                         now: datetime | None = None) -> FeedbackRecord:
    """Check everything and build (but do not write) the record; raises FeedbackError for bad input."""
    if outcome not in OUTCOMES:
        raise FeedbackError(f"outcome must be one of {', '.join(OUTCOMES)}, not '{outcome}'")
    task = query.strip()
    if not task:
        raise FeedbackError("feedback needs the task the file was used for")
    if len(task) > MAX_QUERY_CHARS:
        raise FeedbackError(f"the task is {len(task):,} characters; at most {MAX_QUERY_CHARS:,} are recorded")
    rel = pack_relative_file(pack_root, file)
    labels = {"section": section, "trace id": trace_id, "reviewer": reviewer}
    for label, value in labels.items():
        if value is not None and (not value.strip() or len(value) > MAX_LABEL_CHARS):
            raise FeedbackError(f"the {label} must be 1-{MAX_LABEL_CHARS} characters")
    moment = (now or datetime.now(UTC)).astimezone(UTC).replace(microsecond=0)
    return FeedbackRecord(
        pack=pack_name, file=rel, outcome=outcome, query=task,
        reviewer=record_author(reviewer),
        timestamp=moment.strftime("%Y-%m-%dT%H:%M:%SZ"),
        section=section.strip() if section else None, trace_id=trace_id.strip() if trace_id else None,
    )



def write_feedback_record(pack_root: Path, record: FeedbackRecord) -> Path:
    """Write ``record`` to ``runs/feedback-<timestamp>.json`` atomically, never replacing an existing file."""
    payload = dumps(record.to_dict(), indent=2) + "\n"  # strict UTF-8 JSON, as the review and dispute records
    return write_stamped_record(Path(pack_root), "feedback-", record.timestamp, payload, MAX_NAME_ATTEMPTS,
                                refused=FeedbackError, what="feedback records")


def record_feedback(pack_root: Path, file: str, outcome: str, query: str, *, section: str | None = None,
                    trace_id: str | None = None, reviewer: str | None = None, pack_name: str | None = None,
                    now: datetime | None = None) -> tuple[FeedbackRecord, Path]:
    """Check, build and write in one call (the CLI and the app's worker use this). Returns (record, path)."""
    if pack_name is None:
        from studio.core.pack import load_pack  # the pack's name is its frontmatter name; load only when needed

        pack = load_pack(Path(pack_root))
        if pack.knowledge is None:
            raise FeedbackError(f"{pack_root} is not a pack (no readable KNOWLEDGE.md)")
        pack_name = pack.name
    record = make_feedback_record(pack_root, pack_name, file, outcome, query, section=section, trace_id=trace_id,
                                  reviewer=reviewer, now=now)
    return record, write_feedback_record(pack_root, record)
