"""One rule for "is this file text?", shared by everything that reads pack files.

A NUL byte anywhere makes a file binary to the studio (UTF-16 text included). The resolver, ``fence``, the
injection lint, the evidence excerpts and the editor must agree, or the lint could skip text that a fence
still sends to a model.
"""

from __future__ import annotations


def is_binary(data: bytes) -> bool:
    """True when ``data`` contains a NUL byte (the whole bounded read is checked, not a prefix)."""
    return b"\x00" in data
