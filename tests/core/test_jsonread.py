"""Strict JSON reading: duplicate keys and NaN/Infinity are positioned findings; positions cost one scan per text."""

from __future__ import annotations

import json
import math
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from studio.core.jsonread import JsonFailure, JsonText, read_json, scan

KEYS = st.sampled_from(["a", "b", "decision", "status", "é", "x y", ""])
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.text(max_size=8),
                    st.floats(allow_nan=False, allow_infinity=False))


def _json_with_duplicates(draw: st.DrawFn, depth: int = 0) -> tuple[str, int, int]:
    """A JSON text written by hand, so that keys can repeat; returns (text, duplicates, non-finite numbers)."""
    kind = draw(st.sampled_from(["scalar", "constant", "object", "array"] if depth < 3 else ["scalar", "constant"]))
    if kind == "scalar":
        return json.dumps(draw(SCALARS)), 0, 0
    if kind == "constant":
        return draw(st.sampled_from(["NaN", "Infinity", "-Infinity"])), 0, 1
    if kind == "array":
        items = [_json_with_duplicates(draw, depth + 1) for _ in range(draw(st.integers(0, 3)))]
        return "[" + ", ".join(t for t, _, _ in items) + "]", sum(d for _, d, _ in items), sum(c for _, _, c in items)
    keys = draw(st.lists(KEYS, max_size=5))
    members = [(k, _json_with_duplicates(draw, depth + 1)) for k in keys]
    text = "{" + ", ".join(f"{json.dumps(k)}: {v[0]}" for k, v in members) + "}"
    duplicates = len(keys) - len(set(keys))
    return text, duplicates + sum(v[1] for _, v in members), sum(v[2] for _, v in members)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_every_duplicate_key_and_constant_is_found_at_its_place(data: st.DataObject) -> None:
    text, duplicates, constants = data.draw(st.builds(lambda: None).flatmap(
        lambda _: st.composite(lambda draw: _json_with_duplicates(draw))()))
    parsed = read_json(text)
    assert isinstance(parsed, JsonText)
    kinds = [a.kind for a in parsed.anomalies]
    assert kinds.count("duplicate-key") == duplicates
    assert kinds.count("non-finite") == constants
    for anomaly in parsed.anomalies:
        if anomaly.kind == "duplicate-key":
            assert text[anomaly.offset:].startswith(json.dumps(anomaly.path[-1]))
        else:
            assert text[anomaly.offset:].startswith(anomaly.token)
    findings = parsed.findings("x.json")
    assert len(findings) == len(parsed.anomalies)
    assert {d.code for d in findings} <= {"json-duplicate-key", "json-non-finite-number"}


def test_an_ambiguous_audit_record_is_reported_on_the_second_key() -> None:
    text = '{\n  "decision": "approve",\n  "reason": "ok",\n  "decision": "reject"\n}\n'
    parsed = read_json(text.encode())
    assert isinstance(parsed, JsonText)
    [finding] = parsed.findings("runs/review-1.json")
    assert (finding.code, finding.line, finding.column) == ("json-duplicate-key", 4, 3)
    assert "/decision" in finding.message


def test_nan_and_infinity_are_findings() -> None:
    parsed = read_json('{"score": NaN, "max": [Infinity, -Infinity]}')
    assert isinstance(parsed, JsonText)
    assert math.isnan(parsed.value["score"])
    assert [(d.code, d.column) for d in parsed.findings("x.json")] == [
        ("json-non-finite-number", 11), ("json-non-finite-number", 24), ("json-non-finite-number", 34)]


@pytest.mark.parametrize(("data", "message", "position"), [
    (b"\xff{}", "not UTF-8 text (byte offset 0)", (1, 1)),
    (b'{"a": }', "not valid JSON: Expecting value", (1, 7)),
    (b"[" * 100_000 + b"]" * 100_000, "nested more than", (1, None)),
    (b'{\n "n": -' + b"9" * 5000 + b"}", "5,000-digit number", (2, 7)),
])
def test_failures_say_why_and_where(data: bytes, message: str, position: tuple[int, int | None]) -> None:
    failure = read_json(data)
    assert isinstance(failure, JsonFailure)
    assert message in failure.message
    assert failure.line == position[0]
    if position[1] is not None:
        assert failure.column == position[1]


@given(st.binary(max_size=300))
def test_reading_never_raises(raw: bytes) -> None:
    result = read_json(raw)
    assert isinstance(result, JsonText | JsonFailure)


def test_positions_of_many_values_cost_one_scan() -> None:
    """Positioning every key of a 1,000,000-key object scans the text once (it used to rescan per key)."""
    text = "{\n" + ",\n".join(f'  "k{i}": {i}' for i in range(1_000_000)) + "\n}\n"
    parsed = read_json(text)
    assert isinstance(parsed, JsonText)
    started = time.perf_counter()
    positions = [parsed.position([f"k{i}"]) for i in range(0, 1_000_000, 1000)]
    assert positions[:3] == [(2, 3), (1002, 3), (2002, 3)]
    assert time.perf_counter() - started < 30  # one scan (seconds), not a thousand (minutes)
    assert scan('{"a": [1, {"b": 2}]}').positions[("a", 1, "b")] == 11
