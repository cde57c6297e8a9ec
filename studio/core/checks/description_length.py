"""V07 ``description-too-long``: over 1024 characters; metadata is shown but the pack is not activated."""

from __future__ import annotations

from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity

DESCRIPTION_TOO_LONG = Code("description-too-long", Severity.ERROR,
                            "'description' is over 1,024 characters: the pack is hidden from the catalog until fixed",
                            Behavior.HIDDEN, "V07",
                            hint="Shorten it to the discovery contract: what the pack holds and when to use it.")
CODES = (DESCRIPTION_TOO_LONG,)

MAX_DESCRIPTION = 1024


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    value = ctx.value("description")
    if isinstance(value, str) and len(value) > MAX_DESCRIPTION:
        yield ctx.at(DESCRIPTION_TOO_LONG, f"'description' is {len(value)} characters; the limit is {MAX_DESCRIPTION}",
                     "description")
