"""``metadata-not-mapping``: ``metadata`` must be a mapping, or none of its pointers can be read."""

from __future__ import annotations

from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity

METADATA_NOT_MAPPING = Code("metadata-not-mapping", Severity.WARNING, "'metadata' is not a mapping and is ignored",
                            Behavior.LOAD, "", hint="Write metadata as indented 'key: value' lines.")
CODES = (METADATA_NOT_MAPPING,)


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    if ctx.has("metadata") and not isinstance(ctx.value("metadata"), dict):
        yield ctx.at(METADATA_NOT_MAPPING, "'metadata' must be a mapping; it is ignored", "metadata")
