"""The desktop app's job panels: resolver simulator, runs browser with evidence, and dispute review.

Each panel is a QWidget built from core objects; it adapts the core and holds no domain logic. All of
them emit ``open_file_requested(Path, int)`` for the main window to open a file at a line.
"""

from __future__ import annotations

from studio.ui.panels.evals_panel import EvalsPanel
from studio.ui.panels.evidence_panel import EvidencePanel
from studio.ui.panels.resolver_panel import ResolverPanel
from studio.ui.panels.review_panel import ReviewPanel
from studio.ui.panels.runs_panel import RunsPanel

__all__ = ["EvalsPanel", "EvidencePanel", "ResolverPanel", "ReviewPanel", "RunsPanel"]
