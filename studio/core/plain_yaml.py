"""A fast reader for the plain block YAML nearly every frontmatter is written in.

``key: value`` lines, nested mappings by indentation, ``- item`` lists of scalars, plain / single-quoted /
double-quoted (escape-free) one-line scalars, blank and comment lines. That subset covers almost all
real ``KNOWLEDGE.md`` files, and reading it line by line is about four times faster than composing YAML
nodes with libyaml and walking them, which dominated validation time on large workspaces.

The reader is deliberately a *recogniser*: any line outside the subset (flow collections, block scalars,
anchors, tags, comments after a value, continuation lines, duplicate keys, odd indentation...) makes it
return None, and the caller parses the text with the full YAML loader instead, which also reports every
error. So for the texts it accepts it must give exactly what the full path gives (values, positions,
diagnostics); ``tests/core/test_plain_yaml.py`` checks that against the loader on generated input.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from yaml.resolver import Resolver

from studio.core.model import Position

# One pattern per line: indentation, then a list item, a ``key:`` with or without a value, a comment, or
# nothing. Groups: indent, item text, key, value when it is an escape-free double-quoted string (the most
# common kind, taken here without a second look), any other value text. Item and value text end at their last
# non-blank (``.*[^ ]``, greedy, so one backward step finds it): a lazy ``.*?`` before the trailing blanks
# retried them at every position and took 16 s on a value with 64k blanks inside it.
_LINE = re.compile(
    r"( *+)(?:(?:- +(.*[^ ]|)|([A-Za-z0-9_][A-Za-z0-9_.\-]{0,127}):(?: +(?:\"([^\"\\]*)\"|(.*[^ ]|)))?) *|#.*)?")
_DOUBLE_QUOTED = re.compile(r'"[^"\\]*"')
_SINGLE_QUOTED = re.compile(r"'(?:[^']|'')*'")
# Characters that start something other than a plain scalar (YAML 1.1 indicators). '-', '?' and ':'
# start a plain scalar when a non-space follows; they are handled separately.
_INDICATORS = frozenset(",[]{}#&*!|>'\"%@`")
_IMPLICIT = Resolver.yaml_implicit_resolvers

ScalarHook = Callable[[str, str, tuple[str, ...], int, int], Any]
"""(tag, text, key path, line, column) -> value: turns a non-string plain scalar into its value."""


def parse_plain_block(
    raw: str, first_line: int, on_scalar: ScalarHook, *, max_nodes: int, max_depth: int
) -> tuple[dict[str, Any], dict[tuple[str, ...], Position]] | None:
    """Values and key positions of ``raw`` when it is plain block YAML, else None (use the full loader).

    ``first_line`` is the file line of ``raw``'s first line. ``on_scalar`` converts plain scalars whose
    implicit tag is not ``str`` (numbers, booleans, null, dates) exactly as the full path does.
    """
    if not raw.replace("\n", "").isprintable():
        return None  # tabs, control or format characters: let the full loader judge them
    positions: dict[tuple[str, ...], Position] = {}
    root: dict[str, Any] = {}
    # The open collections, innermost last: (indent, container, key path). The innermost one is also
    # kept in locals because nearly every line lands in it.
    stack: list[tuple[int, dict[str, Any] | list[Any], tuple[str, ...]]] = []
    top: dict[str, Any] | list[Any] = root
    top_path: tuple[str, ...] = ()
    top_indent = -1
    # A key written with no value on its line: its value is a nested block, or null if none follows.
    pending: tuple[int, dict[str, Any], str, tuple[str, ...], int, int, int] | None = None
    nodes = 0
    fullmatch = _LINE.fullmatch
    for offset, line in enumerate(raw.split("\n")):
        match = fullmatch(line)
        if match is None:
            return None
        spaces, item, key, quoted, written = match.groups()
        if item is None and key is None:
            continue  # blank or comment line
        line_no = first_line + offset
        indent = len(spaces)
        nodes += 1
        if nodes > max_nodes:
            return None
        if pending is not None:
            p_indent, p_parent, p_key, p_path, p_line, p_col, p_vcol = pending
            pending = None
            if indent > p_indent or (item is not None and indent == p_indent):
                # A collection opened now holds values one level below it: the loader's builder puts
                # root values at depth 1 and refuses depth max_depth + 1.
                if len(stack) + 1 >= max_depth:
                    return None
                child: dict[str, Any] | list[Any] = [] if item is not None else {}
                p_parent[p_key] = child
                positions[p_path] = Position(p_line, p_col, line_no, indent + 1)
                stack.append((top_indent, top, top_path))
                top_indent, top, top_path = indent, child, p_path
            else:
                positions[p_path] = Position(p_line, p_col, p_line, p_vcol)
        if top_indent < 0:
            top_indent = indent  # the first key sets the indentation of the whole mapping
        while top_indent > indent:
            if not stack:
                return None  # less indented than the first key: not a block mapping any more
            top_indent, top, top_path = stack.pop()
        if key is not None and top_indent == indent and stack and isinstance(top, list):
            top_indent, top, top_path = stack.pop()  # a key at a compact list's indent ends the list
        if top_indent != indent:
            return None
        if item is not None:
            if not item or not isinstance(top, list):
                return None
            value = _scalar(item, top_path, line_no, match.start(2) + 1, on_scalar)
            if value is _NOT_PLAIN:
                return None
            top.append(value)
            continue
        if not isinstance(top, dict) or key in top:
            return None  # a duplicate key: the full path reports it with both lines
        path = (*top_path, key)
        if quoted is not None:
            positions[path] = Position(line_no, indent + 1, line_no, match.start(4))
            top[key] = quoted
            continue
        if not written:
            top[key] = None
            pending = (indent, top, key, path, line_no, indent + 1, match.end(3) + 2)
            continue
        column = match.start(5) + 1
        value = _scalar(written, path, line_no, column, on_scalar)
        if value is _NOT_PLAIN:
            return None
        positions[path] = Position(line_no, indent + 1, line_no, column)
        top[key] = value
    if pending is not None:
        _, _, _, p_path, p_line, p_col, p_vcol = pending
        positions[p_path] = Position(p_line, p_col, p_line, p_vcol)
    if top_indent < 0:
        return None  # nothing but comments: the full path reports the empty frontmatter
    return root, positions


_NOT_PLAIN = object()


def _scalar(text: str, path: tuple[str, ...], line: int, column: int, on_scalar: ScalarHook) -> Any:
    """The value of a one-line scalar, or ``_NOT_PLAIN`` when it is outside the subset."""
    first = text[0]
    if first == '"':
        return text[1:-1] if _DOUBLE_QUOTED.fullmatch(text) else _NOT_PLAIN
    if first == "'":
        return text[1:-1].replace("''", "'") if _SINGLE_QUOTED.fullmatch(text) else _NOT_PLAIN
    if first in _INDICATORS or (first in "-?:" and (len(text) == 1 or text[1] == " ")):
        return _NOT_PLAIN
    if ": " in text or " #" in text or text[-1] == ":":
        return _NOT_PLAIN
    for tag, pattern in _IMPLICIT.get(first, ()):
        if pattern.match(text):
            return on_scalar(tag, text, path, line, column)
    return text


__all__ = ["ScalarHook", "parse_plain_block"]
