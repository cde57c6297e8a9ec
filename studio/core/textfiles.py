"""One rule for "is this file text?", shared by everything that reads pack files.

A NUL byte anywhere makes a file binary to the studio (UTF-16 text included). The resolver, ``fence``, the
injection lint, the evidence excerpts and the editor must agree, or the lint could skip text that a fence
still sends to a model. ``read_text_bytes`` is the bounded read that applies the rule to a file of a pack.
"""

from __future__ import annotations

from dataclasses import dataclass

from studio.core.diagnostics import Diagnostic
from studio.core.pack_fs import PackFS, Status
from studio.core.paths import from_read_result


def is_binary(data: bytes) -> bool:
    """True when ``data`` contains a NUL byte (the whole bounded read is checked, not a prefix)."""
    return b"\x00" in data


@dataclass(frozen=True, slots=True)
class NotText:
    """Why a pack file gives no text to send to a model (``read_text_bytes``)."""

    reason: str
    """``symlink-escape``, ``unreadable``, ``too-large`` or ``binary-file`` (the resolver's skip reasons)."""
    status: Status
    """How the read ended (``OK`` for a file too large or binary)."""
    problem: Diagnostic | None = None
    """The read's finding, for ``symlink-escape`` and ``unreadable``."""
    size: int = 0
    """The size on disk, for ``too-large``."""
    limit: int = 0
    """The byte limit the file was read with."""

    @property
    def message(self) -> str:
        """Why, in the words ``fence`` and the tool form show next to the path."""
        if self.reason == "too-large":
            return f"larger than {self.limit // (1024 * 1024)} MB"
        if self.reason == "binary-file":
            return "contains NUL bytes, so it is binary, not text"
        return self.problem.message if self.problem is not None else "cannot be read"


def read_text_bytes(fs: PackFS, rel: str, limit: int) -> bytes | NotText:
    """The bytes of ``rel`` when it is a text file of at most ``limit`` bytes inside the pack, else why not.

    The one decision the resolver, ``fence``, the tool form and the evidence excerpts make about a file they
    might show: reached by descriptor (a symlink out of the pack is never read), bounded (one byte over the
    limit is read to see a file too large), and free of NUL bytes. Decoding is the caller's: each has its own
    rule for invalid UTF-8 and line endings.
    """
    result = fs.read(rel, limit + 1)
    data, size, problem = from_read_result(result, rel)
    if problem is not None or data is None:
        reason = "symlink-escape" if problem is not None and problem.code == "symlink-escape" else "unreadable"
        return NotText(reason, result.status, problem, limit=limit)
    if size > limit:
        return NotText("too-large", result.status, size=size, limit=limit)
    if is_binary(data):
        return NotText("binary-file", result.status, size=size, limit=limit)
    return data
