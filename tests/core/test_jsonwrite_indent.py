"""The indented writer is ``json.dumps(indent=...)`` character for character, only faster.

``validate --format json`` of 10,000 packs spent a third of its time in ``json``'s pure-Python indenting encoder;
``studio.core.jsonwrite`` writes plain JSON types itself and leaves everything else to ``json``.
"""

from __future__ import annotations

import json
import math
from datetime import date
from enum import Enum, StrEnum
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from studio.core.jsonwrite import _make_inert, dumps

_scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text()
_plain = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner,
                                                                                            max_size=4),
                      max_leaves=30)


def _reference(value: Any, indent: int | None = 2) -> str:
    return json.dumps(value, ensure_ascii=False, indent=indent, allow_nan=False)


@settings(max_examples=300)
@given(_plain, st.sampled_from([2, 4, 0]))
def test_same_text_as_json_dumps_for_plain_values(value: Any, indent: int) -> None:
    # dumps escapes C1 controls and U+2028/9 and replaces lone surrogates after encoding, whichever encoder ran.
    assert dumps(value, indent=indent) == _make_inert(_reference(value, indent), None)


def test_tuples_empty_containers_and_nesting_are_indented_like_json() -> None:
    value = {"a": (1, 2.5, -0.0, 10**30), "b": {}, "c": [], "d": [{"e": None, "f": True}], "g": "ü \"q\" \n"}
    assert dumps(value) == _reference(value)


class _Colour(StrEnum):
    RED = "red"


class _Level(Enum):
    HIGH = 3


def test_values_json_cannot_write_still_take_the_general_path() -> None:
    value = {"day": date(2026, 11, 23), "colour": _Colour.RED, "level": _Level.HIGH, 3: "three",
             "nan": math.nan, "big": 10**5000, "bytes": b"\x00\xff"}
    data = json.loads(dumps(value))
    assert data["day"] == "2026-11-23"
    assert data["colour"] == "red"
    assert data["level"] == 3
    assert data["3"] == "three"
    assert data["nan"] == ".nan"
    assert data["big"].startswith("0x")
    assert data["bytes"] == "AP8="


def test_deep_nesting_falls_back_without_a_crash() -> None:
    value: Any = 1
    for _ in range(300):
        value = [value]
    assert json.loads(dumps(value)) == value
