"""V49 ``executable-file``: files with an executable bit; knowledge is data and the studio never runs them.

A content check: it walks the whole pack (bounded), so it runs on request.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity

EXECUTABLE_FILE = Code("executable-file", Severity.WARNING,
                       "a file in the pack has its executable bit set: knowledge is data and is never executed",
                       Behavior.LOAD, "V49", hint="Clear the executable bit (chmod -x).")
CODES = (EXECUTABLE_FILE,)

MAX_ENTRIES = 5000  # a bounded walk: a huge pack is still checked quickly
SKIP = {".git", "node_modules", "indexes"}
EXEC_BITS = stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    seen = 0
    stack: list[str] = [str(ctx.pack.root)]
    while stack and seen < MAX_ENTRIES:
        try:
            with os.scandir(stack.pop()) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            seen += 1
            try:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name not in SKIP and not entry.name.startswith("."):
                        stack.append(entry.path)
                elif entry.is_file(follow_symlinks=False) and entry.stat(follow_symlinks=False).st_mode & EXEC_BITS:
                    rel = os.path.relpath(entry.path, ctx.pack.root).replace(os.sep, "/")
                    yield EXECUTABLE_FILE(f"{rel} is executable; knowledge is data and is never executed", rel)
            except OSError:
                continue
