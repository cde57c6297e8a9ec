"""Read every file under a pack's ``runs/`` folder into RunRecords: bounded, read-only, never raising.

Walks ``runs/`` (nested eval folders included) without following symlinked folders, reads each file
with a size limit, parses JSON or Markdown, infers the kind, checks the shape and summarises it. A bad
run file becomes diagnostics on its record; it never stops anything else from loading.

Runs are audit data (digest V40): nothing in them may keep a pack from loading or from being validated.
``read_run_file`` is that boundary, made explicit: whatever goes wrong while one record is read (a bug included)
becomes a ``run-read-failed`` finding on that record, never an exception that could make a caller skip the pack.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity
from studio.core.jsonread import JsonFailure, JsonText, read_json
from studio.core.pack_fs import LinkState, PackFS, WalkEntry
from studio.core.paths import UNREADABLE_FILE, from_read_result
from studio.core.runs.kinds import infer_kind, infer_markdown_kind
from studio.core.runs.model import RunKind, RunRecord, RunsReport, TimeSource, Validity
from studio.core.runs.schemas import check_against_schema
from studio.core.runs.summaries import read_markdown_log, summarize
from studio.core.runs.timestamps import choose
from studio.core.tree_findings import limit_findings

RUN_FOLDER_UNREADABLE = Code("run-folder-unreadable", Severity.WARNING, "a folder under runs/ could not be listed")
TOO_MANY_RUN_FILES = Code("too-many-run-files", Severity.WARNING, "runs/ holds more records than the studio reads",
                          Behavior.LOAD, "", hint="Archive old run records outside the pack.")
RUN_TOO_LARGE = Code("run-too-large", Severity.WARNING, "a run record is larger than the studio parses", Behavior.LOAD,
                     "", hint="Split or archive the record; run records should be small audit data.")
RUNS_TOO_LARGE = Code("runs-too-large", Severity.WARNING,
                      "runs/ holds more bytes of records than the studio reads in total", Behavior.LOAD, "",
                      hint="Archive old run records outside the pack.")
RUN_MALFORMED_JSON = Code("run-malformed-json", Severity.ERROR,
                          "a run record is not valid JSON (audit-only: never blocks the pack)", Behavior.LOAD, "V40",
                          hint="Fix the JSON syntax; run records are audit-only and never block the pack.")
RUN_SYMLINK_SKIPPED = Code("run-symlink-skipped", Severity.WARNING, "a symlink inside runs/ was not followed",
                           Behavior.LOAD, "", hint="Keep run records inside the pack as regular files.")
RUN_TIME_OUT_OF_RANGE = Code("run-time-out-of-range", Severity.WARNING,
                             "a run record's time (a field, its run_id or its file name) is outside years 1-9999 in "
                             "UTC: the next source of its time is used", Behavior.LOAD, "",
                             hint="Write the time in UTC, or with an offset that keeps it within years 1 to 9999.")
RUN_READ_FAILED = Code("run-read-failed", Severity.WARNING,
                       "the studio failed while reading a run record: it is listed as unreadable, and the pack and the "
                       "other records are not affected", Behavior.LOAD, "",
                       hint="Report this: it is a bug in the studio, not in the record.")
CODES = (RUN_FOLDER_UNREADABLE, TOO_MANY_RUN_FILES, RUN_TOO_LARGE, RUNS_TOO_LARGE, RUN_MALFORMED_JSON,
         RUN_SYMLINK_SKIPPED, RUN_TIME_OUT_OF_RANGE, RUN_READ_FAILED)

MAX_RUN_BYTES = 4 * 1024 * 1024
"""A run record is audit metadata; anything larger is reported and not parsed."""
MAX_RUN_FILES = 2000
MAX_TOTAL_BYTES = 64 * 1024 * 1024
"""Parsed records stay in memory; past this many bytes in total the rest are listed but not read."""
MAX_RUN_DEPTH = 6
MAX_RUN_ENTRIES = 20_000
RECORD_SUFFIXES = (".json", ".md", ".markdown", ".jsonl", ".txt", ".log")


def read_runs(pack_root: Path) -> RunsReport:
    """All records under ``pack_root/runs`` in time order. No ``runs/`` folder gives an empty report.

    One bounded walk by descriptor (``pack_fs``): symlinked folders are reported, never entered, and a folder
    or record swapped for a symlink while this runs is refused, never read.
    """
    root = Path(os.path.abspath(pack_root))
    report = RunsReport()
    with PackFS(root) as fs:
        st = fs.lstat("runs")
        if st is None:
            return report
        if stat.S_ISLNK(st.st_mode):
            report.diagnostics.append(_skipped_link("runs", "the runs/ folder"))
            return report
        if not stat.S_ISDIR(st.st_mode):
            return report
        total = 0
        for entry in _walk(fs, report.diagnostics):
            if total > MAX_TOTAL_BYTES:
                report.records.append(_over_budget(entry))
                continue
            record = _read_entry(fs, entry)
            total += record.size
            report.records.append(record)
    report.records.sort(key=_time_order)
    for record in report.records:
        report.diagnostics.extend(record.diagnostics)
    return report


def _time_order(record: RunRecord) -> tuple[int, float, str]:
    stamp = record.timestamp.timestamp() if record.timestamp else 0.0
    return (0 if record.timestamp else 1, stamp, record.path)


def _walk(fs: PackFS, diags: list[Diagnostic]) -> list[WalkEntry]:
    """Record files under ``runs/``, depth- and count-bounded; symlinked folders are reported, not entered."""
    tree = fs.walk("runs", max_depth=MAX_RUN_DEPTH - 1, max_entries=MAX_RUN_ENTRIES,
                   enter=lambda _rel, name: not name.startswith("."))
    for rel, why in tree.unlisted:
        diags.append(RUN_FOLDER_UNREADABLE(f"{rel} cannot be listed: {why}", file=rel))
    diags.extend(limit_findings(tree, "runs/", "runs"))
    links = {link.rel: link for link in tree.links}
    found: list[WalkEntry] = []
    for entry in tree.files:
        name = entry.rel.rsplit("/", 1)[-1]
        if name.startswith("."):
            continue  # editor swap files, our own atomic-write temp files
        link = links.get(entry.rel)
        is_record = name.lower().endswith(RECORD_SUFFIXES)
        if link is not None and (link.state in (LinkState.DIR, LinkState.LOOP)
                                 or (link.state is LinkState.OUTSIDE and not is_record)):
            diags.append(_skipped_link(entry.rel, entry.rel))
            continue
        if not is_record:
            continue
        if len(found) >= MAX_RUN_FILES:
            diags.append(TOO_MANY_RUN_FILES(f"runs/ holds more than {MAX_RUN_FILES} records; the rest were not "
                                            "read", file="runs"))
            return found
        found.append(entry)
    return found


def read_run_file(path: Path, root: Path) -> RunRecord:
    """Read one record (JSON or Markdown) at ``path`` inside pack ``root``. Never raises (the audit boundary)."""
    with PackFS(root) as fs:
        return read_run_in(fs, _rel(path, root))


def read_run_in(fs: PackFS, rel: str) -> RunRecord:
    """Read one record at pack-relative ``rel`` through an open pack (many records: one PackFS). Never raises."""

    def read() -> RunRecord:
        st = fs.lstat(rel)
        mtime = st.st_mtime if st is not None else None
        return _record(rel, *from_read_result(fs.read(rel, MAX_RUN_BYTES + 1), rel), mtime)

    return _bounded(rel, read)


def _read_entry(fs: PackFS, entry: WalkEntry) -> RunRecord:
    return _bounded(entry.rel, lambda: _record(
        entry.rel, *from_read_result(fs.read(entry.rel, MAX_RUN_BYTES + 1), entry.rel), entry.mtime_ns / 1e9))


def _bounded(rel: str, read: Callable[[], RunRecord]) -> RunRecord:
    """The audit boundary: one record's failure is a finding on it, never a skipped pack."""
    try:
        return read()
    except Exception as exc:
        name = rel.rsplit("/", 1)[-1]
        record = RunRecord(rel, _kind_for_unread(name), Validity.UNREADABLE, summary="not read (studio error)")
        record.diagnostics.append(RUN_READ_FAILED(f"{rel} could not be read: the studio failed with "
                                                  f"{type(exc).__name__}: {str(exc)[:200]}", file=rel))
        return record


