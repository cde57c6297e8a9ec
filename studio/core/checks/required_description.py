"""V06 ``missing-description``: without a description catalog selection cannot work, so the pack is skipped."""

from __future__ import annotations

from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity

MISSING_DESCRIPTION = Code("missing-description", Severity.ERROR,
                           "'description' is missing, empty or not a string: catalog selection cannot work",
                           Behavior.SKIP, "V06",
                           hint="Say what the pack contains and when an agent should use it (1-1024 characters).")
CODES = (MISSING_DESCRIPTION,)


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    if ctx.fm is None:
        return
    value = ctx.value("description")
    if isinstance(value, str) and value.strip():
        return
    problem = "is missing" if not ctx.has("description") else (
        "is empty" if value in (None, "") or (isinstance(value, str) and not value.strip())
        else f"must be a string, not {type(value).__name__}")
    yield ctx.at(MISSING_DESCRIPTION, f"'description' {problem}", "description")
