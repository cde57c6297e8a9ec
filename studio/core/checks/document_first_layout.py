"""V20 ``document-first-without-documents`` and V21 ``document-first-without-primary-document``."""

from __future__ import annotations

from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity

DOCUMENT_FIRST_WITHOUT_DOCUMENTS = Code("document-first-without-documents", Severity.WARNING,
                                        "a document-first pack has no documents/ folder", Behavior.LOAD_WITH_WARNING,
                                        "V20",
                                        hint="Add the finished documents under documents/, or change the profile.")
DOCUMENT_FIRST_WITHOUT_PRIMARY_DOCUMENT = Code("document-first-without-primary-document", Severity.WARNING,
                                               "a document-first pack does not set metadata.primaryDocument",
                                               Behavior.LOAD_WITH_WARNING, "V21",
                                               hint="Add 'metadata: {primaryDocument: documents/<main>.md}'.")
CODES = (DOCUMENT_FIRST_WITHOUT_DOCUMENTS, DOCUMENT_FIRST_WITHOUT_PRIMARY_DOCUMENT)


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    if ctx.value("profile") != "document-first":
        return
    if not ctx.has_dir("documents"):
        yield ctx.at(DOCUMENT_FIRST_WITHOUT_DOCUMENTS,
                     "profile is document-first but the pack has no documents/ directory", "profile")
    if not ctx.has("metadata", "primaryDocument"):
        yield ctx.at(DOCUMENT_FIRST_WITHOUT_PRIMARY_DOCUMENT,
                     "profile is document-first but metadata.primaryDocument is not set", "profile")
