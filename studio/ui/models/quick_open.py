"""Quick open's result list: the ranked matches as list rows."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from studio.core.quick_open import EntryKind, Match
from studio.ui.icons import icon

ModelIndex = QModelIndex | QPersistentModelIndex
MATCH_ROLE = Qt.ItemDataRole.UserRole + 1


class QuickOpenModel(QAbstractListModel):
    """The ranked matches as list rows; ``MATCH_ROLE`` gives the ``Match`` itself."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._results: list[Match] = []

    def set_results(self, results: list[Match]) -> None:
        self.beginResetModel()
        self._results = list(results)
        self.endResetModel()

    def match_at(self, row: int) -> Match | None:
        return self._results[row] if 0 <= row < len(self._results) else None

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self._results)

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        found = self.match_at(index.row()) if index.isValid() else None
        if found is None:
            return None
        entry = found.entry
        if role == Qt.ItemDataRole.DisplayRole:
            return entry.text
        if role == Qt.ItemDataRole.ToolTipRole:
            return str(entry.path)
        if role == Qt.ItemDataRole.DecorationRole:
            return icon("pack" if entry.kind is EntryKind.PACK else "file")
        if role == MATCH_ROLE:
            return found
        return None