def _record(rel: str, data_bytes: bytes | None, size: int, problem: Diagnostic | None,
            mtime: float | None) -> RunRecord:
    name = rel.rsplit("/", 1)[-1]
    if problem is not None or data_bytes is None:
        record = RunRecord(rel, _kind_for_unread(name), Validity.UNREADABLE, size=size)
        record.diagnostics.append(_audit_only(problem) if problem else _unreadable(rel))
        _place_in_time(record, None, mtime)
        record.summary = "not read"
        return record
    if size > MAX_RUN_BYTES:
        record = RunRecord(rel, _kind_for_unread(name), Validity.UNREADABLE, size=size)
        record.diagnostics.append(RUN_TOO_LARGE(f"{rel} is {size:,} bytes; records over {MAX_RUN_BYTES:,} bytes are "
                                                "not parsed", file=rel))
        _place_in_time(record, None, mtime)
        record.summary = "too large to read"
        return record
    if name.lower().endswith(".json"):
        record = parse_json_record(data_bytes, rel, mtime=mtime)
    else:
        record = _markdown_record(data_bytes, rel)
        _place_in_time(record, None, mtime)
    record.size = size
    return record


def parse_json_record(raw: bytes, rel: str, *, mtime: float | None = None) -> RunRecord:
    """Decode, parse, classify, check and place in time one JSON record given as bytes (``rel`` names it)."""
    name = rel.rsplit("/", 1)[-1]
    parsed = read_json(raw)
    if isinstance(parsed, JsonFailure):  # not UTF-8, not JSON, absurd nesting, a 5000-digit integer
        record = _malformed(rel, name, f"{rel} {parsed.message}", parsed.line, parsed.column)
        _place_in_time(record, None, mtime)
        return record
    data: Any = parsed.value
    kind = infer_kind(data, name)
    if kind is RunKind.UNKNOWN and _in_eval_folder(rel):
        kind = RunKind.EVAL_RESULT  # runs/eval-<date>/answer-results.json and friends (digest 7.1)
    record = RunRecord(rel, kind, Validity.UNVALIDATED, data=data)
    record.status = _status_of(data)
    record.summary = summarize(kind, data)
    # A key written twice (an audit record whose "decision" appears twice says two things) or NaN: audit-only.
    record.diagnostics.extend(_audit_only(d) for d in parsed.findings(rel))
    _place_in_time(record, parsed, mtime)
    if kind.schema_name is None:
        return record
    check = check_against_schema(data, kind.schema_name, file=rel, source=parsed)
    record.validity = Validity.VALID if check.valid else Validity.INVALID
    record.extra_fields = check.extra_fields
    record.extra_count = check.extra_count
    record.diagnostics.extend(_audit_only(d) for d in check.diagnostics)
    return record


