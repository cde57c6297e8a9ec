"""V45 ``version-not-semver``: versions are preferably semantic versions (info only)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity

VERSION_NOT_SEMVER = Code("version-not-semver", Severity.INFO,
                          "'version' is not a semantic version (MAJOR.MINOR.PATCH)", Behavior.LOAD, "V45",
                          hint='Prefer MAJOR.MINOR.PATCH, quoted: version: "1.2.0".')
CODES = (VERSION_NOT_SEMVER,)

SEMVER = re.compile(r"\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?")


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    if not ctx.has("version"):
        return
    value = ctx.value("version")
    if not isinstance(value, str) or not SEMVER.fullmatch(value):
        yield ctx.at(VERSION_NOT_SEMVER, f"'version: {value}' is not a semantic version", "version")
