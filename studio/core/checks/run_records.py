"""V40 run records: every ``runs/`` file that is malformed JSON or breaks its inferred shape.

Runs are audit records: these findings never change whether the pack loads (behaviour ``load``). A content
check, because it reads every record. The full timeline is ``pack-studio runs PACK``.
"""

from __future__ import annotations

from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Diagnostic
from studio.core.runs import read_runs


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    if not ctx.has_dir("runs"):
        return
    yield from read_runs(ctx.pack.root).diagnostics  # folder findings plus every record's
