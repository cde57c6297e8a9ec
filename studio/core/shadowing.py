"""Settling a workspace: a pure function from loaded packs to verdicts (shadowing, collisions, trust, origin).

Digest rows V55-V57 and section 4.3. ``settle`` reads the packs as loaded (their own findings) and returns a
``Verdict`` for each pack that the others, or where it was found, have something to say about. Between scopes the
standard's precedence decides; between copies in one scope a curator's pin (``studio.core.pins``) decides, and
without one the path that sorts first wins, which the finding says, with a hint to pin. Packs never
change: the workspace applies verdicts with ``Pack.with_verdict``. A pack's verdict depends only on the packs
whose names equal or look like its own (``studio.core.lookalike``), so after one pack changes, settling that group
again gives every verdict that can have changed (``Workspace.replace_pack`` does exactly that).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity
from studio.core.lookalike import LookalikePack, lookalike_pack_findings
from studio.core.model import NO_VERDICT, TRUST_RANK, Pack, Scope, Verdict

UNTRUSTED_ORIGIN = Code("untrusted-origin", Severity.WARNING,
                        "the pack comes from a project not marked as trusted: metadata only until approved",
                        Behavior.REQUIRE_CONFIRMATION, "V55",
                        hint="Approve the project once you have reviewed its packs.")
NAME_COLLISION = Code("name-collision", Severity.WARNING,
                      "two packs share a name: the copy with higher precedence (within one scope: the pinned copy, "
                      "else the path that sorts first) wins and the others are shadowed",
                      Behavior.LOAD, "V56", hint="Rename one of the packs if both should be available.")
LOWER_TRUST_SHADOWS = Code("lower-trust-shadows", Severity.WARNING,
                           "a pack shadows a copy of the same name that declares a higher trust",
                           Behavior.LOAD_WITH_WARNING, "V57",
                           hint="Check that this copy is the one you mean to use; rename it otherwise.")
PIN_UNMATCHED = Code("pin-unmatched", Severity.INFO,
                     "a pin names a copy of a pack that is not among the loadable copies of that name",
                     Behavior.LOAD, "", hint="Pin the copy again where it is now, or remove the pin.")
CODES = (UNTRUSTED_ORIGIN, NAME_COLLISION, LOWER_TRUST_SHADOWS, PIN_UNMATCHED)

PIN_HINT = ("Both copies are in the same scope, so the standard gives no order and the path decided. To choose, "
            "pin the copy that should win: \"Make this copy win\" in the app, --pin {name}=PATH on the command "
            "line, or \"pins\" in .pack-studio/workspace.json.")


def settle(packs: Sequence[Pack], *, trusted_project: bool = True,
           pins: Mapping[str, Path] | None = None) -> dict[Path, Verdict]:
    """The verdict of every pack in ``packs`` that has one (packs left out have ``NO_VERDICT``).

    ``packs`` are in precedence order, highest first. Only packs that load on their own findings compete for a
    name, so a quarantined copy never hides a good one. ``pins`` maps a name to the root of the copy the curator
    chose (``studio.core.pins``): it wins over the other copies *in its scope*, never over a higher scope.
    Pure: reads the packs, changes nothing.
    """
    shadowed: dict[Path, Path] = {}
    found: dict[Path, list[Diagnostic]] = {}
    groups: dict[str, list[Pack]] = {}
    for pack in packs:
        if pack.scope is Scope.PROJECT and not trusted_project:
            found.setdefault(pack.root, []).append(_untrusted(pack))
        if pack.own_behavior.loads:
            groups.setdefault(pack.name, []).append(pack)
    pins = pins or {}
    for name, group in groups.items():
        if len(group) > 1:
            _collide(name, group, pins.get(name), shadowed, found)
    # Names that are not equal but look alike (confusables, invisible characters, case, NFC/NFD): a reader or a
    # model can take one pack for the other, so each says which names it resembles.
    for finding in lookalike_pack_findings(LookalikePack(p.name, str(p.root), _line(p, "name"), 1)
                                           for group in groups.values() for p in group):
        found.setdefault(Path(finding.pack), []).append(finding)
    roots = shadowed.keys() | found.keys()
    return {root: Verdict(shadowed.get(root), tuple(found.get(root, ()))) for root in roots}


def apply(packs: Iterable[Pack], verdicts: dict[Path, Verdict]) -> list[Pack]:
    """Each pack with its verdict from ``verdicts`` (``NO_VERDICT`` when it has none)."""
    return [pack.with_verdict(verdicts.get(pack.root, NO_VERDICT)) for pack in packs]


def _untrusted(pack: Pack) -> Diagnostic:
    return UNTRUSTED_ORIGIN("This pack comes from a project you have not marked as trusted; only its metadata is "
                            "shown until you approve it", line=_line(pack, "name"), pack=str(pack.root))


def copy_facts(pack: Pack) -> str:
    """``explicit, version 0.7.2, updated 2026-03-01``: what tells two copies of one name apart at a glance."""
    updated = pack.field("updated")
    return (f"{pack.scope.value}, version {pack.version or '(none)'}, "
            f"updated {updated if isinstance(updated, str) and updated.strip() else '(none)'}")


def decide(group: Sequence[Pack], pin: Path | None = None) -> tuple[Pack, str] | None:
    """Among the copies of one name (any order), the one that wins and the rule: ``scope``, ``pin`` or ``path``.

    Only copies that load on their own findings compete; None when none does.
    """
    competing = sorted((p for p in group if p.own_behavior.loads), key=lambda p: (p.scope.precedence, p.root.parts))
    if not competing:
        return None
    return (competing[0], "only") if len(competing) == 1 else _winner(competing, pin)


RULES = {
    "scope": "Scopes decide: explicit > project > user > organization > built-in (the standard's order).",
    "pin": "Within one scope the copy you pinned wins.",
    "path": "Same scope and no pin: the path that sorts first wins. Pin the copy that should win.",
    "only": "Only this copy loads; the others are quarantined or skipped on their own findings.",
}
"""One sentence per deciding rule, for the app's collision view."""


