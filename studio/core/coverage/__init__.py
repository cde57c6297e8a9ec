"""Coverage and gaps: which tasks a pack is known to face it can answer, which it cannot, and drafts for the gaps.

Public API: ``compute_coverage`` (the report), ``cluster_gaps`` (similar unanswered tasks as one gap),
``draft_gap`` (the planned edits, as diffs) and ``apply_draft`` (write them atomically), with their types.
"""

from __future__ import annotations

from studio.core.coverage.clusters import GapCluster, cluster_gaps
from studio.core.coverage.draft import GapDraft, PlannedEdit, apply_draft, draft_gap
from studio.core.coverage.model import CoverageOptions, CoverageReport, CoverageTask, SkippedInput
from studio.core.coverage.report import compute_coverage

__all__ = [
    "CoverageOptions", "CoverageReport", "CoverageTask", "GapCluster", "GapDraft", "PlannedEdit", "SkippedInput",
    "apply_draft", "cluster_gaps", "compute_coverage", "draft_gap",
]
