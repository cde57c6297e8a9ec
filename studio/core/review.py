"""Curator review: a record of the decision in ``runs/``, and a minimal edit of ``status``/``trust``.

Nothing here decides anything: a human chooses the decision and any new status or trust. The edit keeps
every byte of ``KNOWLEDGE.md`` except the edited values (line endings, quoting, comments, order), and is
computed separately from the write so a UI can show the diff first. Both writes are atomic and reach the pack
by descriptor (``atomic.write_atomic`` with ``root``): no symlink swapped in meanwhile can move them out.

Committing is a compare-and-swap: the edit lands only if ``KNOWLEDGE.md`` is still the file the plan was made
from (inode, size, mtime and sha256, compared under a lock on the pack folder), so of two reviews committed at
the same moment one lands and the other says "changed on disk, not applied". The edit is written first and
the record after it, so a record never claims an edit that did not land; when the record cannot be written
(read-only, full or size-limited storage), the edit is undone where possible and the error says what stayed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from studio.core.atomic import (
    FileIdentity,
    RunsRefused,
    check_runs_folder,
    record_author,
    record_tool,
    storage_problem,
    write_atomic,
    write_stamped_record,
)
from studio.core.frontmatter_edit import EditError, FieldEdit, FrontmatterLines, check_data, unified_diff
from studio.core.frontmatter_edit import read_knowledge as _read_knowledge
from studio.core.frontmatter_edit import write_knowledge_edit as _write_knowledge_edit
from studio.core.jsonwrite import dumps
from studio.core.model import STATUSES, TRUST_LEVELS
from studio.core.paths import is_unsafe_pointer

DECISIONS = ("confirm", "reject", "needs-review")
MAX_NAME_ATTEMPTS = 1000


class ReviewError(ValueError):
    """The requested review cannot be recorded or applied as asked (bad value, unsafe edit, file changed)."""


@dataclass(frozen=True, slots=True)
class ReviewRecord:
    """A curator's decision about one pack, as stored in ``runs/review-<UTC timestamp>.json``."""

    pack: str
    reviewer: str
    timestamp: str
    """ISO 8601 UTC, e.g. ``2026-05-01T10:30:00Z``."""
    decision: str
    reason: str
    before: dict[str, str | None]
    """``{"status": …, "trust": …}`` as they were."""
    after: dict[str, str | None]
    files_examined: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"record": "review", "pack": self.pack, "reviewer": self.reviewer, "timestamp": self.timestamp,
                "decision": self.decision, "reason": self.reason, "before": dict(self.before),
                "after": dict(self.after), "files_examined": list(self.files_examined),
                "tool": record_tool()}


def make_review_record(pack_name: str, decision: str, reason: str, *, reviewer: str | None = None,
                       before: dict[str, str | None], after: dict[str, str | None],
                       files_examined: tuple[str, ...] | list[str] = (), now: datetime | None = None,
                       ) -> ReviewRecord:
    """Build (but do not write) a review record; raises ReviewError for an unknown decision or empty reason."""
    if decision not in DECISIONS:
        raise ReviewError(f"decision must be one of {', '.join(DECISIONS)}, not '{decision}'")
    if not reason.strip():
        raise ReviewError("a review needs a reason")
    unsafe = [p for p in files_examined if is_unsafe_pointer(p)]
    if unsafe:
        raise ReviewError(f"examined files must be pack-relative paths: {', '.join(unsafe)}")
    moment = (now or datetime.now(UTC)).astimezone(UTC).replace(microsecond=0)
    return ReviewRecord(
        pack=pack_name, reviewer=record_author(reviewer),
        timestamp=moment.strftime("%Y-%m-%dT%H:%M:%SZ"), decision=decision, reason=reason.strip(),
        before=dict(before), after=dict(after), files_examined=tuple(files_examined),
    )



def write_review_record(pack_root: Path, record: ReviewRecord) -> Path:
    """Write ``record`` to ``runs/review-<timestamp>.json`` atomically, never replacing an existing file.

    A second review in the same second gets ``-2``, ``-3`` ... so names stay unique.
    """
    payload = dumps(record.to_dict(), indent=2) + "\n"  # strict UTF-8 JSON (a non-UTF-8 argument becomes U+FFFD)
    try:
        return write_stamped_record(Path(pack_root), "review-", record.timestamp, payload, MAX_NAME_ATTEMPTS,
                                    refused=ReviewError, what="reviews recorded")
    except OSError as exc:
        raise ReviewError(f"the review record cannot be written: {storage_problem(exc)}") from exc


def _check_runs_folder(root: Path) -> None:
    """Refuse before anything is written when runs/ exists but is a symlink or not a folder."""
    try:
        check_runs_folder(root)
    except RunsRefused as exc:
        raise ReviewError(str(exc)) from None


