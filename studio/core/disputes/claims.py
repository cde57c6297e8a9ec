"""The claims a dispute can be about: source-map claims and ontology claims (``ontology/claims.json``), as one list.

Source-map claims (digest 7.4) carry a status and the files they were compiled into. Ontology claims (digest 2.3)
carry an evidence state (``verified``, ``weak``, ``needs-verification``, ``forbidden``); the standard gives no
key names for them, so the usual spellings are read (``id``/``claimId``, ``text``/``statement``,
``evidenceStatus``/``evidenceState``, ``reviewStatus``/``status``, ``compiledInto``) and anything of the wrong
type reads as empty. Both files are read by descriptor with a size limit; a file that cannot be read is an empty
list (validate reports it through its own checks).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.core.jsonread import read_pack_json
from studio.core.pack_fs import PackFS, held
from studio.core.sourcemap import SOURCE_MAP, read_source_map

ONTOLOGY_CLAIMS = "ontology/claims.json"
MAX_ONTOLOGY_BYTES = 8 * 1024 * 1024
MAX_NEAREST = 3
MAX_COMPARED_IDS = 20_000
"""Ids compared for "did you mean": the similarity is quadratic in id length, so the list is bounded too."""


@dataclass(frozen=True, slots=True)
class Claim:
    """One claim as the dispute tools see it, whichever file it comes from."""

    claim_id: str
    text: str
    origin: str
    """``source-map`` or ``ontology``."""
    status: str = ""
    """Source-map status (``confirmed``, ``disputed`` ...) or the ontology claim's review status."""
    evidence_state: str = ""
    """Ontology evidence state (``verified``, ``weak``, ``needs-verification``, ``forbidden``), or empty."""
    source: str = ""
    """``sources/x.md#L10`` style anchor, or empty for a claim without a source."""
    files: tuple[str, ...] = ()
    """Pack paths the claim is compiled into (``path`` or ``path#section``)."""
    declared_in: str = SOURCE_MAP

    def to_json(self) -> dict[str, Any]:
        return {"claim": self.claim_id, "text": self.text, "origin": self.origin, "status": self.status,
                "evidence_state": self.evidence_state, "source": self.source, "files": list(self.files)}


@dataclass(slots=True)
class ClaimIndex:
    """Every claim of a pack by id (the source map's first, then the ontology's for ids the map lacks)."""

    claims: dict[str, Claim] = field(default_factory=dict)

    def get(self, claim_id: str) -> Claim | None:
        return self.claims.get(claim_id)

    def nearest(self, claim_id: str) -> list[str]:
        """Up to three known ids that look like ``claim_id`` (for "unknown claim" messages)."""
        ids = list(self.claims)[:MAX_COMPARED_IDS]
        close = difflib.get_close_matches(claim_id[:200], ids, n=MAX_NEAREST, cutoff=0.4)
        if close:
            return close
        folded = claim_id.casefold()[:200]
        return [i for i in ids if folded and (folded in i.casefold() or i.casefold() in folded)][:MAX_NEAREST]


def read_claims(root: Path, fs: PackFS | None = None) -> ClaimIndex:
    """The pack's claims; never raises for bad pack content (what cannot be read is left out)."""
    index = ClaimIndex()
    with held(root, fs) as pack:
        for c in read_source_map(Path(root), pack).claims:
            if c.claim_id and c.claim_id not in index.claims:
                index.claims[c.claim_id] = Claim(c.claim_id, c.text, "source-map", c.status, "", c.anchor,
                                                 tuple(c.targets))
        for claim in _ontology_claims(pack):
            index.claims.setdefault(claim.claim_id, claim)
    return index


def _ontology_claims(fs: PackFS) -> list[Claim]:
    parsed = read_pack_json(fs, ONTOLOGY_CLAIMS, MAX_ONTOLOGY_BYTES)
    if parsed is None:
        return []
    value = parsed.value
    items = value.get("claims") if isinstance(value, dict) else value
    out: list[Claim] = []
    for raw in items if isinstance(items, list) else []:
        if not isinstance(raw, dict):
            continue
        claim_id = _first(raw, "id", "claimId", "claim_id")
        if not claim_id:
            continue
        source = raw.get("source")
        anchor = _first(source, "path") if isinstance(source, dict) else _first(raw, "source", "sourceRef")
        files = _strings(raw.get("compiledInto", raw.get("compiled_into")))
        out.append(Claim(claim_id, _first(raw, "text", "statement", "claim"), "ontology",
                         _first(raw, "reviewStatus", "status"),
                         _first(raw, "evidenceStatus", "evidenceState", "evidence_status", "evidence"), anchor,
                         (ONTOLOGY_CLAIMS, *files), ONTOLOGY_CLAIMS))
    return out


def _first(raw: dict[str, Any], *keys: str) -> str:
    for key in keys:
        value = raw.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return ""


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(v for v in value if isinstance(v, str) and v) if isinstance(value, list) else ()


__all__ = ["ONTOLOGY_CLAIMS", "Claim", "ClaimIndex", "read_claims"]
