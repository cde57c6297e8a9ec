"""V36 ``invalid-index-json``: ``indexes/source-map.json`` and the discovery eval suites must be JSON.

Schema checks of those files (V37-V39) are in ``source_map_schema``.
"""

from __future__ import annotations

from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.checks._json_files import invalid_json
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity

INVALID_INDEX_JSON = Code(
    "invalid-index-json", Severity.ERROR,
    "indexes/source-map.json or an evals/discovery suite is not valid JSON: it is excluded",
    Behavior.LOAD_WITH_WARNING, "V36", hint="Fix the JSON syntax at the position given.")
CODES = (INVALID_INDEX_JSON,)

FILES = ("indexes/source-map.json", "evals/discovery.train.json", "evals/discovery.validation.json")


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    for rel in FILES:
        d = invalid_json(ctx, ctx.pack.root / rel, INVALID_INDEX_JSON)
        if d:
            yield d
