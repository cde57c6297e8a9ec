"""Per-pack plan for one request: effective profile/mode/grounding, ordering, status gating, pack warnings.

Overrides (``--profile``, ``--mode``, ``--grounding``) are applied to a copy of the pack's frontmatter, so
the fence renderer shows what the simulated client would act on; the pack on disk is untouched.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace

from studio.core.diagnostics import Code
from studio.core.model import PROFILES, RUNTIME_MODES, Pack
from studio.core.paths import is_file
from studio.core.resolver import warning_codes as codes
from studio.core.resolver.explain import ACTIVATION_ORDER, ResolveRequest, ResolveWarning

WARNED_STATUSES = ("draft", "needs-review", "stale")


@dataclass(slots=True)
class PackPlan:
    """What the selector needs to know about one pack for this request."""

    pack: Pack
    """The pack as the client sees it (overrides applied)."""
    original: Pack
    activation: str
    gate: tuple[str, str] | None = None
    """(reason, detail) when the whole pack is held back."""
    warnings: list[ResolveWarning] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.pack.name

    @property
    def profile(self) -> str:
        return self.pack.effective_profile

    @property
    def mode(self) -> str:
        return self.pack.runtime_mode


def with_overrides(pack: Pack, profile: str | None, mode: str | None, grounding: str | None) -> Pack:
    """A shallow copy of ``pack`` whose frontmatter says the overridden profile, mode and grounding."""
    fm = pack.frontmatter
    if fm is None or not (profile or mode or grounding):
        return pack
    data = dict(fm.data)
    if profile in PROFILES:
        data["profile"] = profile
    if mode in RUNTIME_MODES:
        runtime = dict(data["runtime"]) if isinstance(data.get("runtime"), dict) else {}
        runtime["mode"] = mode
        data["runtime"] = runtime
    if grounding:
        data["grounding"] = grounding
    new_fm = copy.copy(fm)
    new_fm.data = data
    knowledge = copy.copy(pack.knowledge)
    assert knowledge is not None
    knowledge.frontmatter = new_fm
    return replace(pack, knowledge=knowledge)


def plan_packs(request: ResolveRequest) -> list[PackPlan]:
    """One plan per distinct pack, in wrapper order (persona first, digest 6.4 and our tie-breaks)."""
    plans: list[PackPlan] = []
    seen: set[str] = set()
    for original in request.packs:
        key = str(original.root)
        if key in seen:  # 6.9: de-duplicate activations
            continue
        seen.add(key)
        pack = with_overrides(original, request.profile_override, request.mode_override, request.grounding_override)
        activation = request.activation.get(original.name, "explicit")
        plan = PackPlan(pack, original, activation)
        _gate_and_warn(plan, request.confirmed)
        plans.append(plan)
    plans.sort(key=_order_key)
    return plans


def _order_key(plan: PackPlan) -> tuple[int, int, int, str]:
    # Persona before data (6.4); then explicit > implicit > resolver-driven; ready first; then name.
    return (0 if plan.mode == "persona" else 1, ACTIVATION_ORDER.get(plan.activation, 3),
            0 if plan.pack.status == "ready" else 1, plan.name)


def _gate_and_warn(plan: PackPlan, confirmed: set[str]) -> None:
    pack, name = plan.pack, plan.name
    status = pack.status

    def warn(code: Code, message: str) -> None:
        plan.warnings.append(ResolveWarning.of(code, message, None, name))

    if not plan.original.loads:
        plan.gate = ("pack-not-loadable", "The pack is skipped or quarantined by validation; fix its errors first.")
        warn(codes.PACK_NOT_LOADABLE,
             "Pack is not loadable (validation skipped or quarantined it); nothing was selected.")
        return
    if status == "archived":
        plan.gate = ("status-gated", "Archived packs are never loaded; change the status to load it.")
        warn(codes.PACK_ARCHIVED, "Pack status is archived; it was excluded.")
        return
    if status == "disputed":
        if name not in confirmed:
            plan.gate = ("status-gated", f"The pack is disputed; confirm it explicitly (--confirm {name}) to load it.")
            warn(codes.PACK_DISPUTED,
                 f"Pack status is disputed; not loaded without explicit confirmation (--confirm {name}).")
            return
        warn(codes.PACK_DISPUTED_CONFIRMED,
             "Pack status is disputed; loaded because you confirmed it. Verify claims before use.")
    elif status in WARNED_STATUSES:
        warn(codes.PACK_STATUS, f"Pack status is {status}.")
    elif status is None:
        warn(codes.PACK_NO_STATUS, "Pack declares no status; treat it as unreviewed.")
    if pack.trust == "unreviewed":
        warn(codes.PACK_UNREVIEWED, "Pack trust is unreviewed; its content has not been checked by a person.")
    if plan.profile == "document-first" and plan.pack.primary_document is None:
        warn(codes.NO_PRIMARY_DOCUMENT,
             "document-first pack without a usable metadata.primaryDocument; falling back to compiled/.")
    elif plan.pack.primary_document and not is_file(pack.root / plan.pack.primary_document):
        warn(codes.PRIMARY_DOCUMENT_MISSING, f"metadata.primaryDocument {plan.pack.primary_document} does not exist.")
