"""Frontmatter keys added, removed or changed between two versions; ``status`` and ``trust`` come first.

Nested mappings are compared key by key (``metadata.primaryDocument``) down to ``MAX_DEPTH`` levels; lists and
scalars are compared whole. Values are given as JSON can hold them (a YAML date becomes its ISO text).
"""

from __future__ import annotations

import datetime
from typing import Any

from studio.core.diff.report import FrontmatterChange
from studio.core.model import Pack

FIRST = ("status", "trust")
MAX_DEPTH = 4
MAX_KEYS = 2_000


def diff_frontmatter(old: Pack, new: Pack) -> list[FrontmatterChange]:
    before, after = _flat(old), _flat(new)
    changes = [FrontmatterChange(key, before.get(key), after.get(key))
               for key in before.keys() | after.keys() if before.get(key, _MISSING) != after.get(key, _MISSING)]
    return sorted(changes, key=lambda c: (FIRST.index(c.key) if c.key in FIRST else len(FIRST), c.key))


_MISSING = object()


def _flat(pack: Pack) -> dict[str, Any]:
    frontmatter = pack.frontmatter
    out: dict[str, Any] = {}
    if frontmatter is not None and isinstance(frontmatter.data, dict):
        _walk(frontmatter.data, "", 0, out)
    return out


def _walk(data: dict[Any, Any], prefix: str, depth: int, out: dict[str, Any]) -> None:
    for key, value in data.items():
        if len(out) >= MAX_KEYS:
            return
        name = f"{prefix}{key}"
        if isinstance(value, dict) and value and depth + 1 < MAX_DEPTH:
            _walk(value, name + ".", depth + 1, out)
        else:
            out[name] = _plain(value, 0)


def _plain(value: Any, depth: int) -> Any:
    """``value`` as JSON holds it (bounded: YAML anchors can make deep structures)."""
    if isinstance(value, str | bool | int | float) or value is None:
        return value
    if isinstance(value, datetime.date | datetime.datetime):
        return value.isoformat()
    if depth > MAX_DEPTH * 4:
        return "…"
    if isinstance(value, dict):
        return {str(k): _plain(v, depth + 1) for k, v in list(value.items())[:MAX_KEYS]}
    if isinstance(value, list | tuple):
        return [_plain(v, depth + 1) for v in value[:MAX_KEYS]]
    return str(value)
