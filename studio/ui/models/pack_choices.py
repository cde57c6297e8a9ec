"""PackChoicesModel: packs to pick from in a combo box, set in one call however many there are.

A combo box filled with ``addItem`` builds one Qt item per pack: 10,000 packs held the window for a tenth of a
second each time a scan ended. This model hands the combo a Python list instead; the combo asks only for the
rows it shows, and finding a pack's row is a dictionary lookup, not ``findData`` asking every row. Reading and
sorting 10,000 names still took 20-35 ms, so a large workspace's rows are made in a worker thread.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, QPersistentModelIndex, Qt, Signal

from studio.core.model import Pack
from studio.core.terminal import printable
from studio.ui import workers

ModelIndex = QModelIndex | QPersistentModelIndex
_NO_PARENT = QModelIndex()


def _rows_of(packs: Sequence[Pack], keep: str) -> tuple[list[tuple[str, str]], str]:
    return sorted((p.name, str(p.root)) for p in packs), keep


class PackChoicesModel(QAbstractListModel):
    """A first row meaning "every pack" (data ``""``), then one row per pack sorted by name and folder: the name
    shown, the pack folder as the row's data (``Qt.UserRole``, what ``QComboBox.currentData`` returns) and as its
    tooltip.

    Signals:
        rows_set(int): the rows of the latest ``set_packs`` are in place; the row of the pack it asked to keep.
    """

    rows_set = Signal(int)

    def __init__(self, everything: str = "All packs", parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._everything = everything
        self._rows: list[tuple[str, str]] = []
        self._row_of: dict[str, int] = {}
        self._work = workers.LatestWork(lambda made: self._apply(*made))

    def set_packs(self, packs: Sequence[Pack], keep: str = "") -> None:
        """List ``packs``; ``rows_set`` then gives the row of the pack folder ``keep`` (0 when it is gone)."""
        self._work.run(len(packs), _rows_of, list(packs), keep)

    def _apply(self, rows: list[tuple[str, str]], keep: str) -> None:
        self.beginResetModel()
        self._rows = rows
        self._row_of = {root: i + 1 for i, (_name, root) in enumerate(rows)}
        self.endResetModel()
        self.rows_set.emit(self.row_of(keep))

    def row_of(self, root: str) -> int:
        """The row of the pack at ``root``; 0 (every pack) when it is not listed."""
        return self._row_of.get(root, 0)

    def rowCount(self, parent: ModelIndex = _NO_PARENT) -> int:  # noqa: N802 (Qt's name)
        return 0 if parent.isValid() else len(self._rows) + 1

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        row = index.row()
        if not index.isValid() or not 0 <= row <= len(self._rows):
            return None
        if row == 0:
            if role == Qt.ItemDataRole.DisplayRole:
                return self._everything
            return "" if role == Qt.ItemDataRole.UserRole else None
        name, root = self._rows[row - 1]
        if role == Qt.ItemDataRole.DisplayRole:
            return printable(name)
        if role in (Qt.ItemDataRole.UserRole, Qt.ItemDataRole.ToolTipRole):
            return root
        return None
