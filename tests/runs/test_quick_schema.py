"""The quick schema check gives jsonschema's answer for every record, on every schema the studio ships."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from studio.core.runs import quick_schema
from studio.core.runs.schemas import SCHEMA_NAMES, load_schema

json_scalars = st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from([0.0, 1.0, 1.5, -2.0]) | \
    st.text(max_size=4)
any_json = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=3) |
                        st.dictionaries(st.text(max_size=4), inner, max_size=3), max_leaves=8)


def instances(schema: Any, depth: int = 0) -> st.SearchStrategy[Any]:
    """Values near the shape ``schema`` describes (each level may be replaced by any JSON at all)."""
    if not isinstance(schema, dict) or depth > 4:
        return any_json
    options: list[st.SearchStrategy[Any]] = [any_json]
    for key in ("enum", "const"):
        if key in schema:
            values = schema[key] if key == "enum" else [schema[key]]
            options.append(st.sampled_from(values))
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    if "object" in kinds or "properties" in schema:
        props = schema.get("properties", {})
        members = {k: instances(v, depth + 1) for k, v in props.items()}
        options.append(st.fixed_dictionaries({}, optional=members).flatmap(
            lambda d: st.dictionaries(st.sampled_from(["extra", "x-client"]), json_scalars, max_size=1).map(
                lambda extra: {**d, **extra})))
        required = {k: members[k] for k in schema.get("required", []) if k in members}
        options.append(st.fixed_dictionaries(required, optional={k: v for k, v in members.items()
                                                                  if k not in required}))
    if "array" in kinds or "items" in schema:
        options.append(st.lists(instances(schema.get("items", {}), depth + 1), max_size=3))
    if "string" in kinds:
        options.append(st.text(max_size=3))
    if "integer" in kinds or "number" in kinds:
        options.append(st.integers(-2, 5) | st.sampled_from([2.0, 2.5, True]))
    return st.one_of(options)


def valid(schema: Any, depth: int = 0) -> st.SearchStrategy[Any]:
    """Values that satisfy ``schema`` (built from it), so the 'valid' answer is exercised too."""
    if schema is True or not isinstance(schema, dict):
        return json_scalars
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type", "object" if "properties" in schema else "string")
    kind = kind[0] if isinstance(kind, list) else kind
    if kind == "object":
        props = schema.get("properties", {})
        required = [k for k in schema.get("required", []) if k in props]
        return st.fixed_dictionaries({k: valid(props[k], depth + 1) for k in required},
                                     optional={k: valid(v, depth + 1) for k, v in props.items()
                                               if k not in required and depth < 4})
    if kind == "array":
        return st.lists(valid(schema.get("items", True), depth + 1), min_size=schema.get("minItems", 0), max_size=3)
    if kind == "integer":
        return st.integers(0, 9) | st.just(3.0)
    if kind == "number":
        return st.integers(0, 9) | st.floats(0, 9)
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    return st.text(min_size=schema.get("minLength", 0), max_size=4)


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_every_shipped_schema_is_answered_by_the_quick_check(name: str) -> None:
    assert quick_schema.supported(load_schema(name))


@pytest.mark.parametrize("name", SCHEMA_NAMES)
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_quick_answer_is_jsonschemas_answer(name: str, data: st.DataObject) -> None:
    schema = load_schema(name)
    record = data.draw(valid(schema) | instances(schema))
    assert quick_schema.is_valid(record, schema) == Draft202012Validator(schema).is_valid(record), record


def test_a_schema_with_other_keywords_is_left_to_jsonschema() -> None:
    assert not quick_schema.supported({"type": "object", "properties": {"a": {"oneOf": [{"type": "string"}]}}})
    assert not quick_schema.supported({"$ref": "#/x"})
