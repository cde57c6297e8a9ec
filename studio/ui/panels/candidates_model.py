"""CandidateTableModel: every item the resolver saw, selected or skipped, with its reason; plus its filter."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QSortFilterProxyModel, Qt
from PySide6.QtGui import QColor

from studio.core.resolver import Decision, ResolveResult
from studio.ui.panels._table import ItemTableModel, ModelIndex

COLUMNS = ("", "Pack", "Path", "Section", "Lines", "Tokens", "Score", "Reason")
ROW_ROLE = Qt.ItemDataRole.UserRole + 40
SORT_ROLE = Qt.ItemDataRole.UserRole + 41
SKIPPED_COLOR = QColor("#8a8f98")


@dataclass(frozen=True, slots=True)
class CandidateRow:
    decision: Decision
    selected: bool


def rows_of(result: ResolveResult) -> list[CandidateRow]:
    """Selected items first (in fence order), then every skipped one, pack by pack."""
    rows = [CandidateRow(d, True) for p in result.packs for d in p.selected]
    rows.extend(CandidateRow(d, False) for p in result.packs for d in p.skipped)
    return rows


class CandidateTableModel(ItemTableModel[CandidateRow]):
    columns = COLUMNS

    def set_result(self, result: ResolveResult | None) -> None:
        self.set_items(rows_of(result) if result else [])

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not self.valid(index):
            return None
        row = self.items[index.row()]
        d = row.decision
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            lines = f"{d.lines[0]}-{d.lines[1]}" if d.lines else ""
            tokens = "" if d.tokens is None else f"{d.tokens:,}"
            score = "" if d.score is None else f"{d.score:.2f}"
            return ("selected" if row.selected else "skipped", d.pack, d.path, d.section or "", lines, tokens,
                    score, d.reason)[col]
        if role == SORT_ROLE:
            return (0 if row.selected else 1, d.pack, d.path, d.section or "", d.lines[0] if d.lines else 0,
                    -1 if d.tokens is None else d.tokens, -1.0 if d.score is None else d.score, d.reason)[col]
        if role == Qt.ItemDataRole.ForegroundRole and not row.selected:
            return SKIPPED_COLOR
        if role == Qt.ItemDataRole.ToolTipRole:
            return d.detail or d.reason
        if role == ROW_ROLE:
            return row
        return None


class CandidateFilterProxy(QSortFilterProxyModel):
    """Filters by a text needle (path, section, reason, pack) and by selected / skipped."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.needle = ""
        self.show_selected = True
        self.show_skipped = True
        self.setSortRole(SORT_ROLE)

    def set_needle(self, text: str) -> None:
        self.beginFilterChange()
        self.needle = text.strip().lower()
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def set_shown(self, selected: bool, skipped: bool) -> None:
        self.beginFilterChange()
        self.show_selected, self.show_skipped = selected, skipped
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, source_row: int, parent: ModelIndex) -> bool:
        row = self.sourceModel().index(source_row, 0, parent).data(ROW_ROLE)
        if not isinstance(row, CandidateRow):
            return False
        if not (self.show_selected if row.selected else self.show_skipped):
            return False
        d = row.decision
        return not self.needle or self.needle in f"{d.pack} {d.path} {d.section or ''} {d.reason} {d.detail}".lower()
