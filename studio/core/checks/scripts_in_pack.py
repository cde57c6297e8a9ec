"""V49 ``scripts-in-pack``: a scripts/ directory or executable files; the studio never runs them."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Diagnostic, Severity

MAX_ENTRIES = 2000  # executables are flagged from a bounded walk; a huge pack is still checked quickly
SKIP = {".git", "node_modules", "indexes"}


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    if ctx.has_dir("scripts"):
        yield ctx.in_file("scripts-in-pack", Severity.WARNING,
                          "The pack has a scripts/ directory; scripts are outside the protocol and never run",
                          "scripts", rule="V49", hint="Move maintenance scripts into a Skill or CI.")
    seen = 0
    stack = [ctx.pack.root]
    while stack and seen < MAX_ENTRIES:
        try:
            with os.scandir(stack.pop()) as it:
                entries = list(it)
        except OSError:
            continue
        for entry in entries:
            seen += 1
            try:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name not in SKIP and not entry.name.startswith("."):
                        stack.append(entry.path)
                elif entry.is_file(follow_symlinks=False) and entry.stat(follow_symlinks=False).st_mode & (
                        stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH):
                    rel = os.path.relpath(entry.path, ctx.pack.root).replace(os.sep, "/")
                    yield ctx.in_file("scripts-in-pack", Severity.WARNING,
                                      f"{rel} is executable; knowledge is data and is never executed", rel,
                                      rule="V49", hint="Clear the executable bit (chmod -x).")
            except OSError:
                continue
