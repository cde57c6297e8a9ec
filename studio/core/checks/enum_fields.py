"""V41 ``invalid-trust`` (treated as unreviewed) and V42 ``invalid-grounding`` (treated as unset)."""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity
from studio.core.model import GROUNDING_POLICIES, TRUST_LEVELS

INVALID_TRUST = Code("invalid-trust", Severity.WARNING,
                     "'trust' is not unreviewed, user-confirmed, official or external: treated as unreviewed",
                     Behavior.LOAD_WITH_WARNING, "V41")
INVALID_GROUNDING = Code("invalid-grounding", Severity.WARNING,
                         "'grounding' is not none, recommended or required: treated as unset",
                         Behavior.LOAD_WITH_WARNING, "V42")
CODES = (INVALID_TRUST, INVALID_GROUNDING)

FIELDS = {
    "trust": (INVALID_TRUST, TRUST_LEVELS, "treated as unreviewed"),
    "grounding": (INVALID_GROUNDING, GROUNDING_POLICIES, "treated as unset"),
}


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    for key, (code, allowed, fallback) in FIELDS.items():
        if not ctx.has(key):
            continue
        value = ctx.value(key)
        if value in allowed:
            continue
        close = difflib.get_close_matches(str(value), allowed, n=1)
        yield ctx.at(code, f"'{key}: {value}' is not one of {', '.join(allowed)}; {fallback}", key,
                     hint=f"Did you mean '{close[0]}'?" if close else f"Use one of: {', '.join(allowed)}.")
