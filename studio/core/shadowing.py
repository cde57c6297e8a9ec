"""Findings that depend on where a pack came from and on the other packs: origin trust and name collisions.

Digest rows V55-V57 and section 4.3. These functions recompute their findings from scratch each
time, so the workspace can call them again after any pack is reloaded.
"""

from __future__ import annotations

from studio.core.diagnostics import Behavior, Code, Severity, sort_diagnostics
from studio.core.model import TRUST_RANK, Pack, Scope

UNTRUSTED_ORIGIN = Code("untrusted-origin", Severity.WARNING,
                        "the pack comes from a project not marked as trusted: metadata only until approved",
                        Behavior.REQUIRE_CONFIRMATION, "V55",
                        hint="Approve the project once you have reviewed its packs.")
NAME_COLLISION = Code("name-collision", Severity.WARNING,
                      "two packs share a name: the one with higher precedence wins and the other is shadowed",
                      Behavior.LOAD, "V56", hint="Rename one of the packs if both should be available.")
LOWER_TRUST_SHADOWS = Code("lower-trust-shadows", Severity.WARNING,
                           "a pack shadows a copy of the same name that declares a higher trust",
                           Behavior.LOAD_WITH_WARNING, "V57",
                           hint="Check that this copy is the one you mean to use; rename it otherwise.")
CODES = (UNTRUSTED_ORIGIN, NAME_COLLISION, LOWER_TRUST_SHADOWS)

_COLLISION_CODES = frozenset({"name-collision", "lower-trust-shadows"})
"""Pack diagnostics that depend on the other packs."""


def apply_origin(pack: Pack, *, trusted_project: bool) -> None:
    """Mark packs of an unapproved project as needing confirmation (V55); idempotent."""
    pack.diagnostics = [d for d in pack.diagnostics if d.code != "untrusted-origin"]
    if pack.scope is Scope.PROJECT and not trusted_project:
        pack.diagnostics = sort_diagnostics([*pack.diagnostics, UNTRUSTED_ORIGIN(
            "This pack comes from a project you have not marked as trusted; only its metadata is shown until you "
            "approve it", line=_line(pack, "name"), pack=str(pack.root))])


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
    added = [NAME_COLLISION(f"Another pack is also named '{name}'; this {winner.scope.value} copy wins over: {where}",
                            line=_line(winner, "name"), pack=str(winner.root))]
    for loser in losers:
        loser.shadowed_by = winner.root
        reason = (f"{winner.scope.value} scope outranks {loser.scope.value}"
                  if winner.scope is not loser.scope else "same scope, and its path sorts first")
        loser.diagnostics = sort_diagnostics([*loser.diagnostics, NAME_COLLISION(
            f"Shadowed: the pack at {winner.root} is also named '{name}' and wins ({reason})",
            line=_line(loser, "name"), pack=str(loser.root), behavior=Behavior.HIDDEN,
            hint="Rename this pack, or remove the other copy, to make it available.")])
    best = max(losers, key=_trust_rank)
    if _trust_rank(best) > _trust_rank(winner):
        added.append(LOWER_TRUST_SHADOWS(
            f"This pack (trust: {winner.trust or 'unreviewed'}) shadows a more trusted copy at {best.root} "
            f"(trust: {best.trust})", line=_line(winner, "trust") if winner.trust else _line(winner, "name"),
            pack=str(winner.root)))
    winner.diagnostics = sort_diagnostics([*winner.diagnostics, *added])


def _trust_rank(pack: Pack) -> int:
    return TRUST_RANK.get(pack.trust or "unreviewed", 0)


def _line(pack: Pack, key: str) -> int:
    fm = pack.frontmatter
    position = fm.position(key) if fm is not None else None
    return position.line if position is not None else 1
