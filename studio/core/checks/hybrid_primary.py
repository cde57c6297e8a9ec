"""V24 ``hybrid-without-primary``: a hybrid pack must say which surface is primary, by
``metadata.primaryDocument`` or a context map in the guide (a heading containing "context map"/上下文)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity

HYBRID_WITHOUT_PRIMARY = Code("hybrid-without-primary", Severity.WARNING,
                              "a hybrid pack names no primary document and has no context map",
                              Behavior.LOAD_WITH_WARNING, "V24",
                              hint="Add a '## Context map' saying which files to read for which task.")
CODES = (HYBRID_WITHOUT_PRIMARY,)

CONTEXT_MAP = re.compile(r"^#{1,6}\s.*(context map|上下文地图|上下文|内容地图)", re.IGNORECASE | re.MULTILINE)


def has_context_map(body: str) -> bool:
    return bool(CONTEXT_MAP.search(body))


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    if ctx.value("profile") != "hybrid" or ctx.has("metadata", "primaryDocument"):
        return
    if not has_context_map(ctx.pack.body):
        yield ctx.at(HYBRID_WITHOUT_PRIMARY, "profile is hybrid but neither metadata.primaryDocument nor a "
                     "'## Context map' section says which surface is primary", "profile")
