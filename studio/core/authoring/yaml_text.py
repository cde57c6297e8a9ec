"""Writing one frontmatter value as YAML text that reads back as exactly that string."""

from __future__ import annotations

import re

_PLAIN_SAFE = re.compile(r"[A-Za-z\u00a0-\ud7ff\ue000-\ufffd][^\n\r\t#:\"'`]*")
_SPECIAL = re.compile(
    r"(?i:y|yes|n|no|true|false|on|off|null|~)$|[-+]?[0-9._]|\d{4}-\d\d?-\d\d?")
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r", "\0": "\\0"}


def yaml_string(value: str) -> str:
    """``value`` as a YAML scalar: plain when that reads back unchanged, else double-quoted with escapes.

    Plain only for text that cannot be read as anything else (no ``: `` or `` #``, no leading indicator,
    not a number, boolean, null or date, no surrounding blanks); everything else is double-quoted, with
    every character YAML does not print escaped, so the value always reads back as the same string.
    """
    if (value.isprintable() and _PLAIN_SAFE.fullmatch(value) and not _SPECIAL.match(value)
            and value == value.strip()):
        return value
    return '"' + "".join(_escape(c) for c in value) + '"'


def _escape(char: str) -> str:
    if char in _ESCAPES:
        return _ESCAPES[char]
    code = ord(char)
    # YAML prints #x9, #xA, #xD, #x20-#x7E, #x85, #xA0-#xD7FF, #xE000-#xFFFD, #x10000-#x10FFFF; escape the rest.
    # NEL and the Unicode line and paragraph separators are line breaks to YAML 1.1: escaped too.
    printable = (0x20 <= code <= 0x7E or 0xA0 <= code <= 0xD7FF or 0xE000 <= code <= 0xFFFD
                 or 0x10000 <= code <= 0x10FFFF)
    if printable and code not in (0xFEFF, 0x2028, 0x2029):
        return char
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"
