"""Run records of a resolve: the ``context-resolution`` record (digest 7.3) and the step-8 usage record.

``context_record`` builds a dict that carries only the schema's keys (the schema forbids extras, so the
per-item reasons stay in the studio's own JSON output). ``write_context_record`` is the only place the
resolver writes into a pack: on an explicit user action, atomically, to ``runs/context-<UTC>.json``
with a ``-2``, ``-3`` ... suffix when a record of the same second exists (exclusive create, no overwrite).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from studio import __version__
from studio.core.atomic import add_record, numbered
from studio.core.jsonwrite import dumps
from studio.core.model import GROUNDING_POLICIES, PROFILES, STATUSES, TRUST_LEVELS
from studio.core.resolver.explain import PackResolution, ResolveResult

RESOLVER_INFO = {"tool": "knowledge-pack-studio", "version": __version__, "strategy": "profile-aware"}
MAX_NAME_ATTEMPTS = 1000


def run_status(result: ResolveResult) -> str:
    """``failed`` when nothing loaded; else the gravest pack condition; ``passed`` when clean."""
    active = [p for p in result.packs if p.selected]
    if not active:
        return "failed"
    statuses = {p.pack.status for p in active}
    for status in ("disputed", "stale", "needs-review"):
        if status in statuses:
            return status
    if any(w.severity in ("warning", "error") for p in active for w in p.warnings):
        return "needs-review"
    return "passed"


def context_record(result: ResolveResult, run_id: str) -> dict[str, Any]:
    """The ``context-resolution`` record for ``result`` (valid against the 7.3 schema; no extra keys)."""
    packs = [_activated(p) for p in result.packs] or []
    record: dict[str, Any] = {
        "run_id": run_id,
        "query": result.task.strip() or "(empty task)",
        "status": run_status(result),
        "resolver": dict(RESOLVER_INFO),
        "activated_packs": packs,
        "token_estimate": result.tokens_used,
        "wrapper_order": result.wrapper_order,
    }
    if result.missing:
        record["missing"] = list(result.missing)
    return record


def _activated(p: PackResolution) -> dict[str, Any]:
    pack = p.pack
    entry: dict[str, Any] = {
        "name": p.name,
        "activation": p.activation,
        "selected_files": list(dict.fromkeys(d.path for d in p.selected)),
    }
    if pack.status in STATUSES:
        entry["status"] = pack.status
    if pack.trust in TRUST_LEVELS:
        entry["trust"] = pack.trust
    if p.grounding in GROUNDING_POLICIES:
        entry["grounding"] = p.grounding
    if p.source_anchors:
        entry["source_anchors"] = list(p.source_anchors)
    if p.warnings:
        entry["warnings"] = [w.to_json() for w in p.warnings]
    if p.profile in PROFILES:
        entry["profile"] = p.profile
    entry["runtime_mode"] = p.runtime_mode
    documents = [d.path for d in p.selected if d.path.startswith("documents/")]
    if documents:
        entry["selected_documents"] = list(dict.fromkeys(documents))
    splits = [d.path for d in p.selected if d.path.startswith("compiled/splits/")]
    if splits:
        entry["selected_splits"] = splits
    if p.wrapper_order is not None:
        entry["wrapper_order"] = p.wrapper_order
    skill = pack.produced_by
    if skill and isinstance(skill.get("name"), str) and skill["name"]:
        entry["builder_skill"] = {k: str(skill[k]) for k in ("name", "version", "digest") if skill.get(k)}
    return entry


def usage_records(result: ResolveResult, now: datetime | None = None) -> list[dict[str, Any]]:
    """One adding-support step-8 usage record per pack that contributed context."""
    stamp = (now or datetime.now(UTC)).strftime("%Y-%m-%dT%H:%M:%SZ")
    gaps = result.citation_gaps
    out = []
    for p in result.packs:
        if not p.selected:
            continue
        record: dict[str, Any] = {"pack": p.name}
        if p.pack.version:
            record["version"] = p.pack.version
        if p.pack.status in STATUSES:
            record["status"] = p.pack.status
        record |= {"profile": p.profile, "runtime_mode": p.runtime_mode,
                   "selected_files": list(dict.fromkeys(d.path for d in p.selected))}
        if p.grounding:
            record["grounding"] = p.grounding
        record["citation_gaps"] = [g for g in gaps if "missing" in g or str(g.get("path", "")).split("#")[0]
                                   in record["selected_files"]]
        record["warnings"] = [w.to_json() for w in p.warnings]
        record["timestamp"] = stamp
        out.append(record)
    return out


def write_context_record(result: ResolveResult, pack_root: Path, now: datetime | None = None) -> Path:
    """Write ``runs/context-<UTC>.json`` into ``pack_root`` atomically; never overwrites. Returns the path."""
    stamp = (now or datetime.now(UTC)).strftime("%Y-%m-%dT%H-%M-%SZ")

    def names() -> Iterator[tuple[str, str]]:
        for rel in numbered(f"runs/context-{stamp}", MAX_NAME_ATTEMPTS):
            run_id = rel.removeprefix("runs/").removesuffix(".json")
            yield rel, dumps(context_record(result, run_id), indent=2) + "\n"

    # By descriptor from the pack root: a runs/ swapped for a symlink meanwhile is refused, not followed.
    return add_record(pack_root, names())
