"""V24 ``hybrid-without-primary``: a hybrid pack must say which surface is primary, by
``metadata.primaryDocument`` or a context map in the guide (a heading containing "context map"/上下文)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Diagnostic, Severity

CONTEXT_MAP = re.compile(r"^#{1,6}\s.*(context map|上下文地图|上下文|内容地图)", re.IGNORECASE | re.MULTILINE)


def has_context_map(body: str) -> bool:
    return bool(CONTEXT_MAP.search(body))


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    if ctx.value("profile") != "hybrid" or ctx.has("metadata", "primaryDocument"):
        return
    if not has_context_map(ctx.pack.body):
        yield ctx.at("hybrid-without-primary", Severity.WARNING,
                     "profile is hybrid but neither metadata.primaryDocument nor a '## Context map' section "
                     "says which surface is primary", "profile", rule="V24",
                     behavior=Behavior.LOAD_WITH_WARNING,
                     hint="Add a '## Context map' saying which files to read for which task.")
