"""The read-only, sortable, one-row-at-a-time table the Problems dock and Runs mode both show."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, Qt
from PySide6.QtWidgets import QAbstractItemView, QTableView


def sorted_row_table(model: QAbstractItemModel) -> QTableView:
    """A table over ``model``, sorted by its first column, selecting whole rows one at a time, never editing."""
    table = QTableView()
    table.setModel(model)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSortingEnabled(True)
    table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    return table
