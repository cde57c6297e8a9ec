"""V37-V39 for ``indexes/source-map.json`` and the discovery eval suites.

``index-schema-violation`` (V37, error): the file breaks its shape (missing field, wrong type, bad enum).
``index-extra-field`` (V38, warning): a key the shape does not define. ``source-map-missing-source`` (V39,
error): a claim whose ``source.path`` is not in the pack (or escapes it; such paths are never opened).
Invalid JSON is V36 (``index_json``).
"""

from __future__ import annotations

from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.checks._json_files import MAX_JSON_BYTES
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity
from studio.core.jsonread import read_pack_json
from studio.core.pack_fs import Status
from studio.core.paths import pointer_status
from studio.core.sourcemap import SOURCE_MAP, SourceMap, read_source_map, schema_findings

SOURCE_MAP_MISSING_SOURCE = Code("source-map-missing-source", Severity.ERROR,
                                 "a source-map claim's source path does not exist in the pack or leads outside it",
                                 Behavior.LOAD, "V39",
                                 hint="Fix the path, restore the source, or mark the claim 'missing'.")
CODES = (SOURCE_MAP_MISSING_SOURCE,)

EVAL_SUITES = ("evals/discovery.train.json", "evals/discovery.validation.json")


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    # The one reader (the resolver and evidence view see the same), through the pack the checks hold open.
    source_map = read_source_map(ctx.pack.root, ctx.fs)
    if source_map.document is not None:
        yield from source_map.diagnostics  # duplicate keys, NaN (unreadable or invalid JSON is V36, index_json)
        yield from source_map.schema_findings()
        yield from _missing_sources(ctx, source_map)
    for rel in EVAL_SUITES:
        # Absent, linked out, unreadable, too large or not JSON: index_json reports it (V36).
        suite = read_pack_json(ctx.fs, rel, MAX_JSON_BYTES, allow_bom=False)
        if suite is not None:
            yield from suite.findings(rel)
            yield from schema_findings(suite, "selection-eval", rel)


def _missing_sources(ctx: CheckContext, source_map: SourceMap) -> Iterator[Diagnostic]:
    assert source_map.document is not None
    claims = source_map.document.value.get("claims") if isinstance(source_map.document.value, dict) else None
    if not isinstance(claims, list):
        return
    for index, claim in enumerate(claims):
        source = claim.get("source") if isinstance(claim, dict) else None
        path = source.get("path") if isinstance(source, dict) else None
        if not isinstance(path, str) or not path:
            continue
        status = pointer_status(ctx.fs, path)  # a name too long for the file system, a NUL byte: outside
        if status is Status.OK:
            continue
        claim_id = claim.get("claim_id", f"#{index}")
        line, column = source_map.document.position(["claims", index, "source", "path"])
        where = "does not exist" if status is Status.MISSING else "points outside the pack"
        yield SOURCE_MAP_MISSING_SOURCE(f"Claim {claim_id}: source '{path}' {where}", SOURCE_MAP, line, column)
