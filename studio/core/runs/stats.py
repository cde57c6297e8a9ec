"""Timeline statistics over a pack's run records: what was selected, how often, and what changed since.

Works on a RunsReport already read; it only stats and hashes files inside the pack to answer "does the
selected file still exist" and "has it changed since the recorded sha256". Whether a selected file changed is
told from content hashes only (compile runs' ``inputs[]``/``documents[]`` ``sha256``), never from file times:
a fresh clone or a copy gives every file a new time. Without a recorded hash, the statistics say so.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from studio.core.pack_fs import PackFS, Status, held
from studio.core.paths import pointer_status
from studio.core.runs.model import RunKind, RunRecord, RunsReport, TimeSource
from studio.core.runs.timestamps import format_time

RUNTIME_SURFACES = ("compiled", "documents", "wiki")
"""Folders whose files a resolver selects (digest 1.1); ``never selected`` is computed over these."""
MAX_SURFACE_FILES = 5000
MAX_HASH_BYTES = 32 * 1024 * 1024
_SHA256 = re.compile(r"^(?:sha256:)?([0-9a-fA-F]{64})$")


@dataclass(slots=True)
class TimePoint:
    """Warnings and citation gaps one context/usage/compile record reports."""

    time: str
    path: str
    kind: str
    warnings: int
    citation_gaps: int


@dataclass(slots=True)
class EvalPoint:
    """One recorded eval run: how its suite fared (``runs/eval-discovery-*``, ``runs/eval-*/answer-results``)."""

    time: str
    path: str
    kind: str
    """``discovery`` or ``context``."""
    suite: str
    pass_rate: float | None
    context_recall: float | None
    """Context runs only: mean share of required context selected."""
    mrr: float | None
    ranking: str | None
    """The configuration's ranking variant, when the record says."""


@dataclass(slots=True)
class HashCheck:
    """A file a record hashed, compared with the file as it is now."""

    path: str
    record: str
    state: str
    """``unchanged``, ``changed``, ``missing``, ``outside`` (never read) or ``unverifiable`` (no real hash)."""


@dataclass(frozen=True, slots=True)
class SelectedChange:
    """A selected file whose content differs from the latest sha256 a record holds for it."""

    path: str
    last_selected: str
    """When a context or usage record last selected it (formatted)."""
    record: str
    """The record whose hash no longer matches."""


@dataclass(slots=True)
class RunStats:
    """What the runs say over time about the pack's files."""

    selection_counts: dict[str, int] = field(default_factory=dict)
    """Pack-relative path -> number of context/usage records that selected it."""
    selection_records: int = 0
    compile_history: list[tuple[str, str, str]] = field(default_factory=list)
    """(time, record path, status) for every compile run, oldest first."""
    over_time: list[TimePoint] = field(default_factory=list)
    eval_history: list[EvalPoint] = field(default_factory=list)
    """Eval runs, oldest first: pass rate and context recall over time."""
    never_selected: list[str] = field(default_factory=list)
    selected_missing: list[str] = field(default_factory=list)
    """Selected paths that no longer exist in the pack."""
    selected_modified: list[SelectedChange] = field(default_factory=list)
    """Selected files whose content no longer matches the latest hash recorded for them (by sha256)."""
    selected_unhashed: list[str] = field(default_factory=list)
    """Selected files (still present) that no record hashes: whether they changed cannot be told."""
    outputs_missing: list[tuple[str, str]] = field(default_factory=list)
    """(path, compile run) for compile outputs (not ``deleted``) that no longer exist."""
    hash_checks: list[HashCheck] = field(default_factory=list)
    validity_counts: dict[str, int] = field(default_factory=dict)
    kind_counts: dict[str, int] = field(default_factory=dict)

    @property
    def changed(self) -> list[HashCheck]:
        return [h for h in self.hash_checks if h.state == "changed"]

    @property
    def selected_change_note(self) -> str:
        """What the modified-since-selected list can and cannot tell (empty when every selected file is hashed)."""
        present = len(self.selection_counts) - len(self.selected_missing)
        if not present or not self.selected_unhashed:
            return ""
        if len(self.selected_unhashed) == present:
            return ("No record carries a content hash (sha256) for the selected files, so whether they changed "
                    "since they were selected cannot be told. File times are not used: a fresh clone gives every "
                    "file a new one.")
        return (f"{len(self.selected_unhashed)} of {present} selected files have no recorded content hash and "
                "were not checked.")

    def to_dict(self) -> dict[str, Any]:
        return {
            "selection_records": self.selection_records,
            "selection_counts": dict(sorted(self.selection_counts.items())),
            "compile_history": [{"time": t, "path": p, "status": s} for t, p, s in self.compile_history],
            "over_time": [vars_of(p) for p in self.over_time],
            "eval_history": [vars_of(p) for p in self.eval_history],
            "never_selected": self.never_selected,
            "selected_missing": self.selected_missing,
            "selected_modified": [{"path": c.path, "last_selected": c.last_selected, "record": c.record}
                                  for c in self.selected_modified],
            "selected_unhashed": self.selected_unhashed,
            "selected_change_note": self.selected_change_note,
            "outputs_missing": [{"path": p, "record": r} for p, r in self.outputs_missing],
            "hash_checks": [vars_of(h) for h in self.hash_checks],
            "validity_counts": self.validity_counts,
            "kind_counts": self.kind_counts,
        }


