"""V17 ``missing-profile`` (a v0.5 pack: treated as wiki-first) and V18 ``invalid-profile``."""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity
from studio.core.model import PROFILES

MISSING_PROFILE = Code("missing-profile", Severity.WARNING,
                       "'profile' is missing: the pack is treated as wiki-first (v0.5 compatibility)",
                       Behavior.LOAD_WITH_WARNING, "V17",
                       hint="Declare 'profile: document-first', 'wiki-first' or 'hybrid'.")
INVALID_PROFILE = Code("invalid-profile", Severity.WARNING,
                       "'profile' is not document-first, wiki-first or hybrid: wiki-first is used",
                       Behavior.LOAD_WITH_WARNING, "V18")
CODES = (MISSING_PROFILE, INVALID_PROFILE)


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    if ctx.fm is None:
        return
    value = ctx.value("profile")
    if not ctx.has("profile"):
        yield ctx.at(MISSING_PROFILE, "'profile' is missing; the pack is treated as wiki-first (v0.5 compatibility)",
                     "profile")
    elif value not in PROFILES:
        close = difflib.get_close_matches(str(value), PROFILES, n=1)
        yield ctx.at(INVALID_PROFILE,
                     f"'profile: {value}' is not one of {', '.join(PROFILES)}; falling back to wiki-first", "profile",
                     hint=f"Did you mean '{close[0]}'?" if close else "Use one of: " + ", ".join(PROFILES))
