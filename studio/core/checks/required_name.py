"""V08 ``missing-name``: a pack without a name has no stable selection key and is quarantined."""

from __future__ import annotations

from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity

MISSING_NAME = Code("missing-name", Severity.ERROR,
                    "'name' is missing or not a non-empty string: the pack has no stable selection key",
                    Behavior.QUARANTINE, "V08")
CODES = (MISSING_NAME,)


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    if ctx.fm is None:
        return
    value = ctx.value("name")
    if isinstance(value, str) and value.strip():
        return
    problem = "is missing" if not ctx.has("name") else "must be a non-empty string"
    yield ctx.at(MISSING_NAME, f"'name' {problem}", "name",
                 hint=f"Add 'name: {ctx.pack.root.name}' (the directory name).")
