"""V43 ``compatibility-too-long``: the standard asks to keep ``compatibility`` under 500 characters."""

from __future__ import annotations

from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity

COMPATIBILITY_TOO_LONG = Code("compatibility-too-long", Severity.WARNING, "'compatibility' is 500 characters or more",
                              Behavior.LOAD, "V43", hint="State only the runtime or client requirements.")
CODES = (COMPATIBILITY_TOO_LONG,)

LIMIT = 500


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    value = ctx.value("compatibility")
    if isinstance(value, str) and len(value) >= LIMIT:
        yield ctx.at(COMPATIBILITY_TOO_LONG, f"'compatibility' is {len(value)} characters; keep it under {LIMIT}",
                     "compatibility")
