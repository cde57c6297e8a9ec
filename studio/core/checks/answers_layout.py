"""V32 ``answers-without-pointer`` and V33 ``answers-pointer-without-directory``."""

from __future__ import annotations

from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.checks._surface_pointer import surface_pointer_findings
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity

ANSWERS_WITHOUT_POINTER = Code("answers-without-pointer", Severity.WARNING,
                               "answers/ exists but metadata.primaryAnswers is not set", Behavior.LOAD, "V32",
                               hint="Add 'primaryAnswers: answers/questions.json' under metadata.")
ANSWERS_POINTER_WITHOUT_DIRECTORY = Code("answers-pointer-without-directory", Severity.WARNING,
                                         "metadata.primaryAnswers is set but the pack has no answers/ folder",
                                         Behavior.LOAD, "V33", hint="Add answers/ or remove the pointer.")
CODES = (ANSWERS_WITHOUT_POINTER, ANSWERS_POINTER_WITHOUT_DIRECTORY)


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    if ctx.fm is None:
        return
    yield from surface_pointer_findings(ctx, "answers", "primaryAnswers", ANSWERS_WITHOUT_POINTER,
                                        ANSWERS_POINTER_WITHOUT_DIRECTORY)
