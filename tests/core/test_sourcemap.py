"""One source-map reader: the resolver, the evidence view and the content checks read the same claims, under one
limit, and see the same findings."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from studio.core.checks import CheckContext, source_map_schema
from studio.core.evidence import build_evidence
from studio.core.pack import load_pack
from studio.core.resolver import ResolveRequest
from studio.core.resolver.plan import plan_packs
from studio.core.resolver.session import ResolverSession
from studio.core.sourcemap import MAX_SOURCE_MAP_BYTES, SourceClaim, read_source_map

KNOWLEDGE = ("---\nname: mapped\ndescription: A pack with a source map.\ntype: domain-reference\nstatus: ready\n"
             "profile: wiki-first\n---\n# Mapped\n")


def _claim(i: int, **extra: object) -> dict[str, object]:
    return {"claim_id": f"c{i}", "text": f"The widget weighs {i} kg.", "status": "supported",
            "source": {"path": "sources/notes.md", "anchor": "#L2"}, "compiled_into": ["compiled/facts.md"], **extra}


def _pack(make_pack: Callable[..., Path], source_map: str) -> Path:
    return make_pack("mapped", KNOWLEDGE, {"compiled/facts.md": "# Facts\n\nThe widget weighs 2 kg.\n",
                                           "sources/notes.md": "# Notes\nThe widget weighs 2 kg.\n",
                                           "indexes/source-map.json": source_map})


def _callers(root: Path) -> tuple[list[str], list[str], list[str]]:
    """Claim ids as the resolver, the evidence view and the review reasons' reader see them."""
    pack = load_pack(root)
    [plan] = plan_packs(ResolveRequest("widget", [pack]))
    prepared = ResolverSession().prepare(plan)
    resolver_ids = [c.claim_id for claims in prepared.source_map.by_target.values() for c in claims]
    evidence_ids = [c.claim.claim_id for c in build_evidence(root).claims]
    return sorted(set(resolver_ids)), evidence_ids, [c.claim_id for c in read_source_map(root).claims]


def test_a_map_between_the_old_limits_is_read_by_every_caller(make_pack: Callable[..., Path]) -> None:
    """The resolver refused maps over 4 MiB while the evidence view and the checks read up to 8 MiB."""
    padding = "x" * (5 * 1_048_576)
    root = _pack(make_pack, json.dumps({"claims": [_claim(1, note=padding)]}))
    assert (root / "indexes/source-map.json").stat().st_size < MAX_SOURCE_MAP_BYTES
    resolver_ids, evidence_ids, reader_ids = _callers(root)
    assert resolver_ids == evidence_ids == reader_ids == ["c1"]


def test_every_caller_gets_the_same_claim_type(make_pack: Callable[..., Path]) -> None:
    root = _pack(make_pack, json.dumps({"claims": [_claim(1), _claim(2)]}, indent=2))
    pack = load_pack(root)
    [plan] = plan_packs(ResolveRequest("widget", [pack]))
    prepared = ResolverSession().prepare(plan)
    [resolver_claims] = prepared.source_map.by_target.values()
    evidence_claims = [c.claim for c in build_evidence(root).claims]
    assert all(isinstance(c, SourceClaim) for c in resolver_claims + evidence_claims)
    assert resolver_claims == evidence_claims
    assert resolver_claims[0].anchor == "sources/notes.md#L2"


def test_duplicate_keys_in_the_map_are_reported_by_validate_and_evidence(make_pack: Callable[..., Path]) -> None:
    text = '{"claims": [{"claim_id": "c1", "claim_id": "c2", "text": "t", "status": "supported",\n' \
           '  "source": {"path": "sources/notes.md"}, "compiled_into": [], "confidence": NaN}]}'
    root = _pack(make_pack, text)
    checked = {d.code for d in source_map_schema.check(CheckContext.for_pack(load_pack(root)))}
    shown = {d.code for d in build_evidence(root).diagnostics}
    for codes in (checked, shown):
        assert {"json-duplicate-key", "json-non-finite-number"} <= codes


def test_an_unreadable_map_is_one_positioned_finding_and_a_resolver_warning(make_pack: Callable[..., Path]) -> None:
    root = _pack(make_pack, '{"claims": [\n  {"claim_id": }\n]}')
    source_map = read_source_map(root)
    [finding] = source_map.diagnostics
    assert (finding.code, finding.line) == ("source-map-malformed", 2)
    assert source_map.problem is not None and "not valid JSON" in source_map.problem
    assert source_map.claims == []
