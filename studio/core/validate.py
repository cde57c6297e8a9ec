"""Run every registered check over a loaded pack and collect the diagnostics."""

from __future__ import annotations

from studio.core.checks import ALL_CHECKS, CheckContext, content_checks
from studio.core.diagnostics import Diagnostic
from studio.core.model import Pack


def validate_pack(pack: Pack, *, content: bool = False) -> list[Diagnostic]:
    """Diagnostics from every check (parse problems are added by ``load_pack``, not here).

    ``content`` adds the checks that read every text file of the pack (prompt-injection lint).
    """
    ctx = CheckContext.for_pack(pack)
    out: list[Diagnostic] = []
    for check in ALL_CHECKS + (content_checks() if content else []):
        out.extend(check(ctx))
    return out
