"""The panels' tables of records (runs, claims, cases, packs to review...): one record a line, picked one at a time.

``record_table`` is the plain one, ``sorted_row_table`` the read-only, sortable one the Problems dock and Runs mode
show; ``size_columns`` gives fixed column widths to these and to the panels' trees.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QAbstractItemModel, Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView


def record_table(model: QAbstractItemModel) -> QTableView:
    """A table over ``model`` showing a record a line: whole rows selected one at a time, no row numbers, and long
    text cut with an ellipsis at its end (wrapped, it would show half a second line in a one-line row)."""
    table = QTableView()
    table.setModel(model)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.verticalHeader().hide()
    table.setWordWrap(False)
    table.setTextElideMode(Qt.TextElideMode.ElideRight)
    return table


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


def select_first(table: QTableView, role: int, wanted: Callable[[object], bool]) -> bool:
    """Select the first row, in the order shown, whose first cell gives a ``wanted`` value under ``role`` (the
    row's item), as a click would; False when no row does."""
    model = table.model()
    for row in range(model.rowCount()):
        if wanted(model.index(row, 0).data(role)):
            table.selectRow(row)
            return True
    return False


def size_columns(header: QHeaderView, widths: Sequence[int], stretch: int | None = None) -> None:
    """The first columns of a table's or tree's ``header`` get ``widths`` (0 leaves that one as it is); column
    ``stretch``, if given, takes the rest of the width, and the last column no longer does.

    Fixed widths: fitting the columns to their contents measures every cell, at every refill.
    """
    if stretch is not None:
        header.setStretchLastSection(False)
    for column, width in enumerate(widths):
        if width:
            header.resizeSection(column, width)
    if stretch is not None:
        header.setSectionResizeMode(stretch, QHeaderView.ResizeMode.Stretch)
