"""Shared by the JSON-file checks: read a pack file bounded and report invalid JSON with its position."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Code, Diagnostic
from studio.core.paths import from_read_result

MAX_JSON_BYTES = 8 * 1024 * 1024
REPORTED_DEPTH = 500
"""Nesting reported as too deep when ``json`` gives up (its limit is the interpreter's recursion limit)."""
_TOKEN = re.compile(r'"|[\[{]|[\]}]|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?')
_STRING_REST = re.compile(r'(?:[^"\\]++|\\.)*+"', re.DOTALL)


def invalid_json_files(ctx: CheckContext, folder: str, names: Iterable[str], code: Code) -> Iterator[Diagnostic]:
    """A ``code`` finding for each known file ``names`` under ``folder/`` that is not valid JSON (nothing when the
    folder is absent; a missing file is not a finding here)."""
    if not ctx.has_dir(folder):
        return
    for name in names:
        found = invalid_json(ctx, ctx.pack.root / folder / name, code)
        if found:
            yield found


def invalid_json(ctx: CheckContext, path: Path, code: Code) -> Diagnostic | None:
    """A diagnostic when ``path`` (inside the pack) is not valid JSON; None when it parses or is absent."""
    rel = ctx.pack.relpath(path)
    if not ctx.fs.exists(rel):
        return None
    data, size, problem = from_read_result(ctx.fs.read(rel, MAX_JSON_BYTES + 1), rel)
    if problem is not None:
        return problem
    assert data is not None
    if size > MAX_JSON_BYTES:
        return code(f"{rel} is {size:,} bytes; too large to check", rel, hint="Split the file.")
    try:
        json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        return code(f"{rel} is not UTF-8 (byte offset {exc.start})", rel, hint="Save it as UTF-8 JSON.")
    except json.JSONDecodeError as exc:
        return code(f"{rel} is not valid JSON: {exc.msg}; the file is excluded", rel, exc.lineno, exc.colno)
    except (RecursionError, ValueError) as exc:  # too deep for the parser; an integer over Python's digit limit
        line, column, what = json_limit(data.decode("utf-8"), exc)
        return code(f"{rel} {what}; the file is excluded", rel, line, column,
                    hint="Flatten the nesting or store the number as a string.")
    return None


def json_limit(text: str, exc: BaseException) -> tuple[int, int, str]:
    """(line, column, what) for JSON that is valid but beyond what ``json.loads`` reads.

    ``exc`` says which limit: a RecursionError is nesting (the position is where it passes
    ``REPORTED_DEPTH``, or its deepest point), anything else an integer with more digits than
    ``sys.get_int_max_str_digits()``. The scan is linear and stops at the first finding.
    """
    deep = isinstance(exc, RecursionError)
    max_digits = sys.get_int_max_str_digits()
    depth = deepest = 0
    found = 0
    pos = 0
    while (match := _TOKEN.search(text, pos)) is not None:
        token, pos = match.group(), match.end()
        if token == '"':
            rest = _STRING_REST.match(text, pos)
            if rest is None:
                break
            pos = rest.end()
        elif token in "[{":
            depth += 1
            if deep and depth > deepest:
                deepest, found = depth, match.start()
                if depth > REPORTED_DEPTH:
                    break
        elif token in "]}":
            depth -= 1
        elif not deep and max_digits and token.lstrip("-").isdigit() and len(token.lstrip("-")) > max_digits:
            found = match.start()
            what = f"holds a {len(token.lstrip('-')):,}-digit number, more than the {max_digits:,} digits read"
            return *_line_column(text, found), what
    if deep:
        return *_line_column(text, found), f"is nested more than {deepest - 1:,} levels deep, too deep to read"
    return 1, 1, f"cannot be read: {exc}"


def _line_column(text: str, offset: int) -> tuple[int, int]:
    line_start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1, offset - line_start + 1
