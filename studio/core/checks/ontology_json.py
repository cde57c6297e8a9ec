"""V31 ``invalid-ontology-json``: a known ontology file that is not valid JSON is excluded."""

from __future__ import annotations

from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.checks._json_files import invalid_json_files
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity

INVALID_ONTOLOGY_JSON = Code(
    "invalid-ontology-json", Severity.ERROR,
    "a known ontology/ file is not valid JSON: it is excluded",
    Behavior.LOAD_WITH_WARNING, "V31", hint="Fix the JSON syntax at the position given.")
CODES = (INVALID_ONTOLOGY_JSON,)

ONTOLOGY_FILES = (
    "ontology.json", "concepts.json", "relations.json", "claims.json", "evidence.json", "constraints.json",
    "coverage.json", "signals.json", "objectives.json", "resources.json", "action-types.json",
    "decision-gates.json", "action-logs.json", "feedback.json",
)


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    return invalid_json_files(ctx, "ontology", ONTOLOGY_FILES, INVALID_ONTOLOGY_JSON)
