"""Where a pack's known tasks come from: its eval suites, the queries of its run records, its ontology coverage rows.

Everything is read as data and bounded: ``read_runs`` caps the files it reads, suites are read by ``read_suite``,
and ``ontology/coverage.json`` is read through ``pack_fs`` with a size cap. Input that cannot be used is listed
as a ``SkippedInput``; nothing here raises on bad pack content.

A ``runs/*.jsonl`` file is read as many records, one JSON object a line: the digest gives usage records no file
name ("client log or runs/"), and a client's log of context resolutions or usage is naturally one line per
request. A line that carries a text ``query`` or ``task`` is a recorded query like a ``context-*.json`` record.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.core.coverage.model import SkippedInput
from studio.core.evals.model import ContextCase, DiscoveryCase, Suite
from studio.core.evals.suites import pack_suites, read_suite
from studio.core.model import Pack
from studio.core.pack_fs import PackFS, Status
from studio.core.runs import RunKind, RunRecord, Validity, read_runs
from studio.core.runs.reader import MAX_RUN_BYTES

COVERAGE_FILE = "ontology/coverage.json"
MAX_COVERAGE_BYTES = 4 * 1024 * 1024
MAX_ROWS = 10_000
MAX_QUERY_CHARS = 2000
"""A recorded query longer than this is cut: a task is a question, not a document (bounds every later pass)."""
ROW_TEXT_KEYS = ("question", "task", "query", "prompt", "topic", "title", "concept", "name", "id")
"""Keys of a coverage row that can name what it covers, best first (the standard fixes only the statuses)."""
ROW_GAP_STATUSES = frozenset({"missing-evidence", "missing-material", "blocked", "missing"})
"""Row statuses that say the pack itself knows the row is not covered (digest: coverage.json rows)."""
MAX_LOG_LINE_BYTES = 256 * 1024
"""A longer line of a ``.jsonl`` log is skipped unparsed (one request's record, not a document)."""
MAX_SKIPPED_LINES = 20
"""Bad lines listed one by one per log; the rest are counted in one entry (a broken log must not flood the list)."""
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class RecordedQuery:
    text: str
    origin: str
    """The first record that asked it."""
    count: int


@dataclass(frozen=True, slots=True)
class OntologyRow:
    id: str
    text: str
    status: str


@dataclass(slots=True)
class KnownTasks:
    """The raw tasks of one pack, before anything is resolved."""

    suites: list[Suite] = field(default_factory=list)
    queries: list[RecordedQuery] = field(default_factory=list)
    rows: list[OntologyRow] = field(default_factory=list)
    skipped: list[SkippedInput] = field(default_factory=list)
    records_read: int = 0

    @property
    def context_cases(self) -> list[tuple[Suite, ContextCase]]:
        return [(s, c) for s in self.suites for c in s.context]

    @property
    def discovery_prompts(self) -> list[tuple[Suite, DiscoveryCase]]:
        """Discovery cases the pack should be selected for: real prompts the pack is expected to answer."""
        return [(s, c) for s in self.suites for c in s.discovery if c.expected == "select"]


def normalise(text: str) -> str:
    """The key recorded queries are merged by: case-folded, whitespace collapsed, end punctuation dropped."""
    return _SPACE.sub(" ", text).strip(" ?!.\uff1f\uff01\u3002").casefold()


def known_tasks(pack: Pack, suite_files: tuple[Path, ...] = ()) -> KnownTasks:
    out = KnownTasks()
    files = list(suite_files) or [pack.root / rel for rel in pack_suites(pack.root)]
    for path in files:
        suite = read_suite(path, pack)
        if suite.kind is None:
            first = suite.findings[0].message if suite.findings else "not a suite"
            out.skipped.append(SkippedInput(suite.path, first))
            continue
        out.suites.append(suite)
        if suite.skipped_cases:
            out.skipped.append(SkippedInput(suite.path, f"{suite.skipped_cases} invalid case(s) left out"))
    _recorded_queries(pack, out)
    _ontology_rows(pack, out)
    return out


def _recorded_queries(pack: Pack, out: KnownTasks) -> None:
    report = read_runs(pack.root)
    merged: dict[str, list[Any]] = {}
    def add(query: str, origin: str) -> None:
        key = normalise(query)
        if not key:
            out.skipped.append(SkippedInput(origin, "empty query"))
        elif key in merged:
            merged[key][2] += 1
        else:
            merged[key] = [query.strip(), origin, 1]

    for record in report.records:
        if record.path.lower().endswith(".jsonl") and record.validity is not Validity.UNREADABLE:
            _log_queries(pack, record, out, add)
            continue
        if record.kind not in (RunKind.CONTEXT_RESOLUTION, RunKind.USAGE_RECORD):
            continue
        out.records_read += 1
        if record.validity in (Validity.MALFORMED, Validity.UNREADABLE):
            out.skipped.append(SkippedInput(record.path, f"record is {record.validity.value}"))
            continue
        query = _query_of(record.data)
        if query is None:
            if record.kind is RunKind.CONTEXT_RESOLUTION:  # usage records need not carry a query
                out.skipped.append(SkippedInput(record.path, "context record without a text 'query'"))
            continue
        add(query, record.path)
    for d in report.diagnostics:
        if d.code.startswith("too-many") or "not read" in d.message:
            out.skipped.append(SkippedInput(d.file, d.message))
    out.queries = [RecordedQuery(text, origin, count) for text, origin, count in merged.values()]


def _log_queries(pack: Pack, record: RunRecord, out: KnownTasks, add: Callable[[str, str], None]) -> None:
    """The queries of a ``.jsonl`` log, one record a line; lines that are not JSON objects are listed, skipped."""
    with PackFS(pack.root) as fs:
        found = fs.read(record.path, MAX_RUN_BYTES + 1)  # read_runs already refused a larger file
    if found.status is not Status.OK or found.data is None or len(found.data) > MAX_RUN_BYTES:
        out.skipped.append(SkippedInput(record.path, "log not read"))
        return
    bad: list[int] = []
    for number, line in enumerate(found.data.splitlines(), 1):
        if not line.strip():
            continue
        out.records_read += 1
        data: Any = None
        if len(line) <= MAX_LOG_LINE_BYTES:
            try:
                data = json.loads(line.decode("utf-8"))
            except (UnicodeDecodeError, ValueError, RecursionError):
                data = None
        if not isinstance(data, dict):
            bad.append(number)
            continue
        query = _query_of(data)
        if query is not None:
            add(query, f"{record.path}:{number}")
    for number in bad[:MAX_SKIPPED_LINES]:
        out.skipped.append(SkippedInput(f"{record.path}:{number}", "line is not a JSON object"))
    if len(bad) > MAX_SKIPPED_LINES:
        out.skipped.append(SkippedInput(record.path, f"{len(bad) - MAX_SKIPPED_LINES:,} more lines are not JSON "
                                                     "objects"))


def _query_of(data: Any) -> str | None:
    if not isinstance(data, dict):
        return None
    for key in ("query", "task"):
        value = data.get(key)
        if isinstance(value, str) and value.strip():
            return value[:MAX_QUERY_CHARS]
    return None


def _ontology_rows(pack: Pack, out: KnownTasks) -> None:
    with PackFS(pack.root) as fs:
        found = fs.read(COVERAGE_FILE, MAX_COVERAGE_BYTES + 1)
    if found.status is Status.MISSING:
        return
    if found.status is not Status.OK or found.data is None:
        out.skipped.append(SkippedInput(COVERAGE_FILE, f"not read ({found.status.value})"))
        return
    if len(found.data) > MAX_COVERAGE_BYTES:
        out.skipped.append(SkippedInput(COVERAGE_FILE, f"over {MAX_COVERAGE_BYTES:,} bytes; not read"))
        return
    try:
        data = json.loads(found.data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        out.skipped.append(SkippedInput(COVERAGE_FILE, f"not valid JSON ({exc})"))
        return
    rows = _rows_of(data)
    if rows is None:
        out.skipped.append(SkippedInput(COVERAGE_FILE, "no list of rows (expected a list, or 'rows'/'coverage')"))
        return
    for i, row in enumerate(rows[:MAX_ROWS]):
        text = _row_text(row)
        if text is None:
            out.skipped.append(SkippedInput(f"{COVERAGE_FILE}#{i}", "row names no question, task or topic"))
            continue
        row_id = str(row.get("id", i)) if isinstance(row, dict) else str(i)
        status = str(row.get("status", "")) if isinstance(row, dict) else ""
        out.rows.append(OntologyRow(row_id[:200], text, status[:100]))


def _rows_of(data: Any) -> list[Any] | None:
    if isinstance(data, list):
        return data
    if isinstance(data, dict):
        for key in ("rows", "coverage", "matrix", "items"):
            if isinstance(data.get(key), list):
                return list(data[key])
    return None


def _row_text(row: Any) -> str | None:
    if isinstance(row, str) and row.strip():
        return row.strip()[:MAX_QUERY_CHARS]
    if not isinstance(row, dict):
        return None
    for key in ROW_TEXT_KEYS:
        value = row.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()[:MAX_QUERY_CHARS]
    return None
