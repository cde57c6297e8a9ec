"""V36 ``invalid-index-json``: ``indexes/source-map.json`` and the discovery eval suites must be JSON.

Schema checks of those files (V37-V39) are in ``source_map_schema``.
"""

from __future__ import annotations

from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.checks._json_files import invalid_json
from studio.core.diagnostics import Diagnostic

FILES = ("indexes/source-map.json", "evals/discovery.train.json", "evals/discovery.validation.json")


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    for rel in FILES:
        d = invalid_json(ctx, ctx.pack.root / rel, "invalid-index-json", "V36")
        if d:
            yield d
