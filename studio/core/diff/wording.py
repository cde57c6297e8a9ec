"""How the text and Markdown renderers spell values: one place, so both outputs say the same thing."""

from __future__ import annotations

import json
from typing import Any

MAX_VALUE_CHARS = 120
"""A frontmatter value is cut here (the JSON output has it whole)."""


def passed(value: bool | None) -> str:
    return "absent" if value is None else "pass" if value else "fail"


def measure(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def count(value: int | None) -> str:
    return "-" if value is None else str(value)


def short_json(value: Any) -> str:
    """``value`` as compact JSON text, cut at ``MAX_VALUE_CHARS``; not escaped for any output yet."""
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text[:MAX_VALUE_CHARS] + "…" if len(text) > MAX_VALUE_CHARS else text
