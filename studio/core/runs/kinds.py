"""Decide what kind of record a ``runs/`` file is: by its content first, by its file name second.

The reference CLI guesses from the name and falls back to "compile run", which mislabels usage, lint,
health and eval-result files (digest 7.6, 11.18). Here the keys a record carries decide; the name only
breaks ties, and a record nothing recognises is ``unknown`` (unvalidated, never invalid).
"""

from __future__ import annotations

from typing import Any

from studio.core.runs.model import RunKind

_EVAL_RESULT_KEYS = ("results", "assertion_results", "run_summary", "eval_id", "description_hash")


def infer_kind(data: Any, name: str) -> RunKind:
    """Kind of a JSON record ``data`` stored under file name ``name``."""
    by_content = _kind_from_content(data) if isinstance(data, dict) else None
    return by_content or kind_from_name(name)


def _kind_from_content(data: dict[str, Any]) -> RunKind | None:
    if data.get("record") == "dispute":  # first: a decide step carries "decision" too
        return RunKind.DISPUTE_RECORD
    if data.get("record") == "review" or ("decision" in data and "reviewer" in data):
        return RunKind.REVIEW_RECORD
    if data.get("record") == "feedback" or ("outcome" in data and "file" in data and "query" in data):
        return RunKind.FEEDBACK_RECORD
    if isinstance(data.get("activated_packs"), list):
        return RunKind.CONTEXT_RESOLUTION
    if isinstance(data.get("claims"), list):
        return RunKind.SOURCE_MAP
    if any(key in data for key in _EVAL_RESULT_KEYS) or _has_pass_rate(data.get("summary")):
        return _eval_result_kind(data)
    if isinstance(data.get("cases"), list) and "pack_name" in data:
        return RunKind.SELECTION_EVAL
    if "run_id" in data and ("trigger" in data or "inputs" in data or "outputs" in data):
        return RunKind.COMPILE_RUN
    if isinstance(data.get("selected_files"), list) and ("pack" in data or "citation_gaps" in data):
        return RunKind.USAGE_RECORD
    if isinstance(data.get("findings"), list):
        command = str(data.get("command", ""))
        return RunKind.HEALTH_REPORT if "health" in command else RunKind.LINT_REPORT
    return None


def _eval_result_kind(data: dict[str, Any]) -> RunKind:
    """Discovery and context results have shapes (and schemas); other eval results stay unvalidated."""
    results = data.get("results")
    items = [r for r in results if isinstance(r, dict)] if isinstance(results, list) else []
    if data.get("kind") == "context" or any("context_recall" in r or "required_context" in r for r in items):
        return RunKind.CONTEXT_EVAL_RESULT
    if data.get("kind") == "discovery" or (items and all("expected" in r and "actual" in r for r in items)):
        return RunKind.DISCOVERY_EVAL_RESULT
    return RunKind.EVAL_RESULT


def _has_pass_rate(summary: Any) -> bool:
    return isinstance(summary, dict) and ("pass_rate" in summary or "precision" in summary)


_NAME_PREFIXES = (
    ("review-", RunKind.REVIEW_RECORD),
    ("dispute-", RunKind.DISPUTE_RECORD),
    ("feedback-", RunKind.FEEDBACK_RECORD),  # not "feedback.json": that is the eval viewer's file (below)
    ("compile-", RunKind.COMPILE_RUN),
    ("context-", RunKind.CONTEXT_RESOLUTION),
    ("usage-", RunKind.USAGE_RECORD),
    ("lint-", RunKind.LINT_REPORT),
    ("health-", RunKind.HEALTH_REPORT),
)
"""File-name prefixes of the records the studio and the standard's tools write, and the kind each names."""


def kind_from_name(name: str) -> RunKind:
    """Kind suggested by a file name alone (``compile-…``, ``context-…``, ``lint-…`` ...)."""
    lower = name.lower()
    if "source-map" in lower:
        return RunKind.SOURCE_MAP
    for prefix, kind in _NAME_PREFIXES:
        if lower.startswith(prefix):
            return kind
    if "eval" in lower or lower in ("benchmark.json", "feedback.json", "grading.json"):
        return RunKind.EVAL_RESULT
    return RunKind.UNKNOWN


def infer_markdown_kind(text: str, name: str) -> RunKind:
    """Kind of a Markdown log: its title (``# Lint report: …``) first, then its name."""
    first = next((line.strip().lower() for line in text.splitlines() if line.strip()), "")
    if first.startswith("#"):
        if "lint" in first:
            return RunKind.LINT_REPORT
        if "health" in first:
            return RunKind.HEALTH_REPORT
        if "review" in first:
            return RunKind.LINT_REPORT  # a Markdown review report; review *records* are our JSON shape
    by_name = kind_from_name(name)
    # A Markdown file is never a schema-bearing JSON record, whatever its name says.
    return by_name if by_name in (RunKind.LINT_REPORT, RunKind.HEALTH_REPORT, RunKind.EVAL_RESULT) else (
        RunKind.UNKNOWN
    )
