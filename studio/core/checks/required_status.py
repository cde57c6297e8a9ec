"""V15 ``missing-status`` and V16 ``invalid-status``: status is the loading gate; without a valid one the
pack is quarantined (never silently treated as ready)."""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Diagnostic, Severity
from studio.core.model import STATUSES


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    if ctx.fm is None:
        return
    value = ctx.value("status")
    if not ctx.has("status") or value in (None, ""):
        yield ctx.at("missing-status", Severity.ERROR, "'status' is missing", "status", rule="V15",
                     behavior=Behavior.QUARANTINE, hint="Add 'status: draft' (or ready once reviewed).")
    elif value not in STATUSES:
        close = difflib.get_close_matches(str(value), STATUSES, n=1)
        hint = f"Did you mean '{close[0]}'?" if close else "Use one of: " + ", ".join(STATUSES) + "."
        yield ctx.at("invalid-status", Severity.ERROR,
                     f"'status: {value}' is not one of {', '.join(STATUSES)}", "status", rule="V16",
                     behavior=Behavior.QUARANTINE, hint=hint)
