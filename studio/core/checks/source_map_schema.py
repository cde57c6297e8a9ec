"""V37-V39 for ``indexes/source-map.json`` and the discovery eval suites.

``index-schema-violation`` (V37, error): the file breaks its shape (missing field, wrong type, bad enum).
``index-extra-field`` (V38, warning): a key the shape does not define. ``source-map-missing-source`` (V39,
error): a claim whose ``source.path`` is not in the pack (or escapes it; such paths are never opened).
Invalid JSON is V36 (``index_json``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.checks._json_files import MAX_JSON_BYTES
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity
from studio.core.paths import read_bounded, resolve_inside
from studio.core.runs.schemas import check_against_schema, locate

SOURCE_MAP_MISSING_SOURCE = Code("source-map-missing-source", Severity.ERROR,
                                 "a source-map claim's source path does not exist in the pack or leads outside it",
                                 Behavior.LOAD, "V39",
                                 hint="Fix the path, restore the source, or mark the claim 'missing'.")
INDEX_SCHEMA_VIOLATION = Code("index-schema-violation", Severity.ERROR,
                              "the source map or a discovery suite does not match its schema",
                              Behavior.LOAD_WITH_WARNING, "V37")
INDEX_EXTRA_FIELD = Code("index-extra-field", Severity.WARNING,
                         "the source map or a discovery suite has a key its schema does not allow", Behavior.LOAD,
                         "V38")
CODES = (INDEX_SCHEMA_VIOLATION, INDEX_EXTRA_FIELD, SOURCE_MAP_MISSING_SOURCE)

FILES = {
    "indexes/source-map.json": "source-map",
    "evals/discovery.train.json": "selection-eval",
    "evals/discovery.validation.json": "selection-eval",
}


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    for rel, schema in FILES.items():
        path = ctx.pack.root / rel
        if not path.is_file():
            continue
        data, size, problem = read_bounded(path, MAX_JSON_BYTES + 1, root=ctx.pack.root)
        if problem is not None or data is None or size > MAX_JSON_BYTES:
            continue  # reported by index_json
        try:
            text = data.decode("utf-8")
            doc = json.loads(text)
        except (RecursionError, ValueError):  # not UTF-8, not JSON, too deep, a number over the digit limit
            continue  # V36
        result = check_against_schema(doc, schema, file=rel, text=text)
        for d in result.errors:
            yield INDEX_SCHEMA_VIOLATION(d.message, d.file, d.line, d.column, hint=d.hint)
        for d in result.infos:
            yield INDEX_EXTRA_FIELD(d.message, d.file, d.line, d.column, hint=d.hint)
        if schema == "source-map":
            yield from _missing_sources(ctx, rel, doc, text)


def _missing_sources(ctx: CheckContext, rel: str, doc: object, text: str) -> Iterator[Diagnostic]:
    claims = doc.get("claims") if isinstance(doc, dict) else None
    if not isinstance(claims, list):
        return
    for index, claim in enumerate(claims):
        source = claim.get("source") if isinstance(claim, dict) else None
        path = source.get("path") if isinstance(source, dict) else None
        if not isinstance(path, str) or not path:
            continue
        try:
            target = resolve_inside(ctx.pack.root, path)
            if target is not None and target.is_file():
                continue
        except (OSError, ValueError):  # a name too long for the file system, a NUL byte: never a pack file
            target = None
        claim_id = claim.get("claim_id", f"#{index}")
        line, column = locate(text, ["claims", index, "source", "path"])
        where = "points outside the pack" if target is None else "does not exist"
        yield SOURCE_MAP_MISSING_SOURCE(f"Claim {claim_id}: source '{path}' {where}", rel, line, column)
