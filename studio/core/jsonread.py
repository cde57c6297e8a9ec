"""Strict JSON reading for the files the studio audits: run records, the source map and eval suites.

``json.loads`` quietly accepts two things RFC 8259 does not settle or allow: an object that names a key twice
(the last value wins in Python, the first in some other readers, so an audit record whose ``decision`` appears
twice says two things) and the constants ``NaN``, ``Infinity`` and ``-Infinity``. ``read_json`` parses with hooks
that notice both, and only then scans the text once more to position them; each becomes a finding
(``json-duplicate-key``, ``json-non-finite-number``) on the exact key or value.

The same single scan gives the offset of every value by its path (``("outputs", 1, "operation")``) and a line
index, so any number of findings on one text are positioned without rescanning it (a record with a million extra
keys used to be rescanned once per key). The scan is iterative: nesting depth costs no recursion.

Failures (not UTF-8, not JSON, nested deeper than the parser's recursion limit, an integer with more digits than
Python reads) come back as a ``JsonFailure`` with a message and a position; callers report it under their own
code (a run record is audit-only, a source map is an index). Nothing here raises on any input.
"""

from __future__ import annotations

import bisect
import contextlib
import json
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from json import decoder as _decoder
from typing import Any, cast

from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity
from studio.core.pack_fs import PackFS, Status

JSON_DUPLICATE_KEY = Code("json-duplicate-key", Severity.WARNING,
                          "a JSON object names the same key twice: readers disagree about which value counts",
                          Behavior.LOAD, "", hint="Keep one of the two entries; the studio reads the last one.")
JSON_NON_FINITE_NUMBER = Code("json-non-finite-number", Severity.WARNING,
                              "NaN, Infinity or -Infinity in a JSON file: not JSON (RFC 8259); strict readers refuse "
                              "the file", Behavior.LOAD, "",
                              hint="Write null, or the value as a string.")
CODES = (JSON_DUPLICATE_KEY, JSON_NON_FINITE_NUMBER)

JsonPath = tuple[str | int, ...]
MAX_POSITIONS = 200_000
"""Values whose offsets are remembered per text; deeper or later ones are positioned at their nearest ancestor."""
MAX_ANOMALIES = 50
"""Duplicate keys and non-finite numbers reported per text; one more finding says how many were left out."""

# The string scanner json itself uses (C-accelerated); typeshed does not declare it.
_scanstring = cast(Callable[[str, int], tuple[str, int]], vars(_decoder)["scanstring"])
_WS = re.compile(r"[ \t\n\r]*+")
_SCALAR = re.compile(r"-?(?:0|[1-9]\d*+)(?:\.\d++)?(?:[eE][-+]?\d++)?|true|false|null|NaN|-?Infinity")
_NON_FINITE = frozenset({"NaN", "Infinity", "-Infinity"})


class LineIndex:
    """1-based line and column of any offset of one text, in O(log lines) after one pass over it."""

    def __init__(self, text: str) -> None:
        starts = [0]
        find = text.find
        at = find("\n")
        while at >= 0:
            starts.append(at + 1)
            at = find("\n", at + 1)
        self._starts = starts

    def line_column(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self._starts, offset)
        return line, offset - self._starts[line - 1] + 1


@dataclass(frozen=True, slots=True)
class Anomaly:
    """A duplicate key or a non-finite number, where it is."""

    kind: str
    """``duplicate-key`` or ``non-finite``."""
    path: JsonPath
    """For a duplicate key, the path of the member (its key last); for a number, the path of the value."""
    offset: int
    token: str = ""


@dataclass(slots=True)
class JsonFailure:
    """Why a text could not be read as JSON, and where (1-based)."""

    message: str
    line: int = 1
    column: int = 1


