"""Check parsed JSON against the studio's schema files; every violation becomes a positioned Diagnostic.

The schema files live in ``studio/schemas/`` and were written for the studio from the facts the digest
gives (7.2-7.6). Keys a schema does not define are findings of their own (info), because the standard's
records use ``additionalProperties: false`` but an extra key never makes a record unusable.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity
from studio.core.runs import quick_schema
from studio.core.runs.jsonpos import line_column, value_positions

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

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "schemas"
SCHEMA_NAMES = (
    "compile-run", "context-resolution", "source-map", "selection-eval", "usage-record", "review-record",
)
MAX_REPORTED_ERRORS = 50
"""A record with hundreds of violations is reported by its first fifty; the rest add nothing."""


@dataclass(slots=True)
class SchemaCheck:
    """Outcome of checking one document against one schema."""

    schema: str
    errors: list[Diagnostic] = field(default_factory=list)
    extra_fields: list[str] = field(default_factory=list)
    infos: list[Diagnostic] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.errors

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return self.errors + self.infos


@cache
def load_schema(name: str) -> dict[str, Any]:
    """The parsed schema file ``studio/schemas/<name>.schema.json``."""
    with open(SCHEMA_DIR / f"{name}.schema.json", encoding="utf-8") as fh:
        schema: dict[str, Any] = json.load(fh)
    return schema


@cache
def _quick(name: str) -> bool:
    return quick_schema.supported(load_schema(name))


@cache
def _validator(name: str) -> Draft202012Validator:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(load_schema(name))


def check_against_schema(data: Any, schema: str, *, file: str, text: str = "") -> SchemaCheck:
    """Validate ``data`` against ``schema``; ``text`` (the JSON source) lets findings carry a line/column.

    Never raises on odd input: a structure too deep to walk is reported as one error.
    """
    result = SchemaCheck(schema)
    try:
        if _quick(schema) and quick_schema.is_valid(data, load_schema(schema)):
            return result  # valid: nothing for jsonschema to find (most records; see quick_schema)
        errors = sorted(_validator(schema).iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path])
    except RecursionError:
        result.errors.append(RUN_TOO_DEEP(f"{file} is nested too deeply to check against {schema}", file=file))
        return result
    positions = value_positions(text) if errors and text else {}
    for error in errors:
        if error.validator == "additionalProperties":
            _report_extras(error, result, file, text, positions)
        elif len(result.errors) < MAX_REPORTED_ERRORS:
            line, column = locate(text, list(error.absolute_path), positions)
            result.errors.append(RUN_SCHEMA_VIOLATION(
                f"{_pointer(error.absolute_path)}: {_short(error.message)} ({schema} schema)", file, line, column,
                hint=f"Make the record match the {schema} shape, or rename it if it is another kind of record."))
    return result


def _report_extras(error: ValidationError, result: SchemaCheck, file: str, text: str,
                   positions: dict[tuple[str | int, ...], int]) -> None:
    instance = error.instance if isinstance(error.instance, dict) else {}
    known = set((error.schema or {}).get("properties", {})) if isinstance(error.schema, dict) else set()
    for key in sorted(k for k in instance if k not in known):
        path = [*error.absolute_path, key]
        pointer = _pointer(path)
        result.extra_fields.append(pointer)
        line, column = locate(text, path, positions)
        result.infos.append(RUN_EXTRA_FIELD(f"{pointer} is not part of the {result.schema} shape; shown but not "
                                            "checked", file=file, line=line, column=column))


def _pointer(path: Iterable[Any]) -> str:
    parts = [str(p) for p in path]
    return "/" + "/".join(parts) if parts else "(root)"


def _short(message: str, limit: int = 200) -> str:
    """jsonschema quotes whole instances in messages; a huge array should not flood the output."""
    return message if len(message) <= limit else message[: limit - 1] + "…"


def locate(text: str, path: Sequence[Any], positions: dict[tuple[str | int, ...], int] | None = None,
           ) -> tuple[int, int]:
    """1-based (line, column) of the value at ``path`` in the JSON ``text`` (its key, for members).

    Falls back to the nearest enclosing value that has a known position, then to line 1.
    """
    table = value_positions(text) if positions is None else positions
    key = tuple(path)
    while key and key not in table:
        key = key[:-1]
    return line_column(text, table.get(key, 0))