def vars_of(obj: Any) -> dict[str, Any]:
    return {name: getattr(obj, name) for name in obj.__slots__}


def compute_stats(report: RunsReport, pack_root: Path, pack_name: str | None = None) -> RunStats:
    """Statistics over ``report``; ``pack_name`` picks this pack's entries in multi-pack context records."""
    root = Path(os.path.abspath(pack_root))
    with PackFS(root) as fs:  # one pack held open: every file named by a record is looked at by descriptor
        return _compute(report, root, pack_name or root.name, fs)


def _compute(report: RunsReport, root: Path, name: str, fs: PackFS) -> RunStats:
    stats = RunStats()
    last_selected: dict[str, datetime] = {}
    disk = _Disk(fs)
    for record in report.records:
        stats.validity_counts[record.validity.value] = stats.validity_counts.get(record.validity.value, 0) + 1
        stats.kind_counts[record.kind.value] = stats.kind_counts.get(record.kind.value, 0) + 1
        data = record.data if isinstance(record.data, dict) else {}
        selected = _selected_files(record, data, name)
        if selected is not None:
            stats.selection_records += 1
            for path in selected:
                stats.selection_counts[path] = stats.selection_counts.get(path, 0) + 1
                if record.timestamp is not None and record.time_source is not TimeSource.MTIME:
                    last_selected[path] = max(record.timestamp, last_selected.get(path, record.timestamp))
        if record.kind is RunKind.COMPILE_RUN:
            status = data.get("status")  # absent from an unreadable record: said so, never the word "None"
            stats.compile_history.append((format_time(record.timestamp), record.path,
                                          "(no status)" if status is None else str(status)))
            stats.hash_checks.extend(_hash_checks(record, data, disk))
            stats.outputs_missing.extend((p, record.path) for p in _missing_outputs(data, disk))
        if record.kind in (RunKind.DISCOVERY_EVAL_RESULT, RunKind.CONTEXT_EVAL_RESULT):
            stats.eval_history.append(_eval_point(record, data))
        if record.kind in (RunKind.CONTEXT_RESOLUTION, RunKind.USAGE_RECORD, RunKind.COMPILE_RUN):
            warnings, gaps = _warning_counts(record.kind, data)
            stats.over_time.append(TimePoint(format_time(record.timestamp), record.path, record.kind.value,
                                             warnings, gaps))
    surfaces = runtime_surface_files(root, fs)
    stats.never_selected = [p for p in surfaces if p not in stats.selection_counts]
    stats.selected_missing = sorted(
        p for p in stats.selection_counts if disk.state(p) in ("missing", "outside")
    )
    latest_hash: dict[str, HashCheck] = {}
    for hashed in stats.hash_checks:  # records come oldest first: the last check of a path is the latest
        if hashed.state in ("changed", "unchanged"):
            latest_hash[hashed.path] = hashed
    for path in sorted(stats.selection_counts):
        if path in stats.selected_missing:
            continue
        latest = latest_hash.get(path)
        if latest is None:
            stats.selected_unhashed.append(path)
        elif latest.state == "changed":
            stats.selected_modified.append(SelectedChange(path, format_time(last_selected.get(path)), latest.record))
    return stats


def _eval_point(record: RunRecord, data: dict[str, Any]) -> EvalPoint:
    summary: dict[str, Any] = data["summary"] if isinstance(data.get("summary"), dict) else {}
    conf: dict[str, Any] = data["configuration"] if isinstance(data.get("configuration"), dict) else {}

    def number(key: str) -> float | None:
        value = summary.get(key)
        return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None

    kind = "context" if record.kind is RunKind.CONTEXT_EVAL_RESULT else "discovery"
    ranking = conf.get("ranking")
    return EvalPoint(format_time(record.timestamp), record.path, kind, str(data.get("suite", "")),
                     number("pass_rate"), number("context_recall"), number("mrr"),
                     ranking if isinstance(ranking, str) else None)


def _missing_outputs(data: dict[str, Any], disk: _Disk) -> list[str]:
    outputs = data.get("outputs")
    missing: list[str] = []
    for entry in outputs if isinstance(outputs, list) else []:
        if isinstance(entry, dict) and isinstance(entry.get("path"), str) and entry.get("operation") != "deleted":
            path = _clean(entry["path"])
            if disk.state(path) == "missing":
                missing.append(path)
    return missing


