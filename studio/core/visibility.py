"""Who sees a pack: every scope root holding a copy of a name, which copy wins where, under two precedence policies.

Visibility is a set of scopes with a priority. The standard's discovery precedence (digest 4.3) is explicit >
project > user > organization > built-in; other agent systems rank the user first (user > project > agent >
team > org > public). This module answers, for one pack name and a workspace (the scope roots a client with a
given context would scan):

- every copy of the name, where it was found, and whether it can compete at all (a quarantined or skipped copy
  never wins, as in ``studio.core.shadowing``);
- per scope root, the copy that wins inside that root (two copies under one root: the path that sorts first);
- per client context, which copy loads under each policy. The contexts are the one given (every root) and
  that context without each scope in turn ("outside this project", "without the home folder", ...), which is
  what a client elsewhere would see;
- where the two policies disagree, and when the winner is less trusted than a copy it shadows (V57).

Policies: ``standard`` is the digest's order and gives the same winners as the workspace's own settling
(``shadowing.settle``; a test holds them together). ``user-first`` maps the other systems' order onto
our scopes: explicit (a pack the user named outranks every scope in both policies) > user > project >
organization (agent, team and org roots) > built-in (public). Inside one scope the path that sorts first wins
in both. Nothing here changes the workspace: it only reads the packs' scopes, roots and findings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from studio.core.diagnostics import counted
from studio.core.model import TRUST_RANK, Pack, Scope
from studio.core.workspace import Workspace, WorkspaceOptions, open_workspace


class Policy(StrEnum):
    """Which scope wins a name collision."""

    STANDARD = "standard"
    USER_FIRST = "user-first"

    @property
    def order(self) -> tuple[Scope, ...]:
        if self is Policy.USER_FIRST:
            return (Scope.EXPLICIT, Scope.USER, Scope.PROJECT, Scope.ORGANIZATION, Scope.BUILTIN)
        return (Scope.EXPLICIT, Scope.PROJECT, Scope.USER, Scope.ORGANIZATION, Scope.BUILTIN)

    @property
    def describe(self) -> str:
        return " > ".join(s.value for s in self.order)


@dataclass(frozen=True, slots=True)
class PackCopy:
    """One pack carrying the name."""

    root: Path
    scope: Scope
    location: Path | None
    """The scanned location it was found under (the pack itself for a pack opened directly)."""
    status: str | None
    trust: str | None
    version: str | None
    competes: bool
    """False when the copy's own findings keep a client from loading it (quarantined or skipped)."""
    why_not: str = ""
    """The gravest finding, when it does not compete."""

    @classmethod
    def of(cls, pack: Pack, location: Path | None) -> PackCopy:
        competes = pack.own_behavior.loads
        why = ""
        if not competes:
            worst = max(pack.diagnostics, key=lambda d: d.behavior.gravity, default=None)
            why = f"{worst.behavior.value}: {worst.message}" if worst is not None else pack.own_behavior.value
        return cls(pack.root, pack.scope, location, pack.status, pack.trust, pack.version, competes, why)

    @property
    def trust_rank(self) -> int:
        return TRUST_RANK.get(self.trust or "unreviewed", 0)

    def label(self) -> str:
        return f"{self.scope.value} copy at {self.root}"

    def to_dict(self) -> dict[str, Any]:
        return {"root": str(self.root), "scope": self.scope.value,
                "location": str(self.location) if self.location else None, "status": self.status,
                "trust": self.trust, "version": self.version, "competes": self.competes, "why_not": self.why_not}


@dataclass(frozen=True, slots=True)
class Outcome:
    """Which copy a policy picks among some copies, and why in one sentence."""

    winner: PackCopy | None
    reason: str
    lower_trust: PackCopy | None = None
    """A shadowed copy more trusted than the winner (V57), if any."""

    def to_dict(self) -> dict[str, Any]:
        return {"winner": str(self.winner.root) if self.winner else None,
                "winner_scope": self.winner.scope.value if self.winner else None, "reason": self.reason,
                "shadows_more_trusted": str(self.lower_trust.root) if self.lower_trust else None}


@dataclass(slots=True)
class RootView:
    """One scanned location and the copies found under it."""

    scope: Scope
    path: Path
    exists: bool
    copies: list[PackCopy] = field(default_factory=list)
    winner: PackCopy | None = None
    """The copy that wins inside this root (None when no copy here can load)."""

    def to_dict(self) -> dict[str, Any]:
        return {"scope": self.scope.value, "path": str(self.path), "exists": self.exists,
                "copies": [str(c.root) for c in self.copies], "winner": str(self.winner.root) if self.winner else None}


@dataclass(slots=True)
class ContextView:
    """What a client with one context (a set of scope roots) loads for the name, under both policies."""

    label: str
    """e.g. ``everything given``, ``outside this project``."""
    left_out: Scope | None
    """The scope this context does without (None for the context as given)."""
    outcomes: dict[Policy, Outcome]

    @property
    def differs(self) -> bool:
        return self.outcomes[Policy.STANDARD].winner != self.outcomes[Policy.USER_FIRST].winner

    def to_dict(self) -> dict[str, Any]:
        return {"context": self.label, "left_out": self.left_out.value if self.left_out else None,
                "differs": self.differs, **{p.value: o.to_dict() for p, o in self.outcomes.items()}}


