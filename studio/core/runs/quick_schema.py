"""A fast yes/no check of a record against one of the studio's schemas, before jsonschema is asked for details.

Checking every run record of every pack in every ``validate`` with jsonschema cost about half of the content
tier (its validator builds an object per keyword per value). Almost every record is valid, so this answers
"valid?" first with a plain recursive function, and ``schemas.check_against_schema`` asks jsonschema only for
the records it rejects (jsonschema then finds and positions every error, as before).

It knows exactly the keywords the schema files use (``type``, ``properties``, ``required``,
``additionalProperties``, ``items``, ``enum``, ``const``, ``minItems``, ``minLength``, ``minimum``, ``maximum``,
``pattern``, ``anyOf``; ``format`` and the
annotations are not assertions, as in jsonschema's default), with draft 2020-12 semantics: an integer is a
number with no fraction (``1.0`` is one), booleans are not numbers, ``enum``/``const`` compare as JSON values
(``1 == 1.0``, ``True != 1``). A schema holding any other keyword is never answered here (``supported``), so
the answer is jsonschema's for every schema it does answer; a property test holds the two together.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

ANNOTATIONS = frozenset({"$schema", "$id", "title", "description", "format", "examples", "default", "$comment"})
ASSERTIONS = frozenset({"type", "properties", "required", "additionalProperties", "items", "enum", "const",
                        "minItems", "minLength", "minimum", "maximum", "pattern", "anyOf"})


def supported(schema: Any) -> bool:
    """True when every keyword of ``schema`` (and of its subschemas) is one this module checks."""
    if isinstance(schema, bool):
        return True
    if not isinstance(schema, dict):
        return False
    for key, value in schema.items():
        if key in ANNOTATIONS:
            continue
        if key not in ASSERTIONS:
            return False
        if key == "properties" and not all(supported(sub) for sub in value.values()):
            return False
        if key in ("additionalProperties", "items") and not supported(value):
            return False
        if key == "anyOf" and not (isinstance(value, list) and all(supported(sub) for sub in value)):
            return False
    return True


def is_valid(data: Any, schema: Any) -> bool:
    """Whether ``data`` satisfies ``schema`` (which must be ``supported``). Recursion as deep as the data."""
    return compile_schema(schema)(data)


Check = Callable[[Any], bool]
_compiled: dict[int, tuple[Any, Check]] = {}


def compile_schema(schema: Any) -> Check:
    """A function answering ``is_valid(data, schema)``, built once per schema object (the schema files are
    loaded once and cached, so each is compiled once): the keyword lookups happen here, not per value."""
    hit = _compiled.get(id(schema))
    if hit is not None and hit[0] is schema:
        return hit[1]
    check = _build(schema)
    _compiled[id(schema)] = (schema, check)  # the schema is kept alive, so its id stays its own
    return check


def _build(schema: Any) -> Check:
    """One closure per schema node, with the node's keywords looked up here once; explicit loops, because a
    generator per list and per object was most of the cost. The usual nodes (an object with properties, an
    array of items, a string with an enum) get one closure that also checks the type."""
    if schema is True:
        return _always
    if schema is False:
        return _never
    keys = set(schema) - ANNOTATIONS
    expected = schema.get("type")
    if keys <= {"type", "properties", "required", "additionalProperties"} and expected == "object":
        extra_schema = schema.get("additionalProperties", True)
        return _members_test(tuple(schema.get("required", ())),
                             {key: _build(sub) for key, sub in schema.get("properties", {}).items()},
                             None if extra_schema is True else _build(extra_schema), strict=True)
    if keys <= {"type", "items", "minItems"} and expected == "array":
        return _items_test(_build(schema.get("items", True)), schema.get("minItems", 0), strict=True)
    if keys <= {"type", "enum", "minLength"} and expected == "string" and all(
            isinstance(option, str) for option in schema.get("enum", ())):
        names = frozenset(schema["enum"]) if "enum" in schema else None
        least = schema.get("minLength", 0)
        return lambda data: isinstance(data, str) and (names is None or data in names) and len(data) >= least
    tests: list[Check] = []
    if expected is not None:
        tests.append(_type_test(expected))
    if "enum" in schema:
        options = list(schema["enum"])
        tests.append(lambda data: any(_same(data, option) for option in options))
    if "const" in schema:
        const = schema["const"]
        tests.append(lambda data: _same(data, const))
    if "minLength" in schema:
        least = schema["minLength"]
        tests.append(lambda data: not isinstance(data, str) or len(data) >= least)
    if "minimum" in schema:
        low = schema["minimum"]
        tests.append(lambda data: not _is_number(data) or data >= low)
    if "maximum" in schema:
        high = schema["maximum"]
        tests.append(lambda data: not _is_number(data) or data <= high)
    if "pattern" in schema:
        pattern = re.compile(schema["pattern"])  # the studio's own schema files: no hostile pattern here
        tests.append(lambda data: not isinstance(data, str) or pattern.search(data) is not None)
    if "anyOf" in schema:
        options = [_build(sub) for sub in schema["anyOf"]]
        tests.append(lambda data: any(option(data) for option in options))
    if "items" in schema or "minItems" in schema:
        tests.append(_items_test(_build(schema.get("items", True)), schema.get("minItems", 0), strict=False))
    if any(key in schema for key in ("properties", "required", "additionalProperties")):
        extra_schema = schema.get("additionalProperties", True)
        tests.append(_members_test(tuple(schema.get("required", ())),
                                   {key: _build(sub) for key, sub in schema.get("properties", {}).items()},
                                   None if extra_schema is True else _build(extra_schema), strict=False))
    if not tests:
        return _always
    if len(tests) == 1:
        return tests[0]

    def every(data: Any) -> bool:
        for test in tests:  # noqa: SIM110 - a loop, not all() over a generator: this runs per value
            if not test(data):
                return False
        return True

    return every


def _always(_data: Any) -> bool:
    return True


def _never(_data: Any) -> bool:
    return False


def _type_test(expected: str | list[str]) -> Check:
    simple = {"string": str, "object": dict, "array": list, "boolean": bool}
    if isinstance(expected, str) and expected in simple:
        kind = simple[expected]
        return lambda data: isinstance(data, kind)
    return lambda data: _has_type(data, expected)


def _items_test(item: Check, fewest: int, *, strict: bool) -> Check:
    """``items``/``minItems``; with ``strict`` a value that is not an array fails (``type: array``)."""
    def items(data: Any) -> bool:
        if not isinstance(data, list):
            return not strict
        if len(data) < fewest:
            return False
        if item is not _always:
            for value in data:
                if not item(value):
                    return False
        return True

    return items


def _members_test(required: tuple[str, ...], properties: dict[str, Check], extra: Check | None, *,
                  strict: bool) -> Check:
    """``properties``/``required``/``additionalProperties``; with ``strict`` a non-object fails."""
    def members(data: Any) -> bool:
        if not isinstance(data, dict):
            return not strict
        for key in required:
            if key not in data:
                return False
        for key, value in data.items():
            sub = properties.get(key)
            if sub is not None:
                if not sub(value):
                    return False
            elif extra is not None and not extra(value):
                return False
        return True

    return members


def _is_number(data: Any) -> bool:
    return isinstance(data, int | float) and not isinstance(data, bool)


def _has_type(data: Any, expected: str | list[str]) -> bool:
    if isinstance(expected, list):
        return any(_has_type(data, one) for one in expected)
    if expected == "string":
        return isinstance(data, str)
    if expected == "object":
        return isinstance(data, dict)
    if expected == "array":
        return isinstance(data, list)
    if expected == "boolean":
        return isinstance(data, bool)
    if expected == "null":
        return data is None
    if isinstance(data, bool):
        return False
    if expected == "number":
        return isinstance(data, int | float)
    if expected == "integer":
        return isinstance(data, int) or (isinstance(data, float) and data.is_integer())
    return False


def _same(a: Any, b: Any) -> bool:
    """JSON equality: numbers by value (``1 == 1.0``), never a boolean equal to a number, containers deeply."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b
