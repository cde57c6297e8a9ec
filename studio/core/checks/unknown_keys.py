"""V48 ``unknown-key``: top-level keys the standard does not define are ignored (forward compatibility)."""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity

UNKNOWN_KEY = Code("unknown-key", Severity.INFO, "a top-level frontmatter key the standard does not define: ignored",
                   Behavior.LOAD, "V48")
CODES = (UNKNOWN_KEY,)

KNOWN_KEYS = (
    "name", "description", "type", "status", "profile", "version", "language", "license", "maintainers",
    "scope", "trust", "updated", "grounding", "runtime", "metadata", "compatibility",
)


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    for key in ctx.data:
        if key in KNOWN_KEYS:
            continue
        close = difflib.get_close_matches(key, KNOWN_KEYS, n=1)
        hint = f"Did you mean '{close[0]}'?" if close else "Move client-specific data under 'metadata'."
        yield ctx.at(UNKNOWN_KEY, f"Unknown top-level key '{key}' is ignored", key, hint=hint, on_value=False)
