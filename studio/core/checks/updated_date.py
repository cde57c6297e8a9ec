"""V44 ``invalid-updated-date``: ``updated`` should be an ISO date (YYYY-MM-DD or a full timestamp)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity

INVALID_UPDATED_DATE = Code("invalid-updated-date", Severity.WARNING, "'updated' is not an ISO date", Behavior.LOAD,
                            "V44", hint='Write the date as YYYY-MM-DD, e.g. updated: "2026-05-01".')
CODES = (INVALID_UPDATED_DATE,)


def is_iso_date(value: str) -> bool:
    try:
        if len(value) == 10:
            dt.date.fromisoformat(value)
        else:
            dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    if not ctx.has("updated"):
        return
    value = ctx.value("updated")
    if not isinstance(value, str) or not is_iso_date(value):
        yield ctx.at(INVALID_UPDATED_DATE, f"'updated: {value}' is not an ISO date", "updated")