def edit_status_trust(text: str, *, status: str | None = None, trust: str | None = None) -> FieldEdit:
    """Return ``text`` with ``status``/``trust`` set, changing only those values' characters.

    The value span of an existing key line is replaced (quotes kept); a missing ``trust`` is inserted
    on the line after ``status:``; a missing ``status`` goes before the closing fence. Raises ReviewError
    for unknown values, a file without frontmatter, or a value written in a form that cannot be edited
    safely (block scalars, flow collections, anchors, duplicate keys).
    """
    if status is not None and status not in STATUSES:
        raise ReviewError(f"status must be one of {', '.join(STATUSES)}, not '{status}'")
    if trust is not None and trust not in TRUST_LEVELS:
        raise ReviewError(f"trust must be one of {', '.join(TRUST_LEVELS)}, not '{trust}'")
    try:
        fm = FrontmatterLines.of(text)
        changes: dict[str, tuple[str | None, str]] = {}
        for key, value in (("status", status), ("trust", trust)):
            if value is None:
                continue
            found = fm.find_key(key)
            if found is not None:
                if found.value != value:
                    line = fm.lines[found.index]
                    fm.lines[found.index] = line[:found.start] + value + line[found.end:]
                    changes[key] = (found.value, value)
                continue
            anchor = fm.find_key("status") if key == "trust" else None
            at = anchor.index + 1 if anchor is not None else fm.close
            ending = fm.ending(at - 1) or fm.newline
            fm.lines.insert(at, f"{key}: {value}{ending}")
            fm.close += 1
            changes[key] = (None, value)
        new_text = fm.text()
        _check_edit(text, new_text, status, trust)
    except EditError as exc:
        raise ReviewError(str(exc)) from exc
    return FieldEdit(text, new_text, unified_diff(text, new_text), changes)


def _check_edit(old_text: str, new_text: str, status: str | None, trust: str | None) -> None:
    """Refuse an edit unless the parser reads the new file as the old one with just those values changed.

    The line-based edit cannot see every YAML form (flow mappings, indented blocks, quoted or explicit
    keys, lone CR line ends, multi-line plain values); checking the result with the same parser the
    studio validates with catches all of them, so a review never breaks a valid pack.
    """
    def expect(data: dict[str, object]) -> dict[str, object]:
        for key, value in (("status", status), ("trust", trust)):
            if value is not None:
                data[key] = value
        return data

    check_data(old_text, new_text, expect, what="change status/trust")


def read_knowledge_text(pack_root: Path) -> str:
    """``KNOWLEDGE.md`` decoded exactly (CRLF and BOM kept), for editing. Raises ReviewError if unusable."""
    return read_knowledge(pack_root)[0]


def read_knowledge(pack_root: Path) -> tuple[str, FileIdentity]:
    """``KNOWLEDGE.md`` decoded exactly, and the identity of the file it was read from (for the swap)."""
    try:
        return _read_knowledge(pack_root)
    except EditError as exc:
        raise ReviewError(str(exc)) from exc


def write_knowledge_edit(pack_root: Path, edit: FieldEdit) -> Path:
    """Write ``edit.new_text`` as a compare-and-swap (``frontmatter_edit.write_knowledge_edit``)."""
    try:
        return _write_knowledge_edit(pack_root, edit)
    except EditError as exc:
        raise ReviewError(str(exc)) from exc


@dataclass(frozen=True, slots=True)
class ReviewPlan:
    """Everything a review will write, computed before anything is written (the UI shows it first)."""

    record: ReviewRecord
    edit: FieldEdit | None
    """None when neither status nor trust changes."""


def plan_review(pack_root: Path, decision: str, reason: str, *, reviewer: str | None = None,
                set_status: str | None = None, set_trust: str | None = None,
                files_examined: tuple[str, ...] | list[str] = (), now: datetime | None = None) -> ReviewPlan:
    """Read ``KNOWLEDGE.md``, prepare the status/trust edit and the record. Writes nothing."""
    from studio.core.pack import load_pack  # pack pulls in the checks; only needed for the pack's name

    text, source = read_knowledge(pack_root)
    before = current_values(text)
    edit = edit_status_trust(text, status=set_status, trust=set_trust) if (set_status or set_trust) else None
    if edit is not None:
        edit = replace(edit, source=source)
    after = dict(before)
    if edit is not None:
        after.update({key: new for key, (_old, new) in edit.changes.items()})
    record = make_review_record(load_pack(Path(pack_root)).name, decision, reason, reviewer=reviewer,
                                before=before, after=after, files_examined=files_examined, now=now)
    return ReviewPlan(record, edit if edit is not None and edit.changed else None)


def commit_review(pack_root: Path, plan: ReviewPlan) -> tuple[Path, Path | None]:
    """Write the edit (a compare-and-swap), then the record. Returns (record path, KNOWLEDGE.md path or None).

    Raises ReviewError, with nothing written, when the file changed since the plan was made, when runs/ is not
    a plain folder or when storage refuses the edit. If the record then cannot be written, the edit is undone
    (when storage allows) and the error says whether it was.
    """
    root = Path(pack_root)
    _check_runs_folder(root)
    knowledge = write_knowledge_edit(root, plan.edit) if plan.edit is not None else None
    try:
        record_path = write_review_record(root, plan.record)
    except ReviewError as exc:
        if plan.edit is None:
            raise
        raise ReviewError(f"{exc}; {_undo(root, plan.edit)}") from exc
    return record_path, knowledge


def _undo(root: Path, edit: FieldEdit) -> str:
    """Put the old text back after a failed record (only over our own write); say what happened."""
    try:
        text, source = read_knowledge(root)
        if text != edit.new_text:
            return "KNOWLEDGE.md changed again meanwhile and keeps that change"
        write_atomic(root / "KNOWLEDGE.md", edit.old_text.encode("utf-8"), root=root, expect=source)
    except (ReviewError, OSError) as exc:
        return f"the status/trust edit stays in KNOWLEDGE.md without a record (undoing it failed: {exc})"
    return "the status/trust edit was undone, nothing changed"


def current_values(text: str) -> dict[str, str | None]:
    """``status`` and ``trust`` as written in the frontmatter (None when absent or not editable)."""
    values: dict[str, str | None] = {"status": None, "trust": None}
    try:
        fm = FrontmatterLines.of(text)
    except EditError:
        return values
    for key in values:
        try:
            found = fm.find_key(key)
        except EditError:
            found = None
        values[key] = found.value if found else None
    return values
