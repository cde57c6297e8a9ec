"""V12-V14: ``custom-type`` (info), ``unknown-type`` and ``custom-type-empty-namespace`` (warnings).

Studio policy for unknown, un-namespaced types: quarantine (the standard loads them only when the client
explicitly allows it).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Diagnostic, Severity
from studio.core.model import STANDARD_TYPES


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    value = ctx.value("type")
    if not isinstance(value, str) or not value.strip() or value in STANDARD_TYPES:
        return
    if value.startswith("custom:"):
        if value[len("custom:"):].strip():
            yield ctx.at("custom-type", Severity.INFO, f"Custom type '{value}'", "type", rule="V12",
                         hint="Custom types load; other clients may not know how to present them.")
        else:
            yield ctx.at("custom-type-empty-namespace", Severity.WARNING,
                         "'custom:' type has no namespace; treated as an unknown type", "type", rule="V14",
                         behavior=Behavior.QUARANTINE, hint="Write 'custom:<your-namespace>'.")
        return
    close = difflib.get_close_matches(value, STANDARD_TYPES, n=1)
    hint = f"Did you mean '{close[0]}'?" if close else "Use a standard type or 'custom:<namespace>'."
    yield ctx.at("unknown-type", Severity.WARNING, f"Unknown type '{value}' (not standard, not custom:)",
                 "type", rule="V13", behavior=Behavior.QUARANTINE, hint=hint)
