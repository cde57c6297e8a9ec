"""Change a proxy's filter criteria in the way the running Qt version prefers."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QSortFilterProxyModel


def change_filter(proxy: QSortFilterProxyModel, mutate: Callable[[], None]) -> None:
    """Run ``mutate`` (which updates the criteria) and re-filter the rows.

    Qt 6.10 added begin/endFilterChange and deprecated invalidateFilter; older Qt only has the latter.
    """
    if hasattr(proxy, "beginFilterChange"):
        proxy.beginFilterChange()
        mutate()
        proxy.endFilterChange(QSortFilterProxyModel.Direction.Rows)
    else:  # pragma: no cover - Qt < 6.10
        mutate()
        proxy.invalidateFilter()
