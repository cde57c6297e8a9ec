"""``validate --format github``: one GitHub Actions workflow command per finding, which the runner turns into an
annotation on the file and line (``::error file=…,line=…,col=…,title=…::message``).

Escaping follows the Actions toolkit: ``%``, CR and LF in the message; those plus ``:`` and ``,`` in properties.
Pack text reaches the messages, so every other control character (terminal escapes, Unicode line separators) is
shown as a visible ``\\xNN`` / ``\\uNNNN`` instead: no finding can start a line of its own or colour the log.
"""

from __future__ import annotations

from pathlib import Path

from studio.cli._findings import Located, relative_inside, without_surrogates
from studio.core.diagnostics import Severity

COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}

_VISIBLE = {c: f"\\x{c:02x}" for c in (*range(0x20), *range(0x7F, 0xA0)) if c not in (0x09, 0x0A, 0x0D)}
_VISIBLE.update({0x2028: "\\u2028", 0x2029: "\\u2029", 0x85: "\\x85"})


def github_annotations(findings: list[Located], base: Path) -> list[str]:
    """One workflow command line per finding; paths inside ``base`` are made relative to it."""
    return [annotation(item, str(base)) for item in findings]


def annotation(item: Located, base: str) -> str:
    d = item.diagnostic
    path = relative_inside(item.path, base) if item.path else None
    props = [f"file={escape_property(path if path is not None else item.path)}"] if item.path else []
    props += [f"line={max(1, d.line)}", f"col={max(1, d.column)}", f"title={escape_property(d.code)}"]
    message = d.message if not d.hint else f"{d.message} (fix: {d.hint})"
    return f"::{COMMAND[d.severity]} {','.join(props)}::{escape_data(message)}"


def escape_data(text: str) -> str:
    """A message: ``%``, CR and LF percent-encoded, other control characters made visible."""
    text = _visible(text)
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A property value: as a message, plus ``:`` and ``,`` (they separate properties)."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _visible(text: str) -> str:
    return without_surrogates(text).translate(_VISIBLE)
