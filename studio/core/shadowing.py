"""Settling a workspace: a pure function from loaded packs to verdicts (shadowing, collisions, trust, origin).

Digest rows V55-V57 and section 4.3. ``settle`` reads the packs as loaded (their own findings) and returns a
``Verdict`` for each pack that the others, or where it was found, have something to say about. Packs never
change: the workspace applies verdicts with ``Pack.with_verdict``. A pack's verdict depends only on the packs
that share its name, so after one pack changes, settling that name group again gives every verdict that can
have changed (``Workspace.replace_pack`` does exactly that).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity
from studio.core.model import NO_VERDICT, TRUST_RANK, Pack, Scope, Verdict

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


def settle(packs: Sequence[Pack], *, trusted_project: bool = True) -> dict[Path, Verdict]:
    """The verdict of every pack in ``packs`` that has one (packs left out have ``NO_VERDICT``).

    ``packs`` are in precedence order, highest first. Only packs that load on their own findings compete for a
    name, so a quarantined copy never hides a good one. Pure: reads the packs, changes nothing.
    """
    shadowed: dict[Path, Path] = {}
    found: dict[Path, list[Diagnostic]] = {}
    groups: dict[str, list[Pack]] = {}
    for pack in packs:
        if pack.scope is Scope.PROJECT and not trusted_project:
            found.setdefault(pack.root, []).append(_untrusted(pack))
        if pack.own_behavior.loads:
            groups.setdefault(pack.name, []).append(pack)
    for name, group in groups.items():
        if len(group) > 1:
            _collide(name, group, shadowed, found)
    roots = shadowed.keys() | found.keys()
    return {root: Verdict(shadowed.get(root), tuple(found.get(root, ()))) for root in roots}


def apply(packs: Iterable[Pack], verdicts: dict[Path, Verdict]) -> list[Pack]:
    """Each pack with its verdict from ``verdicts`` (``NO_VERDICT`` when it has none)."""
    return [pack.with_verdict(verdicts.get(pack.root, NO_VERDICT)) for pack in packs]


def _untrusted(pack: Pack) -> Diagnostic:
    return UNTRUSTED_ORIGIN("This pack comes from a project you have not marked as trusted; only its metadata is "
                            "shown until you approve it", line=_line(pack, "name"), pack=str(pack.root))


def _collide(name: str, group: list[Pack], shadowed: dict[Path, Path], found: dict[Path, list[Diagnostic]]) -> None:
    winner, losers = group[0], group[1:]
    where = ", ".join(f"{p.root} ({p.scope.value})" for p in losers)
    mine = found.setdefault(winner.root, [])
    mine.append(NAME_COLLISION(f"Another pack is also named '{name}'; this {winner.scope.value} copy wins over: "
                               f"{where}", line=_line(winner, "name"), pack=str(winner.root)))
    for loser in losers:
        shadowed[loser.root] = winner.root
        reason = (f"{winner.scope.value} scope outranks {loser.scope.value}"
                  if winner.scope is not loser.scope else "same scope, and its path sorts first")
        found.setdefault(loser.root, []).append(NAME_COLLISION(
            f"Shadowed: the pack at {winner.root} is also named '{name}' and wins ({reason})",
            line=_line(loser, "name"), pack=str(loser.root), behavior=Behavior.HIDDEN,
            hint="Rename this pack, or remove the other copy, to make it available."))
    best = max(losers, key=_trust_rank)
    if _trust_rank(best) > _trust_rank(winner):
        mine.append(LOWER_TRUST_SHADOWS(
            f"This pack (trust: {winner.trust or 'unreviewed'}) shadows a more trusted copy at {best.root} "
            f"(trust: {best.trust})", line=_line(winner, "trust") if winner.trust else _line(winner, "name"),
            pack=str(winner.root)))


def _trust_rank(pack: Pack) -> int:
    return TRUST_RANK.get(pack.trust or "unreviewed", 0)


def _line(pack: Pack, key: str) -> int:
    fm = pack.frontmatter
    position = fm.position(key) if fm is not None else None
    return position.line if position is not None else 1
