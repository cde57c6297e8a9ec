"""V41 ``invalid-trust`` (treated as unreviewed) and V42 ``invalid-grounding`` (treated as unset)."""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Diagnostic, Severity
from studio.core.model import GROUNDING_POLICIES, TRUST_LEVELS

FIELDS = {
    "trust": ("invalid-trust", "V41", TRUST_LEVELS, "treated as unreviewed"),
    "grounding": ("invalid-grounding", "V42", GROUNDING_POLICIES, "treated as unset"),
}


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    for key, (code, rule, allowed, fallback) in FIELDS.items():
        if not ctx.has(key):
            continue
        value = ctx.value(key)
        if value in allowed:
            continue
        close = difflib.get_close_matches(str(value), allowed, n=1)
        yield ctx.at(code, Severity.WARNING, f"'{key}: {value}' is not one of {', '.join(allowed)}; {fallback}",
                     key, rule=rule, behavior=Behavior.LOAD_WITH_WARNING,
                     hint=f"Did you mean '{close[0]}'?" if close else f"Use one of: {', '.join(allowed)}.")
