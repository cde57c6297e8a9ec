"""Everything the Runs and Evidence views show for one pack, read in one go off the GUI thread (Qt-free)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from studio.core.evidence import EvidenceReport, build_evidence
from studio.core.feedback import FeedbackSummary, aggregate_feedback
from studio.core.model import Pack
from studio.core.provenance import ProvenanceReport, read_provenance
from studio.core.runs import RunsReport, read_runs
from studio.core.runs.stats import RunStats, compute_stats


@dataclass(slots=True)
class PackAudit:
    """The run records, their statistics, the provenance, the evidence and the usage feedback of one pack."""

    pack: Pack
    runs: RunsReport
    stats: RunStats
    provenance: ProvenanceReport
    evidence: EvidenceReport
    feedback: FeedbackSummary

    @property
    def root(self) -> Path:
        return Path(self.pack.root)


def read_pack_audit(pack: Pack) -> PackAudit:
    """Read ``runs/``, compute the statistics and resolve the evidence. Reads only; never raises on bad files."""
    runs = read_runs(pack.root)
    stats = compute_stats(runs, pack.root, pack.name)
    provenance = read_provenance(pack, runs)
    evidence = build_evidence(pack.root, runs)
    return PackAudit(pack, runs, stats, provenance, evidence, aggregate_feedback(runs, pack.name, pack.root))
