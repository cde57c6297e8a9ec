"""V12-V14: ``custom-type`` (info), ``unknown-type`` and ``custom-type-empty-namespace`` (warnings).

Studio policy for unknown, un-namespaced types: quarantine (the standard loads them only when the client
explicitly allows it).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity
from studio.core.model import STANDARD_TYPES

CUSTOM_TYPE = Code("custom-type", Severity.INFO, "'type' is a custom:<namespace> extension type", Behavior.LOAD, "V12",
                   hint="Custom types load; other clients may not know how to present them.")
CUSTOM_TYPE_EMPTY_NAMESPACE = Code("custom-type-empty-namespace", Severity.WARNING,
                                   "'type' is 'custom:' with no namespace: treated as an unknown type",
                                   Behavior.QUARANTINE, "V14", hint="Write 'custom:<your-namespace>'.")
UNKNOWN_TYPE = Code("unknown-type", Severity.WARNING, "'type' is neither a standard type nor custom:<namespace>",
                    Behavior.QUARANTINE, "V13")
CODES = (CUSTOM_TYPE, CUSTOM_TYPE_EMPTY_NAMESPACE, UNKNOWN_TYPE)


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    value = ctx.value("type")
    if not isinstance(value, str) or not value.strip() or value in STANDARD_TYPES:
        return
    if value.startswith("custom:"):
        if value[len("custom:"):].strip():
            yield ctx.at(CUSTOM_TYPE, f"Custom type '{value}'", "type")
        else:
            yield ctx.at(CUSTOM_TYPE_EMPTY_NAMESPACE, "'custom:' type has no namespace; treated as an unknown type",
                         "type")
        return
    close = difflib.get_close_matches(value, STANDARD_TYPES, n=1)
    hint = f"Did you mean '{close[0]}'?" if close else "Use a standard type or 'custom:<namespace>'."
    yield ctx.at(UNKNOWN_TYPE, f"Unknown type '{value}' (not standard, not custom:)", "type", hint=hint)
