"""ClaimTableModel: the source map's claims with their resolved anchors; broken ones are highlighted."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from studio.core.evidence import ClaimEvidence
from studio.ui.models.item_table import ItemTableModel

COLUMNS = ("Claim", "Text", "Status", "Source anchor", "Anchor", "Compiled into")
CLAIM_ROLE = Qt.ItemDataRole.UserRole + 30
BROKEN_BACKGROUND = QColor(198, 40, 40, 60)
_STATUS_COLORS = {"disputed": QColor("#c62828"), "stale": QColor("#b26a00"), "missing": QColor("#b26a00"),
                  "source-required": QColor("#b26a00")}


def is_broken(evidence: ClaimEvidence) -> bool:
    """The anchor names nothing readable, or a ``compiled_into`` target is gone."""
    return not evidence.excerpt.ok or any(state != "ok" for _path, state in evidence.compiled_into)


def anchor_text(evidence: ClaimEvidence) -> str:
    claim = evidence.claim
    return f"{claim.source_path}#{claim.fragment}" if claim.fragment else claim.source_path


class ClaimTableModel(ItemTableModel[ClaimEvidence]):
    columns = COLUMNS
    item_role = CLAIM_ROLE

    def cell(self, evidence: ClaimEvidence, col: int, role: int) -> Any:
        claim = evidence.claim
        if role == Qt.ItemDataRole.DisplayRole:
            compiled = ", ".join(p if s == "ok" else f"{p} ({s})" for p, s in evidence.compiled_into)
            return (claim.claim_id or "(no id)", claim.text, claim.status or "(none)", anchor_text(evidence),
                    evidence.excerpt.state.value, compiled)[col]
        if role == Qt.ItemDataRole.BackgroundRole and is_broken(evidence):
            return BROKEN_BACKGROUND
        if role == Qt.ItemDataRole.ForegroundRole and col == 2:
            return _STATUS_COLORS.get(claim.status)
        if role == Qt.ItemDataRole.ToolTipRole:
            problems = [d.message for d in evidence.diagnostics]
            return "\n".join(problems) if problems else claim.text
        return None
