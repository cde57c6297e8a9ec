"""The one exception of the diff: something that makes the comparison impossible, said in one line (exit 2)."""

from __future__ import annotations


class DiffTrouble(Exception):
    """A ref that does not exist, a folder that is not a pack, git missing ...: the message is one plain line."""
