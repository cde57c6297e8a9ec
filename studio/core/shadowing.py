"""Findings that depend on where a pack came from and on the other packs: origin trust and name collisions.

Digest rows V55-V57 and section 4.3. These functions recompute their findings from scratch each
time, so the workspace can call them again after any pack is reloaded.
"""

from __future__ import annotations

from studio.core.diagnostics import Behavior, Diagnostic, Severity, sort_diagnostics
from studio.core.model import TRUST_RANK, Pack, Scope

_COLLISION_CODES = frozenset({"name-collision", "lower-trust-shadows"})
"""Pack diagnostics that depend on the other packs."""


def apply_origin(pack: Pack, *, trusted_project: bool) -> None:
    """Mark packs of an unapproved project as needing confirmation (V55); idempotent."""
    pack.diagnostics = [d for d in pack.diagnostics if d.code != "untrusted-origin"]
    if pack.scope is Scope.PROJECT and not trusted_project:
        pack.diagnostics = sort_diagnostics([*pack.diagnostics, Diagnostic(
            "untrusted-origin", Severity.WARNING,
            "This pack comes from a project you have not marked as trusted; only its metadata is shown "
            "until you approve it", line=_line(pack, "name"), rule="V55",
            behavior=Behavior.REQUIRE_CONFIRMATION, pack=str(pack.root),
            hint="Approve the project once you have reviewed its packs.",
        )])


def apply_collisions(packs: list[Pack]) -> None:
    """Settle shared names (V56) and flag lower-trust winners (V57); idempotent.

    ``packs`` must be in precedence order. Only packs that load compete, so a quarantined copy
    never hides a good one.
    """
    groups: dict[str, list[Pack]] = {}
    for pack in packs:
        pack.shadowed_by = None
        pack.diagnostics = [d for d in pack.diagnostics if d.code not in _COLLISION_CODES]
        if pack.behavior.loads:
            groups.setdefault(pack.name, []).append(pack)
    for name, group in groups.items():
        if len(group) > 1:
            _settle(name, group)


def _settle(name: str, group: list[Pack]) -> None:
    winner, losers = group[0], group[1:]
    where = ", ".join(f"{p.root} ({p.scope.value})" for p in losers)
    added = [Diagnostic(
        "name-collision", Severity.WARNING,
        f"Another pack is also named '{name}'; this {winner.scope.value} copy wins over: {where}",
        line=_line(winner, "name"), rule="V56", behavior=Behavior.LOAD, pack=str(winner.root),
        hint="Rename one of the packs if both should be available.",
    )]
    for loser in losers:
        loser.shadowed_by = winner.root
        reason = (f"{winner.scope.value} scope outranks {loser.scope.value}"
                  if winner.scope is not loser.scope else "same scope, and its path sorts first")
        loser.diagnostics = sort_diagnostics([*loser.diagnostics, Diagnostic(
            "name-collision", Severity.WARNING,
            f"Shadowed: the pack at {winner.root} is also named '{name}' and wins ({reason})",
            line=_line(loser, "name"), rule="V56", behavior=Behavior.HIDDEN, pack=str(loser.root),
            hint="Rename this pack, or remove the other copy, to make it available.",
        )])
    best = max(losers, key=_trust_rank)
    if _trust_rank(best) > _trust_rank(winner):
        added.append(Diagnostic(
            "lower-trust-shadows", Severity.WARNING,
            f"This pack (trust: {winner.trust or 'unreviewed'}) shadows a more trusted copy at "
            f"{best.root} (trust: {best.trust})",
            line=_line(winner, "trust") if winner.trust else _line(winner, "name"), rule="V57",
            behavior=Behavior.LOAD_WITH_WARNING, pack=str(winner.root),
            hint="Check that this copy is the one you mean to use; rename it otherwise.",
        ))
    winner.diagnostics = sort_diagnostics([*winner.diagnostics, *added])


def _trust_rank(pack: Pack) -> int:
    return TRUST_RANK.get(pack.trust or "unreviewed", 0)


def _line(pack: Pack, key: str) -> int:
    fm = pack.frontmatter
    position = fm.position(key) if fm is not None else None
    return position.line if position is not None else 1
