"""The Workspace dock: a filter box over the pack tree; activating a file asks the window to open it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QModelIndex, QRegularExpression, QSortFilterProxyModel, Signal
from PySide6.QtWidgets import QLineEdit, QTreeView, QVBoxLayout, QWidget

from studio.core.model import Pack
from studio.ui.models.pack_tree import PackTreeModel, Role
from studio.ui.widgets.pack_row_delegate import PackRowDelegate

AUTO_EXPAND_LIMIT = 300
"""Groups up to this many packs are expanded automatically."""


class PackFilterProxy(QSortFilterProxyModel):
    """Matches packs by name/status/type/trust/description and files by name; a group shows only while it
    holds a match, so empty groups stay hidden too.

    Qt's own expression filter on ``Role.FILTER_TEXT`` does the matching, so filtering (and every insertion
    while a scan runs) stays in C++ instead of calling Python once per row. Groups have an empty filter
    text, which no expression here matches: they are accepted only through a matching child.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setRecursiveFilteringEnabled(True)
        self.setFilterRole(Role.FILTER_TEXT)
        self.needle = ""
        self._apply()

    def set_needle(self, text: str) -> None:
        needle = text.strip().lower()
        if needle != self.needle:
            self.needle = needle
            self._apply()

    def _apply(self) -> None:
        # No needle: any non-empty text (every pack and file row, and the placeholder of an unlisted folder
        # so that its expander shows). A needle: its plain text, which the placeholder never contains.
        pattern = QRegularExpression.escape(self.needle) if self.needle else "."
        self.setFilterRegularExpression(
            QRegularExpression(pattern, QRegularExpression.PatternOption.CaseInsensitiveOption))


class WorkspacePanel(QWidget):
    """Signals:
        file_activated(Path): a file row was double-clicked or Enter was pressed on it.
        pack_selected(object): the current row belongs to this Pack (or None).
    """

    file_activated = Signal(Path)
    pack_selected = Signal(object)

    def __init__(self, model: PackTreeModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.proxy = PackFilterProxy(self)
        self.proxy.setSourceModel(model)
        self.filter = QLineEdit(placeholderText="Filter packs (name, status, type, trust)…")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self.proxy.set_needle)
        self.tree = QTreeView()
        self.tree.setModel(self.proxy)
        self.tree.setHeaderHidden(True)
        self.tree.setUniformRowHeights(True)
        self.tree.setItemDelegate(PackRowDelegate(self.tree))
        self.tree.activated.connect(self._activated)
        self.tree.expanded.connect(lambda index: self.model.list_children(self.proxy.mapToSource(index)))
        self.tree.doubleClicked.connect(self._activated)
        self.tree.selectionModel().currentChanged.connect(self._current_changed)
        self.model.rowsInserted.connect(self._expand_groups)
        self.auto_expand = True
        self.setMinimumWidth(330)  # room for name, status chip, trust and profile badges
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.filter)
        layout.addWidget(self.tree)

    def expect(self, total: int) -> None:
        """The scan found ``total`` packs (0: not known yet): expand groups as packs arrive only when that
        stays cheap. Until the total is known, groups wait for the end of the scan."""
        self.auto_expand = 0 < total <= AUTO_EXPAND_LIMIT

    def scan_finished(self) -> None:
        """Expand the groups that are small enough to lay out at once; big ones wait for a click."""
        for row in range(self.proxy.rowCount()):
            index = self.proxy.index(row, 0)
            if self.proxy.rowCount(index) <= AUTO_EXPAND_LIMIT:
                self.tree.expand(index)
        self.auto_expand = True

    def _expand_groups(self, parent: QModelIndex, first: int, last: int) -> None:
        # Every insertion under an expanded group re-lays out all its rows (Python calls per row), so a
        # large scan fills collapsed groups, whose titles count up, and expands them at the end.
        if self.auto_expand and parent.isValid() and parent.data(Role.KIND) == "group":
            self.tree.expand(self.proxy.mapFromSource(parent))

    def _activated(self, index: QModelIndex) -> None:
        if index.data(Role.KIND) == "file":
            self.file_activated.emit(Path(index.data(Role.PATH)))

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        pack = current.data(Role.PACK)
        self.pack_selected.emit(pack if isinstance(pack, Pack) else None)

    def select_pack(self, root: Path) -> None:
        index = self.proxy.mapFromSource(self.model.index_for_pack(root))
        if index.isValid():
            self.tree.setCurrentIndex(index)