@dataclass(slots=True)
class JsonText:
    """A parsed JSON text that can position any of its values, and the anomalies the parse noticed."""

    text: str
    value: Any
    anomalies: list[Anomaly] = field(default_factory=list)
    anomaly_count: int = 0
    """How many anomalies there are (``anomalies`` keeps the first ``MAX_ANOMALIES``)."""
    _positions: dict[JsonPath, int] | None = None
    _partial: dict[JsonPath, int] | None = None
    _lines: LineIndex | None = None

    def offset(self, path: JsonPath | list[Any]) -> int:
        """Offset of the value at ``path`` (its key, for object members), else of its nearest positioned ancestor."""
        key = tuple(path)
        if self._positions is None and self._partial is not None and key in self._partial:
            return self._partial[key]
        table = self._table()
        while key and key not in table:
            key = key[:-1]
        return table.get(key, 0)

    def position(self, path: JsonPath | list[Any]) -> tuple[int, int]:
        """1-based (line, column) of the value at ``path`` (see ``offset``)."""
        return self.line_column(self.offset(path))

    def locate(self, paths: Sequence[Sequence[Any]]) -> None:
        """Find the offsets of ``paths`` (and their ancestors) now, scanning only as far as the last of them.

        A few findings on a large text (the first extra keys of a record) then cost a partial scan; later
        ``position`` calls for these paths need no scan at all.
        """
        if self._positions is not None:
            return
        wanted = {tuple(p[:i]) for p in paths for i in range(len(p) + 1)}
        found = scan(self.text, wanted=wanted)
        if found.complete:
            self._positions = found.positions
        else:  # every wanted path was found early: keep them, a later unknown path scans in full
            self._partial = found.positions

    def line_column(self, offset: int) -> tuple[int, int]:
        if self._lines is None:
            self._lines = LineIndex(self.text)
        return self._lines.line_column(offset)

    def findings(self, file: str) -> list[Diagnostic]:
        """One positioned finding per anomaly (at most ``MAX_ANOMALIES``, then one saying how many more)."""
        out: list[Diagnostic] = []
        for anomaly in self.anomalies:
            line, column = self.line_column(anomaly.offset)
            where = _pointer(anomaly.path)
            if anomaly.kind == "duplicate-key":
                out.append(JSON_DUPLICATE_KEY(f"{where} appears more than once in its object; the last value is "
                                              "used", file, line, column))
            else:
                out.append(JSON_NON_FINITE_NUMBER(f"{where} is {anomaly.token}, which JSON does not allow", file,
                                                  line, column))
        hidden = self.anomaly_count - len(self.anomalies)
        if hidden > 0 and self.anomalies:
            code = JSON_DUPLICATE_KEY if self.anomalies[-1].kind == "duplicate-key" else JSON_NON_FINITE_NUMBER
            out.append(code(f"... and {hidden:,} more duplicate keys or non-finite numbers in this file", file,
                            *self.line_column(self.anomalies[-1].offset)))
        return out

    def _table(self) -> dict[JsonPath, int]:
        if self._positions is None:
            self._positions = scan(self.text).positions
        return self._positions