def _place_in_time(record: RunRecord, source: JsonText | None, mtime: float | None) -> None:
    """Set the record's time; a written time out of range is a finding on it (at the field when it has one)."""
    data = source.value if source is not None else None
    choice = choose(data, record.name, mtime)
    record.timestamp, record.time_source = choice.time, choice.source
    for problem in choice.problems:
        line, column = source.position([problem.where]) if source is not None and problem.where != "file name" \
            else (1, 1)
        instead = f"the time from its {choice.source.value}" if choice.time is not None else "no time"
        record.diagnostics.append(RUN_TIME_OUT_OF_RANGE(
            f"{record.path}: {problem.where} '{problem.text}' {problem.reason}; {instead} is used", record.path,
            line, column))


def _over_budget(entry: WalkEntry) -> RunRecord:
    rel = entry.rel
    record = RunRecord(rel, _kind_for_unread(rel.rsplit("/", 1)[-1]), Validity.UNREADABLE,
                       summary="not read (runs/ too large)")
    _place_in_time(record, None, entry.mtime_ns / 1e9)
    record.diagnostics.append(RUNS_TOO_LARGE(f"{rel} was not read: runs/ holds more than "
                                             f"{MAX_TOTAL_BYTES // (1024 * 1024)} MB of records", file=rel))
    return record


def _in_eval_folder(rel: str) -> bool:
    return any("eval" in folder.lower() for folder in rel.split("/")[1:-1])


def _markdown_record(raw: bytes, rel: str) -> RunRecord:
    name = rel.rsplit("/", 1)[-1]
    text = raw.decode("utf-8-sig", errors="replace")
    kind = infer_markdown_kind(text, name) if name.lower().endswith((".md", ".markdown")) else RunKind.UNKNOWN
    data = read_markdown_log(text)
    record = RunRecord(rel, kind, Validity.UNVALIDATED, data=data, status=data["status"])
    lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    record.summary = summarize(kind, data) if kind is not RunKind.UNKNOWN else f"text log: {lines} line(s)"
    return record


def _status_of(data: Any) -> str | None:
    if not isinstance(data, dict):
        return None
    status = data.get("status")
    if isinstance(status, str):
        return status
    if isinstance(data.get("decision"), str):
        return str(data["decision"])
    return str(data["outcome"]) if data.get("record") == "feedback" and isinstance(data.get("outcome"), str) else None


def _malformed(rel: str, name: str, message: str, line: int, column: int) -> RunRecord:
    record = RunRecord(rel, infer_kind(None, name), Validity.MALFORMED, summary="malformed JSON")
    record.diagnostics.append(RUN_MALFORMED_JSON(message, file=rel, line=max(line, 1), column=max(column, 1)))
    return record


def _kind_for_unread(name: str) -> RunKind:
    return infer_kind(None, name)


def _audit_only(d: Diagnostic) -> Diagnostic:
    """Run findings never change whether a pack loads (digest V40: runs are audit-only)."""
    from dataclasses import replace

    return d if d.behavior is Behavior.LOAD else replace(d, behavior=Behavior.LOAD)


def _unreadable(rel: str) -> Diagnostic:
    return UNREADABLE_FILE(f"{rel} could not be read", file=rel, severity=Severity.WARNING, behavior=Behavior.LOAD)


def _skipped_link(rel: str, what: str) -> Diagnostic:
    return RUN_SYMLINK_SKIPPED(f"{what} is a symlink; symlinked folders are not followed", file=rel)



def _rel(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


__all__ = ["read_runs", "read_run_file", "read_run_in", "parse_json_record", "TimeSource", "MAX_RUN_BYTES"]
