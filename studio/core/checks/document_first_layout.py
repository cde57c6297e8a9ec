"""V20 ``document-first-without-documents`` and V21 ``document-first-without-primary-document``."""

from __future__ import annotations

from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Diagnostic, Severity


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    if ctx.value("profile") != "document-first":
        return
    if not ctx.has_dir("documents"):
        yield ctx.at("document-first-without-documents", Severity.WARNING,
                     "profile is document-first but the pack has no documents/ directory", "profile",
                     rule="V20", behavior=Behavior.LOAD_WITH_WARNING,
                     hint="Add the finished documents under documents/, or change the profile.")
    if not ctx.has("metadata", "primaryDocument"):
        yield ctx.at("document-first-without-primary-document", Severity.WARNING,
                     "profile is document-first but metadata.primaryDocument is not set", "profile",
                     rule="V21", behavior=Behavior.LOAD_WITH_WARNING,
                     hint="Add 'metadata: {primaryDocument: documents/<main>.md}'.")
