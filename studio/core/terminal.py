r"""Pack-derived text on a terminal: control characters and escape sequences are shown, never obeyed.

A pack name, a path, a run record's field or a line of a source can hold ESC sequences (colours, cursor moves,
``ESC ] 0 ; title BEL`` window titles, ``ESC [ 2 J`` clear-screen), C1 controls that some terminals obey the
same way, bidirectional controls that reorder what a line shows, or line breaks that start a line the studio did
not write (a folder named ``x\n3 packs (3 load): 0 errors`` forged validate's summary). Every CLI text printer
passes such text through one of two functions:

- ``printable(text)`` for one-line fields (names, paths, messages, reasons): every character below is replaced by
  a visible escape, line breaks and tabs included, so one field is always exactly one line of output;
- ``printable_block(text)`` for text printed as lines (source excerpts, diffs, artefacts written to a terminal):
  line feeds and tabs stay, every other character below is escaped (``\r\n`` stays too: a carriage return just
  before a line feed moves nothing visible).

Escapes are Python's spelling: ``\x1b`` (ESC), ``\n``, ``\r``, ``\t``, ``\x9b`` (C1), ``\u202e`` (bidi), and for a
lone surrogate ``\xNN``, the byte it stands for (``os.fsdecode`` and argv turn undecodable bytes of a file name
into U+DC80-U+DCFF; ``caf\xe9`` is the Latin-1 name ``café``). A backslash is left as it is, so a name that
contains the two characters ``\`` ``n`` prints like one that contains a line break: ambiguous to read, but never
a second line. The characters escaped: C0 controls, DEL, C1 controls, U+2028/U+2029, the bidi controls (U+061C,
U+200E-U+200F, U+202A-U+202E, U+2066-U+2069) and surrogates.
"""

from __future__ import annotations

import re
from typing import Any, TextIO

_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_UNSAFE_IN_BLOCK = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
    "|\r(?!\n)")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # surrogateescape: the undecodable byte itself
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` as one safe line: every control, line break, bidi control and surrogate shown as an escape."""
    return text if _UNSAFE.search(text) is None else _UNSAFE.sub(_escape, text)


def printable_block(text: str) -> str:
    """``text`` as safe lines: line feeds and tabs kept, every other control (and a lone CR) shown as an escape."""
    return text if _UNSAFE_IN_BLOCK.search(text) is None else _UNSAFE_IN_BLOCK.sub(_escape, text)


def shortened(text: str, limit: int) -> str:
    """``text`` when it has at most ``limit`` characters, else its first ``limit - 1`` and an ellipsis: the one way a
    long value (a task, a schema message) is cut to fit a line."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class GuardedStream:
    """A text stream that shows every control, bidi control and surrogate written to it (``printable_block``).

    The CLI puts one over stdout and stderr for the time a command runs, so a printer that forgot ``printable``
    (or a command written later) still cannot drive the terminal or reorder a line: the escaping has one owner
    and no way around it but ``write_artefact``. Fields should still go through ``printable`` themselves, which
    also escapes line breaks (this guard keeps them, so a field holding one could start a line of its own).
    """

    def __init__(self, raw: TextIO) -> None:
        self.raw = raw

    def write(self, text: str) -> int:
        self.raw.write(printable_block(text))
        return len(text)

    def __getattr__(self, name: str) -> Any:  # flush, fileno, isatty, encoding, buffer...: the raw stream's
        return getattr(self.raw, name)


def write_artefact(stream: TextIO | GuardedStream, text: str) -> None:
    """Write an artefact (catalog XML, a guide, a fence, what ``read-files`` returns) byte for byte, unless
    ``stream`` is a terminal.

    Redirected to a file or a pipe the artefact is exact, so it can be diffed or handed to a model; on a terminal
    a human reads it, and pack text must not drive the terminal (``printable_block``).
    """
    raw = stream.raw if isinstance(stream, GuardedStream) else stream
    isatty = getattr(raw, "isatty", None)
    raw.write(printable_block(text) if isatty is not None and isatty() else text)


__all__ = ["GuardedStream", "printable", "printable_block", "write_artefact"]
