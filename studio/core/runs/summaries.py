"""One-line summaries of run records, and the Markdown-log reader (lint, health, ingest logs).

Summaries are plain text built only from what the record says; nothing is interpreted or executed.
"""

from __future__ import annotations

import re
from typing import Any

from studio.core.runs.model import RunKind
from studio.core.terminal import shortened

_STATUS_LINE = re.compile(r"^\s*\**status\**\s*:\s*\**\s*`?(?P<status>[A-Za-z][\w-]*)", re.IGNORECASE)
_FINDING = re.compile(r"^\s*[-*]\s+\**(?P<sev>error|warning|info)\**\s*:", re.IGNORECASE)
_QUERY_LIMIT = 60


def summarize(kind: RunKind, data: Any) -> str:
    """A one-line description of a record for timelines; empty strings never happen."""
    if not isinstance(data, dict):
        return f"{kind.value}: {type(data).__name__} value"
    handler = _HANDLERS.get(kind)
    try:
        return handler(data) if handler else _generic(kind, data)
    except (TypeError, AttributeError, ValueError):  # a malformed value must not break the listing
        return _generic(kind, data)


def _count(value: Any) -> int:
    return len(value) if isinstance(value, list) else 0


def _compile(data: dict[str, Any]) -> str:
    text = f"compile {data.get('status', '?')} ({data.get('trigger', '?')}): {_count(data.get('inputs'))} inputs -> "
    text += f"{_count(data.get('outputs'))} outputs"
    if _count(data.get("diagnostics")):
        text += f", {_count(data.get('diagnostics'))} diagnostics"
    review = data.get("review")
    if isinstance(review, dict) and review.get("required") is True:
        text += ", review required"
    return text


def _context(data: dict[str, Any]) -> str:
    query = shortened(str(data.get("query", "")), _QUERY_LIMIT)
    packs = [p for p in data.get("activated_packs", []) if isinstance(p, dict)]
    files = sum(_count(p.get("selected_files")) for p in packs)
    text = f"context {data.get('status', '?')}: \"{query}\" -> {len(packs)} pack(s), {files} file(s)"
    if isinstance(data.get("token_estimate"), int):
        text += f", ~{data['token_estimate']} tokens"
    return text


def _usage(data: dict[str, Any]) -> str:
    return (f"usage of {data.get('pack', '?')}: {_count(data.get('selected_files'))} file(s), "
            f"{_count(data.get('citation_gaps'))} citation gap(s), {_count(data.get('warnings'))} warning(s)")


def _source_map(data: dict[str, Any]) -> str:
    return f"source map: {_count(data.get('claims'))} claim(s)"


def _selection_eval(data: dict[str, Any]) -> str:
    return f"selection eval for {data.get('pack_name', '?')}: {_count(data.get('cases'))} case(s)"


def _eval_result(data: dict[str, Any]) -> str:
    summary = data.get("summary")
    if isinstance(summary, dict):
        parts = [f"{k} {summary[k]}" for k in ("passed", "failed", "total", "pass_rate") if k in summary]
        if parts:
            return "eval result: " + ", ".join(parts)
    if isinstance(data.get("results"), list):
        passed = sum(1 for r in data["results"] if isinstance(r, dict) and r.get("passed") is True)
        return f"eval result: {passed}/{len(data['results'])} passed"
    return "eval result"


def _discovery_result(data: dict[str, Any]) -> str:
    summary: dict[str, Any] = data["summary"] if isinstance(data.get("summary"), dict) else {}
    rate = summary.get("pass_rate")
    text = f"discovery eval {data.get('suite', '?')}: {summary.get('passed', '?')}/{summary.get('total', '?')} passed"
    if isinstance(rate, int | float):
        text += f" ({rate:.0%})"
    return text


def _context_result(data: dict[str, Any]) -> str:
    summary: dict[str, Any] = data["summary"] if isinstance(data.get("summary"), dict) else {}
    text = f"context eval {data.get('suite', '?')}: {_count(data.get('results'))} case(s)"
    for key, label in (("context_recall", "recall"), ("mrr", "MRR")):
        if isinstance(summary.get(key), int | float):
            text += f", {label} {summary[key]:.2f}"
    return text


def _review(data: dict[str, Any]) -> str:
    text = f"review by {data.get('reviewer', '?')}: {data.get('decision', '?')}"
    before, after = data.get("before"), data.get("after")
    if isinstance(before, dict) and isinstance(after, dict):
        for key in ("status", "trust"):
            if before.get(key) != after.get(key):
                text += f", {key} {before.get(key)} -> {after.get(key)}"
    return text


def _feedback(data: dict[str, Any]) -> str:
    query = shortened(str(data.get("query", "")), _QUERY_LIMIT)
    where = str(data.get("file", "?")) + (f" § {data['section']}" if isinstance(data.get("section"), str) else "")
    return _one_line(f"{data.get('outcome', '?')}: {where} for \"{query}\" by {data.get('reviewer', '?')}")


def _dispute(data: dict[str, Any]) -> str:
    step = data.get("step", "?")
    what = f"decided {data.get('decision', '?')}" if step == "decide" else {"open": "opened"}.get(str(step), str(step))
    return _one_line(f"dispute on {data.get('claim', '?')}: {what} by {data.get('author', '?')}")


def _one_line(text: str) -> str:
    """Record text as one line with no terminal escapes (records are pack data: hostile until shown safely)."""
    return "".join(ch if ch.isprintable() else " " for ch in text)


def _report(data: dict[str, Any]) -> str:
    title = data.get("title") or data.get("command") or "report"
    findings = data.get("findings")
    status = data.get("status", "?")
    if isinstance(findings, list):
        return f"{title}: {status}, {len(findings)} finding(s)"
    return f"{title}: {status}"


def _generic(kind: RunKind, data: dict[str, Any]) -> str:
    keys = ", ".join(sorted(str(k) for k in data)[:6])
    return f"{kind.value}: keys {keys}" if keys else f"{kind.value}: empty object"


_HANDLERS = {
    RunKind.COMPILE_RUN: _compile,
    RunKind.CONTEXT_RESOLUTION: _context,
    RunKind.USAGE_RECORD: _usage,
    RunKind.SOURCE_MAP: _source_map,
    RunKind.SELECTION_EVAL: _selection_eval,
    RunKind.EVAL_RESULT: _eval_result,
    RunKind.DISCOVERY_EVAL_RESULT: _discovery_result,
    RunKind.CONTEXT_EVAL_RESULT: _context_result,
    RunKind.REVIEW_RECORD: _review,
    RunKind.FEEDBACK_RECORD: _feedback,
    RunKind.DISPUTE_RECORD: _dispute,
    RunKind.LINT_REPORT: _report,
    RunKind.HEALTH_REPORT: _report,
}


def read_markdown_log(text: str) -> dict[str, Any]:
    """What a Markdown lint/health/ingest log says: title, ``Status:`` value, findings by severity."""
    title = ""
    status: str | None = None
    findings: list[dict[str, Any]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not title and stripped.startswith("#"):
            title = stripped.lstrip("#").strip()
        elif status is None and (match := _STATUS_LINE.match(line)):
            status = match["status"].lower()
        elif match := _FINDING.match(line):
            findings.append({"severity": match["sev"].lower(), "line": number,
                             "message": stripped[match.end() - (len(line) - len(line.lstrip())):].strip()})
    return {"title": title or "Markdown log", "status": status, "findings": findings}
