"""V22, V23, V29, V34: ``metadata.primary*`` pointers.

``unsafe-pointer`` (V23, error): absolute, ``..`` or leaving the pack through a symlink; the pointer is
ignored and never opened. ``primary-document-missing`` (V22, warning), ``primary-ontology-missing`` (V29,
error) and ``primary-answers-missing`` (V34, error) when a safe pointer names no file. Looked up by descriptor
from the pack root (``pack_fs``, shared with the context-map check): a symlink is followed only while it stays in
the pack, so a swapped folder cannot make the check look outside.
"""

from __future__ import annotations

import stat
from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity
from studio.core.pack_fs import Status
from studio.core.paths import is_unsafe_pointer

UNSAFE_POINTER = Code(
    "unsafe-pointer", Severity.ERROR,
    "a metadata.primary* path is absolute, uses '..' or leads outside the pack: it is ignored, never opened",
    Behavior.LOAD_WITH_WARNING, "V23", hint="Write a path such as documents/main.md.")
PRIMARY_DOCUMENT_MISSING = Code("primary-document-missing", Severity.WARNING,
                                "metadata.primaryDocument names a file that does not exist",
                                Behavior.LOAD_WITH_WARNING, "V22", hint="Fix the path or add the file.")
PRIMARY_ONTOLOGY_MISSING = Code("primary-ontology-missing", Severity.ERROR,
                                "metadata.primaryOntology names a file that does not exist: the pointer is ignored",
                                Behavior.LOAD_WITH_WARNING, "V29", hint="Fix the path or add the file.")
PRIMARY_ANSWERS_MISSING = Code("primary-answers-missing", Severity.ERROR,
                               "metadata.primaryAnswers names a file that does not exist: the pointer is ignored",
                               Behavior.LOAD_WITH_WARNING, "V34", hint="Fix the path or add the file.")
CODES = (UNSAFE_POINTER, PRIMARY_DOCUMENT_MISSING, PRIMARY_ONTOLOGY_MISSING, PRIMARY_ANSWERS_MISSING)

POINTERS = {
    "primaryDocument": PRIMARY_DOCUMENT_MISSING,
    "primaryOntology": PRIMARY_ONTOLOGY_MISSING,
    "primaryAnswers": PRIMARY_ANSWERS_MISSING,
}


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    metadata = ctx.value("metadata")
    if not isinstance(metadata, dict):
        return
    for key, missing_code in POINTERS.items():
        if key not in metadata:
            continue
        value = metadata[key]
        if not isinstance(value, str) or not value.strip():
            yield ctx.at(UNSAFE_POINTER, f"metadata.{key} must be a pack-relative path", "metadata", key)
            continue
        status, mode = Status.OUTSIDE, 0
        if not is_unsafe_pointer(value):
            status, _resolved, mode = ctx.fs.kind(value.split("#", 1)[0])
        if status is Status.OUTSIDE:
            yield ctx.at(UNSAFE_POINTER,
                         f"metadata.{key} '{value}' points outside the pack; it is ignored and never opened",
                         "metadata", key, hint="Use a path relative to the pack root, without '..' or a leading '/'.")
        elif status is not Status.OK or not stat.S_ISREG(mode):
            yield ctx.at(missing_code, f"metadata.{key} '{value}' does not exist in the pack", "metadata", key)
