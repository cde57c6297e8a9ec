"""Source-map claims added, removed or changed (naming the fields) between two versions, and status changes.

Claims are matched by ``claim_id``; a map that cannot be read has no claims (its finding says why, in the
findings section). When an id appears twice the first claim stands, as the resolver reads it.
"""

from __future__ import annotations

from studio.core.diff.report import ClaimChange, ClaimsDiff, StatusChange
from studio.core.sourcemap import SourceClaim, SourceMap

FIELDS = ("text", "status", "source_path", "fragment", "compiled_into", "document", "section_id")
"""The fields compared, named as ``SourceClaim`` names them (``source_path`` and ``fragment`` are the source)."""


def claims_of(source_map: SourceMap) -> dict[str, SourceClaim]:
    found: dict[str, SourceClaim] = {}
    for claim in source_map.claims:
        found.setdefault(claim.claim_id, claim)
    return found


def diff_claims(old: dict[str, SourceClaim], new: dict[str, SourceClaim]) -> ClaimsDiff:
    out = ClaimsDiff(added=sorted(new.keys() - old.keys()), removed=sorted(old.keys() - new.keys()))
    for claim_id in sorted(old.keys() & new.keys()):
        a, b = old[claim_id], new[claim_id]
        fields = tuple(name for name in FIELDS if getattr(a, name) != getattr(b, name))
        if fields:
            out.changed.append(ClaimChange(claim_id, fields))
        if a.status != b.status:
            out.status_changes.append(StatusChange(claim_id, a.status, b.status))
    return out