def _winner(group: Sequence[Pack], pin: Path | None) -> tuple[Pack, str]:
    """The copy that wins and the rule that decided: ``scope``, ``pin`` or ``path``."""
    first = group[0]
    top = [p for p in group if p.scope is first.scope]
    pinned = next((p for p in top if pin is not None and p.root == pin), None)
    if pinned is not None:
        return pinned, "pin"
    return first, "path" if len(top) > 1 else "scope"


def _collide(name: str, group: list[Pack], pin: Path | None, shadowed: dict[Path, Path],
             found: dict[Path, list[Diagnostic]]) -> None:
    winner, rule = _winner(group, pin)
    losers = [p for p in group if p is not winner]
    where = "; ".join(f"{p.root} ({copy_facts(p)})" for p in losers)
    mine = found.setdefault(winner.root, [])
    how = {"scope": f"its {winner.scope.value} scope outranks the others",
           "pin": "you pinned this copy",
           "path": f"same scope ({winner.scope.value}) and no pin, so the path that sorts first wins"}[rule]
    hint = PIN_HINT.format(name=name) if rule == "path" else None
    mine.append(NAME_COLLISION(f"Another pack is also named '{name}'; this copy ({copy_facts(winner)}) wins, "
                               f"because {how}, over: {where}", line=_line(winner, "name"), pack=str(winner.root),
                               hint=hint))
    pinned_elsewhere = pin is not None and pin != winner.root and any(p.root == pin for p in losers)
    for loser in losers:
        shadowed[loser.root] = winner.root
        if loser.scope is not winner.scope:
            reason = f"{winner.scope.value} scope outranks {loser.scope.value}"
            if loser.root == pin:
                reason += "; your pin chooses among copies of one scope only"
        elif rule == "pin":
            reason = "you pinned that copy"
        else:
            reason = "same scope, and its path sorts first; pin a copy to choose"
        found.setdefault(loser.root, []).append(NAME_COLLISION(
            f"Shadowed: the pack at {winner.root} ({copy_facts(winner)}) is also named '{name}' and wins over this "
            f"copy ({copy_facts(loser)}): {reason}", line=_line(loser, "name"), pack=str(loser.root),
            behavior=Behavior.HIDDEN,
            hint=PIN_HINT.format(name=name) if loser.scope is winner.scope else
            "Rename this pack, or remove the other copy, to make it available."))
    if pin is not None and rule != "pin" and not pinned_elsewhere:
        mine.append(PIN_UNMATCHED(f"The pin for '{name}' names {pin}, which holds no loadable copy of it here; "
                                  "precedence decided instead", line=_line(winner, "name"), pack=str(winner.root)))
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
