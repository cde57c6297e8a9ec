"""V27 ``ontology-without-pointer``, V28 ``ontology-pointer-without-directory``, V30
``content-ontology-without-ontology``: the ontology surface and its manifest pointer must agree."""

from __future__ import annotations

from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Diagnostic, Severity


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    if ctx.fm is None:
        return
    has_dir = ctx.has_dir("ontology")
    has_pointer = ctx.has("metadata", "primaryOntology")
    if has_dir and not has_pointer:
        yield ctx.at("ontology-without-pointer", Severity.WARNING,
                     "ontology/ exists but metadata.primaryOntology is not set", "metadata", rule="V27",
                     hint="Add 'primaryOntology: ontology/ontology.json' under metadata.")
    if has_pointer and not has_dir:
        yield ctx.at("ontology-pointer-without-directory", Severity.WARNING,
                     "metadata.primaryOntology is set but there is no ontology/ directory",
                     "metadata", "primaryOntology", rule="V28", hint="Add ontology/ or remove the pointer.")
    if ctx.value("type") == "content-ontology" and not has_dir:
        yield ctx.at("content-ontology-without-ontology", Severity.ERROR,
                     "type is content-ontology but the pack has no ontology/ directory; only the guide loads",
                     "type", rule="V30", behavior=Behavior.LOAD_WITH_WARNING,
                     hint="Add ontology/ontology.json and the graph files, or choose another type.")
