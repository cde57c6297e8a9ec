"""RunsTableModel: a pack's run records as a timeline table, and a proxy that filters by kind and status."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSortFilterProxyModel, Qt
from PySide6.QtGui import QColor

from studio.core.runs import RunRecord
from studio.core.runs.timestamps import format_time
from studio.ui.models.item_table import ItemTableModel, ModelIndex

COLUMNS = ("Time", "Kind", "Status", "Validity", "Summary", "File")
RECORD_ROLE = Qt.ItemDataRole.UserRole + 20
SORT_ROLE = Qt.ItemDataRole.UserRole + 21
ALL = ""
"""Filter value meaning "any kind" / "any status"."""
_PROBLEM_COLOR = QColor("#c62828")


class RunsTableModel(ItemTableModel[RunRecord]):
    """One row per record, in the order the core returned them (time order)."""

    columns = COLUMNS
    item_role = RECORD_ROLE

    def kinds(self) -> list[str]:
        return sorted({r.kind.value for r in self.items})

    def statuses(self) -> list[str]:
        return sorted({r.status for r in self.items if r.status})

    def cell(self, record: RunRecord, col: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            time = format_time(record.timestamp) if record.timestamp else "(no time)"
            return (time, record.kind.value, record.status or "", record.validity.value, record.summary,
                    record.path)[col]
        if role == SORT_ROLE:
            # Time sorts by the real instant; records without one sort last, as in the core's order.
            stamp = record.timestamp.timestamp() if record.timestamp else float("inf")
            return (stamp, record.kind.value, record.status or "", record.validity.value, record.summary,
                    record.path)[col]
        if role == Qt.ItemDataRole.ForegroundRole and col == 3 and record.validity.is_problem:
            return _PROBLEM_COLOR
        if role == Qt.ItemDataRole.ToolTipRole:
            if record.time_source.value != "field" and col == 0:
                return f"Time taken from the file's {record.time_source.value}"
            return record.summary or record.path
        return None


class RunsFilterProxy(QSortFilterProxyModel):
    """Keeps rows whose kind and status match the chosen filters (``ALL`` matches anything)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.kind = ALL
        self.status = ALL
        self.setSortRole(SORT_ROLE)

    def set_kind(self, kind: str) -> None:
        self.beginFilterChange()
        self.kind = kind
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def set_status(self, status: str) -> None:
        self.beginFilterChange()
        self.status = status
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, row: int, parent: ModelIndex) -> bool:
        record = self.sourceModel().index(row, 0, parent).data(RECORD_ROLE)
        if not isinstance(record, RunRecord):
            return False
        if self.kind and record.kind.value != self.kind:
            return False
        return not self.status or (record.status or "") == self.status
