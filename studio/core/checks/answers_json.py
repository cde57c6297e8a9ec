"""V35 ``invalid-answers-json``: a known answers file that is not valid JSON is excluded."""

from __future__ import annotations

from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.checks._json_files import invalid_json
from studio.core.diagnostics import Diagnostic

ANSWERS_FILES = ("questions.json", "answer-blocks.json", "citation-targets.json", "source-surfaces.json",
                 "structured-data.json", "monitoring-runs.json")


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    if not ctx.has_dir("answers"):
        return
    for name in ANSWERS_FILES:
        d = invalid_json(ctx, ctx.pack.root / "answers" / name, "invalid-answers-json", "V35")
        if d:
            yield d
