"""How the text and Markdown renderers spell values: one place, so both outputs say the same thing."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from studio.core.diff.report import ClaimChange, StatusChange

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


def claim_fields(change: ClaimChange, status: StatusChange | None, escape: Callable[[str], str], arrow: str) -> str:
    """The fields a claim changed, its status spelled with both values: ``text, status confirmed -> disputed``."""
    return ", ".join(f"status {escape(status.before)} {arrow} {escape(status.after)}"
                     if name == "status" and status is not None else name for name in change.fields)
