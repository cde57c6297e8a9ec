"""V10 ``name-directory-mismatch``: the standard says the name should match the directory."""

from __future__ import annotations

from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity

NAME_DIRECTORY_MISMATCH = Code("name-directory-mismatch", Severity.WARNING,
                               "'name' differs from the pack's folder name", Behavior.LOAD, "V10")
CODES = (NAME_DIRECTORY_MISMATCH,)


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    value = ctx.value("name")
    directory = ctx.pack.root.name
    if isinstance(value, str) and value.strip() and value != directory:
        yield ctx.at(NAME_DIRECTORY_MISMATCH, f"'name' is '{value}' but the directory is '{directory}'", "name",
                     hint=f"Rename the directory to '{value}' or set 'name: {directory}'.")