def read_json(data: bytes | str, *, allow_bom: bool = True) -> JsonText | JsonFailure:
    """Parse ``data`` (UTF-8 bytes, or text already decoded); never raises."""
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8-sig" if allow_bom else "utf-8")
        except UnicodeDecodeError as exc:
            return JsonFailure(f"is not UTF-8 text (byte offset {exc.start})")
    else:
        text = data
    seen = {"duplicate": False, "constant": False}

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = dict(items)
        if len(obj) != len(items):
            seen["duplicate"] = True
        return obj

    def constant(name: str) -> float:
        seen["constant"] = True
        return float(name)

    try:
        value = json.loads(text, object_pairs_hook=pairs, parse_constant=constant)
    except json.JSONDecodeError as exc:
        return JsonFailure(f"is not valid JSON: {exc.msg}", exc.lineno, exc.colno)
    except RecursionError:
        result = scan(text, stop_at_depth=sys.getrecursionlimit() // 2)
        line, column = LineIndex(text).line_column(result.deep_at)
        return JsonFailure(f"is nested more than {result.depth - 1:,} levels deep, too deep to read", line, column)
    except ValueError:  # an integer with more digits than sys.get_int_max_str_digits()
        at, digits = _long_integer(text)
        line, column = LineIndex(text).line_column(at)
        return JsonFailure(f"holds a {digits:,}-digit number, more than the {sys.get_int_max_str_digits():,} digits "
                           "Python reads", line, column)
    result_text = JsonText(text, value)
    if seen["duplicate"] or seen["constant"]:
        found = scan(text)
        result_text._positions = found.positions
        result_text.anomalies = found.anomalies[:MAX_ANOMALIES]
        result_text.anomaly_count = len(found.anomalies)
    return result_text


def read_pack_json(fs: PackFS, rel: str, limit: int, *, follow: bool = True,
                   allow_bom: bool = True) -> JsonText | None:
    """``rel`` of the pack read by descriptor and parsed, or None when it is missing, not a regular file inside
    the pack, over ``limit`` bytes, not UTF-8 or not JSON.

    For readers that say nothing about such a file (another check, or the file's own reader, reports it):
    the bounded read and parse they would otherwise each write. ``follow`` and ``allow_bom`` are passed on
    (``PackFS.read``, ``read_json``).
    """
    found = fs.read(rel, limit + 1, follow=follow)
    if found.status is not Status.OK or found.data is None or found.size > limit:
        return None
    parsed = read_json(found.data, allow_bom=allow_bom)
    return parsed if isinstance(parsed, JsonText) else None


@dataclass(slots=True)
class ScanResult:
    positions: dict[JsonPath, int] = field(default_factory=dict)
    anomalies: list[Anomaly] = field(default_factory=list)
    depth: int = 0
    """Deepest nesting reached."""
    deep_at: int = 0
    """Offset where that depth was first reached."""
    complete: bool = False
    """The whole text was scanned (not stopped early at a depth or once every wanted path was found)."""


def scan(text: str, *, stop_at_depth: int | None = None, wanted: set[JsonPath] | None = None) -> ScanResult:
    """Offsets of every value by path, and the anomalies, of a text ``json.loads`` accepted (one pass).

    Stops early past ``stop_at_depth`` or once every path in ``wanted`` has an offset (the set is emptied). On
    anything unexpected (the text is not JSON after all) it returns what it found so far.
    """
    out = ScanResult()
    with contextlib.suppress(ValueError, IndexError):
        out.complete = _scan(text, out, stop_at_depth, wanted)
    return out


def _scan(text: str, out: ScanResult, stop_at_depth: int | None, wanted: set[JsonPath] | None) -> bool:
    positions, anomalies = out.positions, out.anomalies
    ws = _WS.match
    # A frame per open container: [path, keys seen (objects) or None (arrays), next array index].
    stack: list[tuple[JsonPath, set[str] | None, list[int]]] = []
    at = ws(text, 0).end()  # type: ignore[union-attr]
    path: JsonPath = ()
    while True:
        # -- a value starts at ``at``, with ``path`` --
        if len(positions) < MAX_POSITIONS:
            positions.setdefault(path, at)
        if wanted is not None:
            wanted.discard(path)
            if not wanted:
                return False
        char = text[at]
        if char in "{[":
            if len(stack) + 1 > out.depth:
                out.depth, out.deep_at = len(stack) + 1, at
                if stop_at_depth is not None and out.depth > stop_at_depth:
                    return False
            at = ws(text, at + 1).end()  # type: ignore[union-attr]
            close = "}" if char == "{" else "]"
            if text[at] == close:
                at += 1
            else:
                stack.append((path, set() if char == "{" else None, [0]))
                if char == "{":
                    at, path = _member(text, at, stack[-1], positions, anomalies)
                else:
                    path = (*path, 0)
                continue
        elif char == '"':
            at = _scanstring(text, at + 1)[1]
        else:
            match = _SCALAR.match(text, at)
            if match is None:
                raise ValueError(f"unexpected character at {at}")
            if match.group() in _NON_FINITE:
                anomalies.append(Anomaly("non-finite", path, at, match.group()))
            at = match.end()
        # -- the value ended: continue in the enclosing container --
        while True:
            if not stack:
                return True
            at = ws(text, at).end()  # type: ignore[union-attr]
            parent, keys, index = stack[-1]
            if text[at] == ",":
                at = ws(text, at + 1).end()  # type: ignore[union-attr]
                if keys is not None:
                    at, path = _member(text, at, stack[-1], positions, anomalies)
                else:
                    index[0] += 1
                    path = (*parent, index[0])
                break
            stack.pop()  # "}" or "]"
            at += 1


def _member(text: str, at: int, frame: tuple[JsonPath, set[str] | None, list[int]], positions: dict[JsonPath, int],
            anomalies: list[Anomaly]) -> tuple[int, JsonPath]:
    """Read ``"key":`` at ``at``; returns where its value starts and the value's path."""
    parent, keys, _ = frame
    key, end = _scanstring(text, at + 1)
    path = (*parent, key)
    assert keys is not None
    if key in keys:
        anomalies.append(Anomaly("duplicate-key", path, at))
        positions[path] = at  # the last one is the value json keeps
    else:
        keys.add(key)
        if len(positions) < MAX_POSITIONS:
            positions[path] = at  # point at the key: that is what an editor should select
    colon = _WS.match(text, end).end()  # type: ignore[union-attr]
    return _WS.match(text, colon + 1).end(), path  # type: ignore[union-attr]


def _long_integer(text: str) -> tuple[int, int]:
    """Offset and length of the first integer longer than Python reads (outside strings), or (0, 0)."""
    limit = sys.get_int_max_str_digits()
    for match in _numbers_outside_strings(text):
        digits = len(match.group().lstrip("-"))
        if limit and digits > limit:
            return match.start(), digits
    return 0, 0


_NUMBER_OR_QUOTE = re.compile(r'"|-?\d++')


def _numbers_outside_strings(text: str) -> Iterator[re.Match[str]]:
    at = 0
    while (match := _NUMBER_OR_QUOTE.search(text, at)) is not None:
        if match.group() == '"':
            try:
                at = _scanstring(text, match.end())[1]
            except ValueError:
                return
            continue
        yield match
        at = match.end()


def _pointer(path: JsonPath) -> str:
    return "/" + "/".join(str(p) for p in path) if path else "(root)"


__all__ = ["CODES", "JSON_DUPLICATE_KEY", "JSON_NON_FINITE_NUMBER", "Anomaly", "JsonFailure", "JsonText",
           "LineIndex", "read_json", "scan"]
