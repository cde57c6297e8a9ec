"""V49 ``executable-file``: files with an executable bit; knowledge is data and the studio never runs them.

A content check: it reads the modes the shared walk of the pack saw (``CheckContext.tree``: bounded, symlinks
never followed).
"""

from __future__ import annotations

import stat
from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity

EXECUTABLE_FILE = Code("executable-file", Severity.WARNING,
                       "a file in the pack has its executable bit set: knowledge is data and is never executed",
                       Behavior.LOAD, "V49", hint="Clear the executable bit (chmod -x).")
CODES = (EXECUTABLE_FILE,)

SKIP_TOP = ("indexes/",)
"""Generated folders whose modes are the generator's business (dot-folders and node_modules are never walked)."""
EXEC_BITS = stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    for entry in ctx.tree.files:
        if entry.is_regular and entry.mode & EXEC_BITS and not entry.rel.startswith(SKIP_TOP):
            yield EXECUTABLE_FILE(f"{entry.rel} is executable; knowledge is data and is never executed", entry.rel)
