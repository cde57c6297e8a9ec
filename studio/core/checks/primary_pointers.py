"""V22, V23, V29, V34: ``metadata.primary*`` pointers.

``unsafe-pointer`` (V23, error): absolute, ``..`` or leaving the pack through a symlink; the pointer is
ignored and never opened. ``primary-document-missing`` (V22, warning), ``primary-ontology-missing`` (V29,
error) and ``primary-answers-missing`` (V34, error) when a safe pointer names no file.
"""

from __future__ import annotations

from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Diagnostic, Severity
from studio.core.paths import is_file, resolve_inside

POINTERS = {
    "primaryDocument": ("primary-document-missing", "V22", Severity.WARNING),
    "primaryOntology": ("primary-ontology-missing", "V29", Severity.ERROR),
    "primaryAnswers": ("primary-answers-missing", "V34", Severity.ERROR),
}


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    metadata = ctx.value("metadata")
    if not isinstance(metadata, dict):
        return
    for key, (missing_code, rule, severity) in POINTERS.items():
        if key not in metadata:
            continue
        value = metadata[key]
        if not isinstance(value, str) or not value.strip():
            yield ctx.at("unsafe-pointer", Severity.ERROR, f"metadata.{key} must be a pack-relative path",
                         "metadata", key, rule="V23", behavior=Behavior.LOAD_WITH_WARNING,
                         hint="Write a path such as documents/main.md.")
            continue
        target = resolve_inside(ctx.pack.root, value)
        if target is None:
            yield ctx.at("unsafe-pointer", Severity.ERROR,
                         f"metadata.{key} '{value}' points outside the pack; it is ignored and never opened",
                         "metadata", key, rule="V23", behavior=Behavior.LOAD_WITH_WARNING,
                         hint="Use a path relative to the pack root, without '..' or a leading '/'.")
        elif not is_file(target):
            yield ctx.at(missing_code, severity, f"metadata.{key} '{value}' does not exist in the pack",
                         "metadata", key, rule=rule, behavior=Behavior.LOAD_WITH_WARNING,
                         hint="Fix the path or add the file.")