def _selected_files(record: RunRecord, data: dict[str, Any], name: str) -> set[str] | None:
    """Files this record says were selected for the pack, or None when the record is not a selection."""
    if record.kind is RunKind.CONTEXT_RESOLUTION:
        packs = [p for p in _list(data.get("activated_packs")) if isinstance(p, dict)]
        mine = [p for p in packs if p.get("name") == name] or (packs if len(packs) == 1 else [])
        files: set[str] = set()
        for entry in mine:
            for key in ("selected_files", "selected_documents", "selected_splits"):
                files.update(_clean(v) for v in _list(entry.get(key)) if isinstance(v, str))
        return files
    if record.kind is RunKind.USAGE_RECORD:
        if data.get("pack") not in (None, name):
            return None
        return {_clean(v) for v in _list(data.get("selected_files")) if isinstance(v, str)}
    return None


def _list(value: Any) -> list[Any]:
    """``value`` when the record holds a list there; any other JSON shape counts as nothing."""
    return value if isinstance(value, list) else []


def _clean(path: str) -> str:
    """``documents/a.md#section`` and ``./compiled/x.md`` both count as the file itself."""
    path = path.split("#", 1)[0].strip()
    return path[2:] if path.startswith("./") else path


def _warning_counts(kind: RunKind, data: dict[str, Any]) -> tuple[int, int]:
    if kind is RunKind.CONTEXT_RESOLUTION:
        warnings = sum(len(_list(p.get("warnings"))) for p in _list(data.get("activated_packs"))
                       if isinstance(p, dict))
        return warnings, len(data["missing"]) if isinstance(data.get("missing"), list) else 0
    if kind is RunKind.COMPILE_RUN:
        diags = data.get("diagnostics", [])
        return (sum(1 for d in diags if isinstance(d, dict) and d.get("severity") in ("warning", "error"))
                if isinstance(diags, list) else 0), 0
    warnings = data.get("warnings", [])
    gaps = data.get("citation_gaps", [])
    return (len(warnings) if isinstance(warnings, list) else 0, len(gaps) if isinstance(gaps, list) else 0)


class _Disk:
    """Answers about pack files, each asked of the file system once (thousands of runs name the same files)."""

    def __init__(self, fs: PackFS) -> None:
        self.fs = fs
        self._states: dict[str, str] = {}
        self._hashes: dict[str, str | None] = {}

    def state(self, path: str) -> str:
        """``present``, ``missing`` or ``outside`` (unsafe, a symlink out of the pack, or a name the file system
        refuses to look up: never a pack file)."""
        if path not in self._states:
            status = pointer_status(self.fs, path)
            self._states[path] = {Status.OK: "present", Status.MISSING: "missing"}.get(status, "outside")
        return self._states[path]

    def sha256(self, path: str) -> str | None:
        if path not in self._hashes:
            self._hashes[path] = self.fs.sha256(path, MAX_HASH_BYTES)
        return self._hashes[path]


def _hash_checks(record: RunRecord, data: dict[str, Any], disk: _Disk) -> list[HashCheck]:
    checks: list[HashCheck] = []
    for key in ("inputs", "documents"):
        entries = data.get(key)
        if not isinstance(entries, list):
            continue
        for entry in entries:
            if not isinstance(entry, dict) or not isinstance(entry.get("path"), str):
                continue
            path = _clean(entry["path"])
            checks.append(HashCheck(path, record.path, _compare(disk, path, entry.get("sha256"))))
    return checks


def _compare(disk: _Disk, path: str, recorded: Any) -> str:
    state = disk.state(path)
    if state != "present":
        return state
    match = _SHA256.match(recorded) if isinstance(recorded, str) else None
    if match is None:
        return "unverifiable"  # placeholders such as "sha256:..." in the standard's own examples
    current = disk.sha256(path)
    if current is None:
        return "unverifiable"
    return "unchanged" if current == match.group(1).lower() else "changed"


def file_sha256(root: Path, rel: str) -> str | None:
    """Hex sha256 of a regular file inside ``root``, or None when unreachable or larger than MAX_HASH_BYTES.

    Reached by descriptor (``pack_fs``): a symlink out of the pack, even one swapped in meanwhile, is never read.
    """
    with PackFS(root) as fs:
        return fs.sha256(rel, MAX_HASH_BYTES)


def runtime_surface_files(root: Path, fs: PackFS | None = None) -> list[str]:
    """Regular files under ``compiled/``, ``documents/`` and ``wiki/`` (no symlinks followed), sorted."""
    found: list[str] = []
    with held(root, fs) as fs:
        for surface in RUNTIME_SURFACES:
            tree = fs.walk(surface, enter=lambda _rel, name: not name.startswith("."), classify_links=False)
            for entry in tree.files:
                if entry.is_link or entry.rel.rsplit("/", 1)[-1].startswith("."):
                    continue
                found.append(entry.rel)
                if len(found) >= MAX_SURFACE_FILES:
                    return sorted(found)
    return sorted(found)
