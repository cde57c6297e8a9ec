r"""Strict JSON output: everything the studio prints or writes as JSON is RFC 8259 text that encodes as UTF-8.

``json.dumps`` alone prints ``NaN`` and ``Infinity`` (not JSON), raises on ``bytes``, dates and integers past
Python's digit limit, and passes through lone surrogates (what ``os.fsdecode`` and ``surrogateescape`` make of a
non-UTF-8 file name or argument), which then cannot be written as UTF-8 at all. ``dumps`` settles each case the
same way everywhere, and ``to_json_value`` says what it changed where (``read-properties`` and ``to-catalog`` print
that on stderr):

- NaN, Infinity and -Infinity are written as the strings ``".nan"``, ``".inf"`` and ``"-.inf"`` (YAML's spelling:
  these values come from frontmatter);
- bytes (YAML ``!!binary``) as a base64 string; an integer too long for decimal as a ``"0x..."`` hexadecimal
  string; dates and times as ISO 8601 strings; any other value as its ``str()``; tuples and sets as lists;
  mapping keys that are not strings as ``json.dumps`` spells them (``true``, ``3``);
- a lone surrogate becomes U+FFFD (the Unicode replacement character): ``caf\udce9`` (the Latin-1 bytes of
  ``café`` read as a file name) is written ``"caf\ufffd"``. The text view of the same name shows the byte
  (``caf\xe9``, see ``studio.core.terminal``); JSON has no spelling for a byte that is not text;
- DEL, the C1 control characters (U+0080-U+009F, which some terminals obey as escape sequences) and
  U+2028/U+2029 are written as ``\u`` escapes, as ``json.dumps`` already writes C0 controls: the JSON means the
  same to a parser and is inert on a terminal.
"""

from __future__ import annotations

import base64
import json
import math
import re
from collections.abc import Mapping
from dataclasses import Field, fields
from datetime import date, datetime, time
from enum import Enum
from json.encoder import encode_basestring
from pathlib import PurePath
from typing import Any, ClassVar

_SURROGATE = re.compile("[\ud800-\udfff]")
_INERT = re.compile("[\x7f-\x9f\u2028\u2029]")


def dumps(value: Any, *, indent: int | None = 2, notes: list[str] | None = None) -> str:
    """``value`` as strict JSON text (see the module docstring); ``notes`` collects what had to change, and where.

    The common case costs one ``json.dumps`` and one scan of the output; values JSON cannot hold (NaN, long
    integers) make it walk ``value`` first, and so does asking for ``notes`` (they name where each change was).
    """
    if notes is not None:
        value = to_json_value(value, notes)
    try:
        if indent is None:
            text = json.dumps(value, ensure_ascii=False, allow_nan=False, default=lambda v: _default(v, "", None))
        else:
            text = _indented(value, " " * indent)
    except (ValueError, TypeError):  # NaN/Infinity, an integer too long for decimal, a key json cannot write
        text = json.dumps(to_json_value(value), ensure_ascii=False, indent=indent, allow_nan=False)
    return _make_inert(text, notes)


_MAX_PLAIN_DEPTH = 100


class _Unplain(TypeError):
    """A value ``_indented`` leaves to ``json.dumps`` (anything but plain JSON types, or a float JSON cannot hold)."""


def _indented(value: Any, step: str) -> str:
    """``json.dumps(value, ensure_ascii=False, indent=len(step), allow_nan=False)``, character for character.

    ``json.dumps`` indents with its pure-Python encoder (the C one only writes compact text), which took a third of
    a 10,000-pack ``validate --format json``; appending to one list is about twice as fast. Plain JSON types only:
    anything else (a date, bytes, a non-string key, NaN) raises ``_Unplain`` and ``dumps`` takes the general path,
    and so does nesting deeper than ``_MAX_PLAIN_DEPTH`` (where ``json`` would also notice a cycle).
    """
    out: list[str] = []
    append = out.append

    def write(node: Any, margin: str, depth: int) -> None:
        kind = type(node)
        if kind is str:
            append(encode_basestring(node))
        elif node is None:
            append("null")
        elif node is True:
            append("true")
        elif node is False:
            append("false")
        elif kind is int:
            append(int.__repr__(node))
        elif kind is float:
            if not math.isfinite(node):
                raise _Unplain("not finite")
            append(float.__repr__(node))
        elif kind is dict or kind is list or kind is tuple:
            opener, closer = ("{", "}") if kind is dict else ("[", "]")
            if not node:
                append(opener + closer)
                return
            if depth > _MAX_PLAIN_DEPTH:
                raise _Unplain("too deep")
            inner = margin + step
            separator = opener + "\n" + inner
            if kind is dict:
                for key, item in node.items():
                    if type(key) is not str:
                        raise _Unplain("a key that is not a string")
                    append(separator)
                    append(encode_basestring(key))
                    append(": ")
                    if type(item) is str:  # most values: written here, without a call
                        append(encode_basestring(item))
                    elif item is None:
                        append("null")
                    else:
                        write(item, inner, depth + 1)
                    separator = ",\n" + inner
            else:
                for item in node:
                    append(separator)
                    write(item, inner, depth + 1)
                    separator = ",\n" + inner
            append("\n" + margin + closer)
        else:
            raise _Unplain(kind.__name__)

    write(value, "", 0)
    return "".join(out)


