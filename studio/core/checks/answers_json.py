"""V35 ``invalid-answers-json``: a known answers file that is not valid JSON is excluded."""

from __future__ import annotations

from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.checks._json_files import invalid_json_files
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity

INVALID_ANSWERS_JSON = Code(
    "invalid-answers-json", Severity.ERROR,
    "a known answers/ file is not valid JSON: it is excluded",
    Behavior.LOAD_WITH_WARNING, "V35", hint="Fix the JSON syntax at the position given.")
CODES = (INVALID_ANSWERS_JSON,)

ANSWERS_FILES = ("questions.json", "answer-blocks.json", "citation-targets.json", "source-surfaces.json",
                 "structured-data.json", "monitoring-runs.json")


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    return invalid_json_files(ctx, "answers", ANSWERS_FILES, INVALID_ANSWERS_JSON)
