"""V07 ``description-too-long``: over 1024 characters; metadata is shown but the pack is not activated."""

from __future__ import annotations

from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Diagnostic, Severity

MAX_DESCRIPTION = 1024


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    value = ctx.value("description")
    if isinstance(value, str) and len(value) > MAX_DESCRIPTION:
        yield ctx.at("description-too-long", Severity.ERROR,
                     f"'description' is {len(value)} characters; the limit is {MAX_DESCRIPTION}",
                     "description", rule="V07", behavior=Behavior.HIDDEN,
                     hint="Shorten it to the discovery contract: what the pack holds and when to use it.")