def _make_inert(text: str, notes: list[str] | None) -> str:
    # ASCII is known without a scan (CPython marks ASCII strings), but DEL (U+007F) is ASCII too: one memchr-fast
    # search for it, and all-ASCII text without DEL has nothing to replace. Keys and values are in ``text`` alike.
    if text.isascii() and "\x7f" not in text:
        return text
    if _SURROGATE.search(text):
        if notes is not None:
            notes.append("text that is not valid Unicode (a non-UTF-8 name or argument) was written with U+FFFD in "
                         "place of each undecodable byte")
        text = _SURROGATE.sub("\ufffd", text)
    # Outside strings JSON is ASCII, so every such character sits inside a string, where \u escapes mean itself.
    return _INERT.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def to_json_value(value: Any, notes: list[str] | None = None, where: str = "") -> Any:
    """``value`` with everything JSON cannot hold turned into a string, list or JSON-spelled key.

    Recursion follows the value's nesting, which the studio's parsers bound (frontmatter: 32 levels).
    """
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for k, v in value.items():
            key = _key(k)
            out[key] = to_json_value(v, notes, f"{where}.{key}" if where else key)
        return out
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value, key=repr) if isinstance(value, set | frozenset) else value
        return [to_json_value(v, notes, f"{where}[{i}]") for i, v in enumerate(items)]
    if value is None or isinstance(value, str | bool):
        return value
    if isinstance(value, int):
        try:
            str(value)
        except ValueError:  # more digits than sys.get_int_max_str_digits() allows
            _note(notes, where, "an integer too long to write in decimal, written as a hexadecimal string")
            return hex(value)
        return value
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        _note(notes, where, f"{value} has no JSON form, written as a string")
        return ".nan" if math.isnan(value) else ".inf" if value > 0 else "-.inf"
    return _default(value, where, notes)


def _default(value: Any, where: str, notes: list[str] | None) -> Any:
    """A JSON form for a value ``json`` cannot encode by itself."""
    if isinstance(value, bytes | bytearray | memoryview):
        _note(notes, where, "binary data (!!binary), written as a base64 string")
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, Enum):
        return to_json_value(value.value, notes, where)
    if isinstance(value, PurePath):
        return str(value)
    if isinstance(value, set | frozenset | tuple):
        return to_json_value(value, notes, where)
    _note(notes, where, f"a {type(value).__name__} value, written as its text")
    return str(value)


def _key(key: Any) -> str:
    """A mapping key as ``json.dumps`` would write it (``true``, ``3``), for keys it could not write too."""
    if isinstance(key, str):
        return key
    safe = to_json_value(key)
    return safe if isinstance(safe, str) else json.dumps(safe, ensure_ascii=False)


def _note(notes: list[str] | None, where: str, what: str) -> None:
    if notes is not None:
        notes.append(f"{where}: {what}" if where else what)


__all__ = ["dumps", "to_json_value"]


class FieldsJson:
    """Base of a dataclass whose JSON is its fields by name, in the order declared: a tuple or list becomes a list,
    and a value with a ``to_json`` of its own (a nested report row) is written by it.

    One rule for the many report rows that have nothing to add (``diff``, ``coverage``, ``clients`` ...), so a
    field added to one of them reaches its JSON without a second edit.
    """

    __slots__ = ()
    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    def to_json(self) -> dict[str, Any]:
        return {f.name: _field_json(getattr(self, f.name)) for f in fields(self)}


def _field_json(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return [_field_json(item) for item in value]
    to_json = getattr(value, "to_json", None)
    return to_json() if callable(to_json) else value
