"""Append one element to a top-level JSON array in a file's text, keeping every existing byte.

A case added to a suite (``evals.authoring.add_case``, and the draft case ``gap`` writes) must leave a curator's
file as they wrote it: indentation, key order, spacing and escapes. This finds the array under ``key`` by a
one-pass scan that knows strings and nesting (the last such key, as ``json.loads`` keeps the last), and inserts
the new element before its closing bracket, indented like the array's first element.
"""

from __future__ import annotations

import json
from typing import Any


class NotAppendable(ValueError):
    """The text is not a JSON object with a list under the key (nothing is changed)."""


def append_to_array(text: str, key: str, element: Any) -> str:
    """``text`` with ``element`` appended to the array at top-level ``key``; raises NotAppendable."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise NotAppendable(f"not valid JSON ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get(key), list):
        raise NotAppendable(f"no '{key}' list at the top level")
    open_at, close_at = _array_span(text, key)
    inner = text[open_at + 1:close_at]
    last = inner.rstrip()
    line_start = text.rfind("\n", 0, open_at) + 1
    base = _indent_of(text[line_start:open_at])
    if last.strip():
        first_line = inner.lstrip("\r\n")
        indent = first_line[:len(first_line) - len(first_line.lstrip(" \t"))] or base + "  "
        body = _dump(element, indent)
        return text[:open_at + 1] + last + ",\n" + indent + body + inner[len(last):] + text[close_at:]
    indent = base + "  "
    return text[:open_at + 1] + "\n" + indent + _dump(element, indent) + "\n" + base + text[close_at:]


def _dump(element: Any, indent: str) -> str:
    return json.dumps(element, ensure_ascii=False, indent=2).replace("\n", "\n" + indent)


def _indent_of(prefix: str) -> str:
    return prefix[:len(prefix) - len(prefix.lstrip(" \t"))]


def _array_span(text: str, key: str) -> tuple[int, int]:
    """Offsets of ``[`` and its matching ``]`` for the last top-level ``key`` (json.loads keeps the last too)."""
    depth = 0
    i, n = 0, len(text)
    pending_key: str | None = None
    span: tuple[int, int] | None = None
    open_at = -1
    while i < n:
        ch = text[i]
        if ch == '"':
            end = _string_end(text, i)
            if depth == 1:
                pending_key = json.loads(text[i:end + 1]) if _is_key(text, end + 1) else None
            i = end + 1
            continue
        if ch in "[{":
            depth += 1
            if ch == "[" and depth == 2 and pending_key == key:
                open_at = i
        elif ch in "]}":
            if ch == "]" and depth == 2 and open_at >= 0:
                span = (open_at, i)
                open_at = -1
            depth -= 1
        elif ch == "," and depth == 1:
            pending_key = None
        i += 1
    if span is None:
        raise NotAppendable(f"no '{key}' list at the top level")
    return span


def _string_end(text: str, start: int) -> int:
    i = start + 1
    while True:
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == '"':
            return i
        i += 1


def _is_key(text: str, after: int) -> bool:
    rest = text[after:after + 64].lstrip()
    return rest.startswith(":")
