"""Check parsed JSON against the studio's schema files; every violation becomes a positioned Diagnostic.

The schema files live in ``studio/schemas/`` (found through ``studio.core.resources``) and were written for the
studio from the facts the digest gives (7.2-7.6). Keys a schema does not define are findings of their own (info),
because the standard's records use ``additionalProperties: false`` but an extra key never makes a record unusable.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity
from studio.core.jsonread import JsonText
from studio.core.resources import missing_resource, schemas_dir
from studio.core.runs import quick_schema
from studio.core.terminal import shortened

RUN_TOO_DEEP = Code("run-too-deep", Severity.ERROR, "a run record is nested too deeply to check against its schema",
                    Behavior.LOAD, "", hint="Records are flat audit data; flatten the structure.")
RUN_SCHEMA_VIOLATION = Code("run-schema-violation", Severity.ERROR,
                            "a run record does not match the schema of its kind", Behavior.LOAD, "V40")
RUN_EXTRA_FIELD = Code("run-extra-field", Severity.INFO,
                       "a run record has a key its schema does not define (strict readers flag it)", Behavior.LOAD,
                       "V38",
                       hint="Strict readers (the reference CLI) flag extra keys; move client data under a "
                       "namespaced key.")
CODES = (RUN_TOO_DEEP, RUN_SCHEMA_VIOLATION, RUN_EXTRA_FIELD)

if TYPE_CHECKING:  # jsonschema takes ~100 ms to import; only the content checks and runs/ need it
    from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
    from jsonschema.exceptions import ValidationError  # type: ignore[import-untyped]

SCHEMA_NAMES = (
    "compile-run", "context-resolution", "source-map", "selection-eval", "usage-record", "review-record",
    "feedback-record", "dispute-record",
    "answer-quality", "discovery-eval-result", "context-eval-result",
)
MAX_REPORTED_ERRORS = 50
"""A record with hundreds of violations is reported by its first fifty; the rest add nothing."""
MAX_EXTRA_FINDINGS = 20
"""Extra keys reported one by one per document; one more finding counts the rest."""
MAX_LISTED_EXTRA = 200
"""Extra keys kept in ``SchemaCheck.extra_fields`` (and so in a record's ``extra_fields``); ``extra_count`` has all."""
MAX_MESSAGE_CHARS = 200
"""A schema message is cut to this: jsonschema quotes whole instances in messages, and a huge array should not
flood the output."""


@dataclass(slots=True)
class SchemaCheck:
    """Outcome of checking one document against one schema."""

    schema: str
    errors: list[Diagnostic] = field(default_factory=list)
    extra_fields: list[str] = field(default_factory=list)
    extra_count: int = 0
    """How many keys the shape does not define (``extra_fields`` lists at most ``MAX_LISTED_EXTRA``)."""
    infos: list[Diagnostic] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.errors

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return self.errors + self.infos


def schema_path(name: str) -> Path:
    return schemas_dir() / f"{name}.schema.json"


@cache
def load_schema(name: str) -> dict[str, Any]:
    """The parsed schema file ``studio/schemas/<name>.schema.json``."""
    with open(schema_path(name), encoding="utf-8") as fh:
        schema: dict[str, Any] = json.load(fh)
    return schema


@cache
def _quick(name: str) -> bool:
    return quick_schema.supported(load_schema(name))


@cache
def _validator(name: str) -> Draft202012Validator:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(load_schema(name))


@dataclass(frozen=True, slots=True)
class SchemaError:
    """One violation, independent of how a caller reports it."""

    path: tuple[str | int, ...]
    """Where in the document (keys and indexes)."""
    message: str
    validator: str
    """The JSON Schema keyword that failed (``required``, ``enum``, ``additionalProperties`` ...)."""
    extra_keys: tuple[str, ...] = ()
    """For ``additionalProperties``: the keys the schema does not define."""


def schema_errors(data: Any, schema: str) -> list[SchemaError]:
    """Every violation of ``schema`` in ``data``, sorted by path. Raises RecursionError on absurd nesting."""
    out = []
    for error in _validator(schema).iter_errors(data):
        extras: tuple[str, ...] = ()
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            known = set((error.schema or {}).get("properties", {})) if isinstance(error.schema, dict) else set()
            extras = tuple(sorted(str(k) for k in error.instance if k not in known))
        message = shortened(error.message, MAX_MESSAGE_CHARS)
        out.append(SchemaError(tuple(error.absolute_path), message, str(error.validator), extras))
    return sorted(out, key=lambda e: [str(p) for p in e.path])


def check_against_schema(data: Any, schema: str, *, file: str, text: str = "", source: JsonText | None = None,
                         ) -> SchemaCheck:
    """Validate ``data`` against ``schema``; ``source`` (or ``text``, the JSON source) positions the findings.

    Never raises on odd input: a structure too deep to walk is reported as one error. Keys the shape does not
    define are reported one by one up to ``MAX_EXTRA_FINDINGS`` per document, then by one finding that counts
    the rest (a record with a million extra keys once made a million findings, each found by rescanning the text).
    """
    result = SchemaCheck(schema)
    try:
        validator = _validator(schema)
    except (OSError, ValueError) as exc:  # a damaged installation: say which file is missing, check nothing
        # Not an error of the record: nothing is known about it. The warning still shows with the record's findings.
        result.infos.append(missing_resource(schema_path(schema), exc.__class__.__name__, file=file))
        return result
    try:
        if _quick(schema) and quick_schema.is_valid(data, load_schema(schema)):
            return result  # valid: nothing for jsonschema to find (most records; see quick_schema)
        errors = sorted(validator.iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path])
    except RecursionError:
        result.errors.append(RUN_TOO_DEEP(f"{file} is nested too deeply to check against {schema}", file=file))
        return result
    if not errors:
        return result
    where = source if source is not None else JsonText(text, data) if text else None
    violations = [e for e in errors if e.validator != "additionalProperties"][:MAX_REPORTED_ERRORS]
    extras: list[list[Any]] = []
    for error in errors:
        if error.validator == "additionalProperties":
            result.extra_count += _extra_keys(error, extras, MAX_LISTED_EXTRA - len(extras))
    if where is not None:  # position every finding in one (partial) scan of the text
        where.locate([list(e.absolute_path) for e in violations] + extras[:MAX_EXTRA_FINDINGS + 1])
    for error in violations:
        line, column = where.position(list(error.absolute_path)) if where else (1, 1)
        result.errors.append(RUN_SCHEMA_VIOLATION(
            f"{_pointer(error.absolute_path)}: {shortened(error.message, MAX_MESSAGE_CHARS)} ({schema} schema)",
            file, line, column,
            hint=f"Make the record match the {schema} shape, or rename it if it is another kind of record."))
    result.extra_fields = [_pointer(path) for path in extras]
    for path in extras[:MAX_EXTRA_FINDINGS]:
        line, column = where.position(path) if where else (1, 1)
        result.infos.append(RUN_EXTRA_FIELD(f"{_pointer(path)} is not part of the {schema} shape; shown but not "
                                            "checked", file=file, line=line, column=column))
    if result.extra_count > MAX_EXTRA_FINDINGS:
        path = extras[MAX_EXTRA_FINDINGS] if len(extras) > MAX_EXTRA_FINDINGS else extras[-1]
        line, column = where.position(path) if where else (1, 1)
        result.infos.append(RUN_EXTRA_FIELD(
            f"... and {result.extra_count - MAX_EXTRA_FINDINGS:,} more keys the {schema} shape does not define",
            file=file, line=line, column=column))
    return result


def _extra_keys(error: ValidationError, out: list[list[Any]], room: int) -> int:
    """Append the paths of up to ``room`` keys ``error`` is about (in key order) to ``out``; return how many."""
    instance = error.instance if isinstance(error.instance, dict) else {}
    known = set((error.schema or {}).get("properties", {})) if isinstance(error.schema, dict) else set()
    keys = [k for k in instance if k not in known]
    if room > 0:
        out.extend([*error.absolute_path, key] for key in sorted(keys)[:room])
    return len(keys)


def _pointer(path: Iterable[Any]) -> str:
    parts = [str(p) for p in path]
    return "/" + "/".join(parts) if parts else "(root)"


def locate(text: str, path: Sequence[Any]) -> tuple[int, int]:
    """1-based (line, column) of the value at ``path`` in the JSON ``text`` (its key, for members).

    Falls back to the nearest enclosing value that has a known position, then to line 1. Scans the text once per
    call: to position several values of one text, keep a ``jsonread.JsonText`` and ask it.
    """
    return JsonText(text, None).position(list(path))
