"""Evidence: source maps, inline citations and anchors resolved to excerpts (the tier-4 view).

Read-only: files inside the pack are read with size limits; nothing outside the pack is ever opened.
"""

from __future__ import annotations

from studio.core.evidence.anchors import Anchor, AnchorKind, parse_anchor, slugify
from studio.core.evidence.citations import Citation, parse_citations
from studio.core.evidence.excerpts import Excerpt, ExcerptState, SourceReader
from studio.core.evidence.report import ClaimEvidence, EvidenceReport, build_evidence
from studio.core.sourcemap import SourceClaim, read_source_map

__all__ = [
    "Anchor", "AnchorKind", "Citation", "ClaimEvidence", "EvidenceReport", "Excerpt", "ExcerptState",
    "SourceClaim", "SourceReader", "build_evidence", "parse_anchor", "parse_citations", "read_source_map",
    "slugify",
]
