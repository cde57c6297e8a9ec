"""ItemTableModel: the shared base of the panels' read-only table models (a list of core objects, fixed columns)."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from studio.ui.shown_text import shown_as

ModelIndex = QModelIndex | QPersistentModelIndex
T = TypeVar("T")
_ROOT = QModelIndex()


class ItemTableModel(QAbstractTableModel, Generic[T]):
    """Rows are ``items``; subclasses name ``columns`` and answer ``cell``. The model never edits anything.

    A string ``cell`` gives for display or as a tooltip is pack text more often than not (a claim, a run record's
    field, a path): ``data`` passes it through ``short_line`` or ``as_typed``, so no table shows a control, reads
    markup as rich text or lays out a megabyte.
    """

    columns: tuple[str, ...] = ()
    item_role: int | None = None
    """The role under which a row gives its item itself (how a panel reads the object behind the selected row)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.items: list[T] = []

    def set_items(self, items: list[T]) -> None:
        self.beginResetModel()
        self.items = list(items)
        self.endResetModel()

    def item(self, row: int) -> T:
        return self.items[row]

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """The item behind ``index``'s row under ``item_role``; for any other role, what ``cell`` says of it."""
        if not self.valid(index):
            return None
        item = self.items[index.row()]
        if role == self.item_role:
            return item
        return shown_as(self.cell(item, index.column(), role), role)

    def cell(self, item: T, column: int, role: int) -> Any:
        """What ``column`` shows of ``item`` for ``role`` (None: nothing, as for a role a subclass does not answer)."""
        return None

    def valid(self, index: ModelIndex) -> bool:
        return index.isValid() and 0 <= index.row() < len(self.items) and 0 <= index.column() < len(self.columns)

    def rowCount(self, parent: ModelIndex = _ROOT) -> int:
        return 0 if parent.isValid() else len(self.items)

    def columnCount(self, parent: ModelIndex = _ROOT) -> int:
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        horizontal = orientation == Qt.Orientation.Horizontal
        if horizontal and role == Qt.ItemDataRole.DisplayRole and 0 <= section < len(self.columns):
            return self.columns[section]
        return None
