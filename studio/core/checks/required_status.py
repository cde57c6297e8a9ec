"""V15 ``missing-status`` and V16 ``invalid-status``: status is the loading gate; without a valid one the
pack is quarantined (never silently treated as ready)."""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity
from studio.core.model import STATUSES

MISSING_STATUS = Code("missing-status", Severity.ERROR, "'status' is missing: status is the loading gate",
                      Behavior.QUARANTINE, "V15", hint="Add 'status: draft' (or ready once reviewed).")
INVALID_STATUS = Code("invalid-status", Severity.ERROR, "'status' is not one of the six statuses", Behavior.QUARANTINE,
                      "V16")
CODES = (MISSING_STATUS, INVALID_STATUS)


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    if ctx.fm is None:
        return
    value = ctx.value("status")
    if not ctx.has("status") or value in (None, ""):
        yield ctx.at(MISSING_STATUS, "'status' is missing", "status")
    elif value not in STATUSES:
        close = difflib.get_close_matches(str(value), STATUSES, n=1)
        hint = f"Did you mean '{close[0]}'?" if close else "Use one of: " + ", ".join(STATUSES) + "."
        yield ctx.at(INVALID_STATUS, f"'status: {value}' is not one of {', '.join(STATUSES)}", "status", hint=hint)
