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

import difflib
import errno
import getpass
import json
import re
import stat
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from studio import __version__
from studio.core.atomic import ChangedOnDisk, FileIdentity, OutsidePack, write_atomic
from studio.core.frontmatter import MAX_KNOWLEDGE_BYTES
from studio.core.model import STATUSES, TRUST_LEVELS
from studio.core.pack_fs import PackFS, Status
from studio.core.paths import is_unsafe_pointer

DECISIONS = ("confirm", "reject", "needs-review")
MAX_NAME_ATTEMPTS = 1000
_LINE = re.compile(r"[^\n]*\n|[^\n]+$")
_FENCE = re.compile(r"^---[ \t]*\r?\n?$")
_CLOSE = re.compile(r"^(?:---|\.\.\.)[ \t]*\r?\n?$")
_UNSAFE_VALUE_START = ("|", ">", "[", "{", "&", "*", "!", "%", "@", "`")


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
                "tool": {"name": "knowledge-pack-studio", "version": __version__}}


@dataclass(frozen=True, slots=True)
class FieldEdit:
    """A proposed change to ``KNOWLEDGE.md``: the full old and new text and a unified diff between them."""

    old_text: str
    new_text: str
    diff: str
    changes: dict[str, tuple[str | None, str]] = field(default_factory=dict)
    """Key -> (old value or None when inserted, new value)."""
    source: FileIdentity | None = None
    """The file ``old_text`` was read from: the write lands only if it is still that file."""

    @property
    def changed(self) -> bool:
        return self.old_text != self.new_text


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
        pack=pack_name, reviewer=(reviewer or _default_reviewer()).strip() or "unknown",
        timestamp=moment.strftime("%Y-%m-%dT%H:%M:%SZ"), decision=decision, reason=reason.strip(),
        before=dict(before), after=dict(after), files_examined=tuple(files_examined),
    )


def _default_reviewer() -> str:
    try:
        return getpass.getuser()
    except (OSError, KeyError, ImportError):
        return "unknown"


def write_review_record(pack_root: Path, record: ReviewRecord) -> Path:
    """Write ``record`` to ``runs/review-<timestamp>.json`` atomically, never replacing an existing file.

    A second review in the same second gets ``-2``, ``-3`` ... so names stay unique.
    """
    stamp = record.timestamp.replace(":", "-")
    payload = json.dumps(record.to_dict(), indent=2, ensure_ascii=False) + "\n"
    root = Path(pack_root)
    _check_runs_folder(root)
    for attempt in range(1, MAX_NAME_ATTEMPTS + 1):
        suffix = "" if attempt == 1 else f"-{attempt}"
        target = root / "runs" / f"review-{stamp}{suffix}.json"
        try:
            return write_atomic(target, payload, exclusive=True, root=root)
        except FileExistsError:
            continue
        except OutsidePack as exc:
            raise ReviewError("runs/ is a symlink or not a folder; the record is not written outside the pack") \
                from exc
        except OSError as exc:
            raise ReviewError(f"the review record cannot be written: {storage_problem(exc)}") from exc
    raise ReviewError(f"more than {MAX_NAME_ATTEMPTS} reviews recorded at {record.timestamp}")


def _check_runs_folder(root: Path) -> None:
    """Refuse before anything is written when runs/ exists but is a symlink or not a folder."""
    with PackFS(root) as fs:
        st = fs.lstat("runs")
    if st is not None and not stat.S_ISDIR(st.st_mode):
        raise ReviewError("runs/ is a symlink or not a folder; the record is not written outside the pack")


def storage_problem(exc: OSError) -> str:
    """A sentence for a failed write: read-only, full or size-limited storage get plain words."""
    words = {errno.EROFS: "the file system is read-only", errno.ENOSPC: "no space is left on the device",
             errno.EFBIG: "the file would be larger than the size limit for this process or file system",
             errno.EDQUOT: "the disk quota is used up", errno.EACCES: "permission denied",
             errno.EPERM: "the operation is not permitted"}
    return words.get(exc.errno or 0, exc.strerror or str(exc))


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
    lines = _LINE.findall(text)
    bom = "\ufeff" if lines and lines[0].startswith("\ufeff") else ""
    if not lines or not _FENCE.match(lines[0][len(bom):]):
        raise ReviewError("KNOWLEDGE.md has no frontmatter block to edit")
    close = next((i for i in range(1, len(lines)) if _CLOSE.match(lines[i])), None)
    if close is None:
        raise ReviewError("KNOWLEDGE.md frontmatter has no closing '---'")
    newline = "\r\n" if lines[0].endswith("\r\n") else "\n"
    changes: dict[str, tuple[str | None, str]] = {}
    for key, value in (("status", status), ("trust", trust)):
        if value is None:
            continue
        found = _find_key(lines, close, key)
        if found is not None:
            index, start, end, old = found
            if old != value:
                lines[index] = lines[index][:start] + value + lines[index][end:]
                changes[key] = (old, value)
            continue
        anchor = _find_key(lines, close, "status") if key == "trust" else None
        at = anchor[0] + 1 if anchor is not None else close
        ending = _ending(lines[at - 1]) or newline
        lines.insert(at, f"{key}: {value}{ending}")
        close += 1
        changes[key] = (None, value)
    new_text = "".join(lines)
    _check_edit(text, new_text, status, trust)
    return FieldEdit(text, new_text, unified_diff(text, new_text), changes)


