"""V27 ``ontology-without-pointer``, V28 ``ontology-pointer-without-directory``, V30
``content-ontology-without-ontology``: the ontology surface and its manifest pointer must agree."""

from __future__ import annotations

from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.checks._surface_pointer import surface_pointer_findings
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity

ONTOLOGY_WITHOUT_POINTER = Code("ontology-without-pointer", Severity.WARNING,
                                "ontology/ exists but metadata.primaryOntology is not set", Behavior.LOAD, "V27",
                                hint="Add 'primaryOntology: ontology/ontology.json' under metadata.")
ONTOLOGY_POINTER_WITHOUT_DIRECTORY = Code("ontology-pointer-without-directory", Severity.WARNING,
                                          "metadata.primaryOntology is set but the pack has no ontology/ folder",
                                          Behavior.LOAD, "V28", hint="Add ontology/ or remove the pointer.")
CONTENT_ONTOLOGY_WITHOUT_ONTOLOGY = Code("content-ontology-without-ontology", Severity.ERROR,
                                         "a content-ontology pack has no ontology/ folder: only the guide loads",
                                         Behavior.LOAD_WITH_WARNING, "V30",
                                         hint="Add ontology/ontology.json and the graph files, or choose another type.")
CODES = (ONTOLOGY_WITHOUT_POINTER, ONTOLOGY_POINTER_WITHOUT_DIRECTORY, CONTENT_ONTOLOGY_WITHOUT_ONTOLOGY)


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    if ctx.fm is None:
        return
    yield from surface_pointer_findings(ctx, "ontology", "primaryOntology", ONTOLOGY_WITHOUT_POINTER,
                                        ONTOLOGY_POINTER_WITHOUT_DIRECTORY)
    if ctx.value("type") == "content-ontology" and not ctx.has_dir("ontology"):
        yield ctx.at(CONTENT_ONTOLOGY_WITHOUT_ONTOLOGY,
                     "type is content-ontology but the pack has no ontology/ directory; only the guide loads", "type")
