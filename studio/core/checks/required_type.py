"""V11 ``missing-type``: the pack type is required; without it the pack is quarantined."""

from __future__ import annotations

from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity

MISSING_TYPE = Code("missing-type", Severity.ERROR, "'type' is missing or empty", Behavior.QUARANTINE, "V11",
                    hint="Use a standard type such as 'brand-product' or 'custom:<namespace>'.")
CODES = (MISSING_TYPE,)


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    if ctx.fm is None:
        return
    value = ctx.value("type")
    if isinstance(value, str) and value.strip():
        return
    problem = "is missing" if not ctx.has("type") else "must be a non-empty string"
    yield ctx.at(MISSING_TYPE, f"'type' {problem}", "type")