def _check_edit(old_text: str, new_text: str, status: str | None, trust: str | None) -> None:
    """Refuse an edit unless the parser reads the new file as the old one with just those values changed.

    The line-based edit cannot see every YAML form (flow mappings, indented blocks, quoted or explicit
    keys, lone CR line ends, multi-line plain values); checking the result with the same parser the
    studio validates with catches all of them, so a review never breaks a valid pack.
    """
    from studio.core.frontmatter import read_knowledge_bytes  # review is a leaf; keep its imports light

    before, before_diags = read_knowledge_bytes(old_text.encode("utf-8"))
    after, after_diags = read_knowledge_bytes(new_text.encode("utf-8"))
    errors_before = sum(1 for d in before_diags if d.severity == "error")
    errors_after = sum(1 for d in after_diags if d.severity == "error")
    if after.frontmatter is None or before.frontmatter is None or errors_after > errors_before:
        raise ReviewError("this frontmatter is written in a form the studio cannot edit safely; "
                          "change status/trust by hand")
    expected = dict(before.frontmatter.data)
    for key, value in (("status", status), ("trust", trust)):
        if value is not None:
            expected[key] = value
    if after.frontmatter.data != expected or after.body != before.body:
        raise ReviewError("the edit would change more than status/trust in this frontmatter; "
                          "change them by hand")


def _find_key(lines: list[str], close: int, key: str) -> tuple[int, int, int, str] | None:
    """(line index, value start, value end, unquoted value) of a top-level ``key:`` in the frontmatter."""
    pattern = re.compile(rf"^{re.escape(key)}[ \t]*:(?=[ \t]|\r?\n|$)[ \t]*")
    hits = [i for i in range(1, close) if pattern.match(lines[i])]
    if not hits:
        return None
    if len(hits) > 1:
        raise ReviewError(f"'{key}' appears {len(hits)} times in the frontmatter; fix that by hand first")
    index = hits[0]
    line = lines[index]
    start = pattern.match(line).end()  # type: ignore[union-attr]
    body = line[start:].rstrip("\r\n")
    if body[:1] in ("'", '"'):
        quote = body[0]
        close_at = body.find(quote, 1)
        if close_at < 0:
            raise ReviewError(f"'{key}' has an unterminated quoted value")
        return index, start + 1, start + close_at, body[1:close_at]
    comment = re.search(r"[ \t]+#", body)
    value = (body[: comment.start()] if comment else body).rstrip()
    if not value or value.startswith(_UNSAFE_VALUE_START):
        raise ReviewError(f"'{key}' is not a plain one-line value; edit it by hand")
    return index, start, start + len(value), value


def _ending(line: str) -> str:
    return "\r\n" if line.endswith("\r\n") else "\n" if line.endswith("\n") else ""


def unified_diff(old: str, new: str, name: str = "KNOWLEDGE.md") -> str:
    return "".join(difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                        f"a/{name}", f"b/{name}"))


def read_knowledge_text(pack_root: Path) -> str:
    """``KNOWLEDGE.md`` decoded exactly (CRLF and BOM kept), for editing. Raises ReviewError if unusable."""
    return read_knowledge(pack_root)[0]


def read_knowledge(pack_root: Path) -> tuple[str, FileIdentity]:
    """``KNOWLEDGE.md`` decoded exactly, and the identity of the file it was read from (for the swap).

    Read by descriptor, refusing a symlink. Raises ReviewError if it is missing, not a regular file, too
    large to edit safely or not UTF-8.
    """
    with PackFS(pack_root) as fs:
        result = fs.read("KNOWLEDGE.md", MAX_KNOWLEDGE_BYTES + 1, follow=False)
    if result.status is Status.UNREADABLE:
        raise ReviewError(f"KNOWLEDGE.md cannot be read: {result.error}")
    if result.status is not Status.OK or result.data is None or result.identity is None:
        raise ReviewError("KNOWLEDGE.md is missing or not a regular file")
    if result.size > MAX_KNOWLEDGE_BYTES:
        raise ReviewError("KNOWLEDGE.md is over 1 MiB; edit it by hand")
    try:
        text = result.data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ReviewError("KNOWLEDGE.md is not UTF-8; it cannot be edited safely") from exc
    return text, FileIdentity.of(result.identity, result.data)


def write_knowledge_edit(pack_root: Path, edit: FieldEdit) -> Path:
    """Write ``edit.new_text`` atomically, only if ``KNOWLEDGE.md`` is still the file the edit was made from.

    ``edit.source`` names that file; without it, the file on disk must still hold ``edit.old_text``. Raises
    ReviewError when it changed ("not applied") and for storage errors; nothing is written then.
    """
    source = edit.source
    if source is None:
        text, source = read_knowledge(pack_root)
        if text != edit.old_text:
            raise ReviewError("KNOWLEDGE.md changed on disk since the edit was prepared; not applied")
    root = Path(pack_root)
    try:
        return write_atomic(root / "KNOWLEDGE.md", edit.new_text.encode("utf-8"), root=root, expect=source)
    except ChangedOnDisk as exc:
        raise ReviewError("KNOWLEDGE.md changed on disk since the review was prepared; not applied") from exc
    except OSError as exc:
        raise ReviewError(f"KNOWLEDGE.md cannot be written: {storage_problem(exc)}; not applied") from exc


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
    lines = _LINE.findall(text)
    values: dict[str, str | None] = {"status": None, "trust": None}
    if not lines or not _FENCE.match(lines[0].lstrip("\ufeff")):
        return values
    close = next((i for i in range(1, len(lines)) if _CLOSE.match(lines[i])), None)
    if close is None:
        return values
    for key in values:
        try:
            found = _find_key(lines, close, key)
        except ReviewError:
            found = None
        values[key] = found[3] if found else None
    return values
