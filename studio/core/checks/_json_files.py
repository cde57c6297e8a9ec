"""Shared by the JSON-file checks: read a pack file bounded and report invalid JSON with its position."""

from __future__ import annotations

import json
from pathlib import Path

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Diagnostic, Severity
from studio.core.pack import read_bounded

MAX_JSON_BYTES = 8 * 1024 * 1024


def invalid_json(ctx: CheckContext, path: Path, code: str, rule: str) -> Diagnostic | None:
    """A diagnostic when ``path`` (inside the pack) is not valid JSON; None when it parses or is absent."""
    if not path.is_file():
        return None
    rel = ctx.pack.relpath(path)
    data, size, problem = read_bounded(path, MAX_JSON_BYTES + 1, root=ctx.pack.root)
    if problem is not None:
        return problem
    assert data is not None
    if size > MAX_JSON_BYTES:
        return ctx.in_file(code, Severity.ERROR, f"{rel} is {size:,} bytes; too large to check", rel,
                           rule=rule, behavior=Behavior.LOAD_WITH_WARNING, hint="Split the file.")
    try:
        json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        return ctx.in_file(code, Severity.ERROR, f"{rel} is not UTF-8 (byte offset {exc.start})", rel,
                           rule=rule, behavior=Behavior.LOAD_WITH_WARNING, hint="Save it as UTF-8 JSON.")
    except json.JSONDecodeError as exc:
        return ctx.in_file(code, Severity.ERROR, f"{rel} is not valid JSON: {exc.msg}; the file is excluded",
                           rel, exc.lineno, exc.colno, rule=rule, behavior=Behavior.LOAD_WITH_WARNING,
                           hint="Fix the JSON syntax at this position.")
    return None