@dataclass(slots=True)
class VisibilityReport:
    """Everything about one name, for one policy shown first."""

    name: str
    policy: Policy
    copies: list[PackCopy]
    roots: list[RootView]
    contexts: list[ContextView]

    @property
    def given(self) -> ContextView:
        return self.contexts[0]

    def winner(self, policy: Policy | None = None) -> PackCopy | None:
        """The copy a client with the full context loads."""
        return self.given.outcomes[policy or self.policy].winner

    @property
    def changes(self) -> list[ContextView]:
        """Contexts where the other policy loads a different copy."""
        return [c for c in self.contexts if c.differs]

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "policy": self.policy.value,
                "precedence": {p.value: p.describe for p in Policy},
                "winner": str(w.root) if (w := self.winner()) else None,
                "copies": [c.to_dict() for c in self.copies], "roots": [r.to_dict() for r in self.roots],
                "contexts": [c.to_dict() for c in self.contexts]}


_WITHOUT = {
    Scope.EXPLICIT: "without the paths named explicitly",
    Scope.PROJECT: "outside this project (no project folder)",
    Scope.USER: "without the home folder (no user packs)",
    Scope.ORGANIZATION: "without the organization roots",
    Scope.BUILTIN: "without the built-in packs",
}


def settle(copies: list[PackCopy], policy: Policy) -> Outcome:
    """The copy ``policy`` loads among ``copies``, with the reason (pure: the copies are not changed)."""
    competing = [c for c in copies if c.competes]
    if not competing:
        if copies:
            here = counted(len(copies), "copy", "copies")
            return Outcome(None, f"{here} here, but none can load ({copies[0].why_not})")
        return Outcome(None, "no copy is visible here")
    ranked = sorted(competing, key=lambda c: (policy.order.index(c.scope), c.root.parts))
    winner, others = ranked[0], ranked[1:]
    if not others:
        reason = f"the only copy that can load here ({winner.scope.value})"
    else:
        beaten = [c.scope.value for c in others if c.scope is not winner.scope]
        reason = f"{winner.scope.value} outranks {', '.join(dict.fromkeys(beaten))} ({policy.value}: " \
                 f"{policy.describe})" if beaten else f"every copy is {winner.scope.value}; its path sorts first"
        if beaten and any(c.scope is winner.scope for c in others):
            reason += f"; among the {winner.scope.value} copies its path sorts first"
    best = max(others, key=lambda c: c.trust_rank, default=None)
    lower = best if best is not None and best.trust_rank > winner.trust_rank else None
    return Outcome(winner, reason, lower)


def visibility(workspace: Workspace, name: str, policy: Policy = Policy.STANDARD) -> VisibilityReport:
    """Who sees ``name`` in ``workspace`` (pure over the loaded workspace; nothing is read or changed)."""
    named = [p for p in workspace.packs if p.name == name]
    roots = [RootView(loc.scope, loc.path, loc.exists) for loc in workspace.locations]
    copies: list[PackCopy] = []
    for pack in named:
        view = _root_of(pack, roots)
        copy = PackCopy.of(pack, view.path if view else pack.scope_root)
        copies.append(copy)
        if view is not None:
            view.copies.append(copy)
    for view in roots:
        view.winner = settle(view.copies, policy).winner
    contexts = [_context("everything given", None, copies)]
    # Leaving out a scope that holds no copy would repeat the first row; only the scopes with copies vary.
    present = [s for s in dict.fromkeys(loc.scope for loc in workspace.locations) if any(c.scope is s for c in copies)]
    for scope in present:
        contexts.append(_context(_WITHOUT[scope], scope, [c for c in copies if c.scope is not scope]))
    return VisibilityReport(name, policy, copies, roots, contexts)


def _context(label: str, left_out: Scope | None, copies: list[PackCopy]) -> ContextView:
    return ContextView(label, left_out, {p: settle(copies, p) for p in Policy})


def _root_of(pack: Pack, roots: list[RootView]) -> RootView | None:
    """The location a pack was found under: its scan root, or for a pack opened directly, its own folder."""
    for view in roots:
        if view.scope is not pack.scope:
            continue
        if pack.scope_root is not None and view.path == pack.scope_root:
            return view
        if pack.scope_root is None and view.path in (pack.root, pack.root / "KNOWLEDGE.md"):
            return view
    return None


def open_visibility(options: WorkspaceOptions, name: str, policy: Policy = Policy.STANDARD) -> VisibilityReport:
    """Scan the scope roots of ``options`` (reads only) and report who sees ``name``."""
    return visibility(open_workspace(options), name, policy)


__all__ = ["ContextView", "Outcome", "PackCopy", "Policy", "RootView", "VisibilityReport", "open_visibility", "settle",
           "visibility"]
