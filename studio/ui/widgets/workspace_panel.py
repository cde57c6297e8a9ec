"""The Workspace dock: a filter box over the pack tree; activating a file asks the window to open it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt, Signal
from PySide6.QtWidgets import QLineEdit, QTreeView, QVBoxLayout, QWidget

from studio.core.model import Pack
from studio.ui.models.filtering import change_filter
from studio.ui.models.pack_tree import PackTreeModel, Role
from studio.ui.widgets.pack_row_delegate import PackRowDelegate

AUTO_EXPAND_LIMIT = 300
"""Groups up to this many packs are expanded automatically."""
_ROW_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable


class PackFilterProxy(QSortFilterProxyModel):
    """Matches packs by name/status/type/trust/description; groups stay only while they hold a match."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setRecursiveFilteringEnabled(True)
        self.needle = ""

    def set_needle(self, text: str) -> None:
        change_filter(self, lambda: setattr(self, "needle", text.strip().lower()))

    def flags(self, index: QModelIndex | QPersistentModelIndex) -> Qt.ItemFlag:
        # Every row has the same flags (the tree model keeps Qt's default). Answering here saves mapping
        # the index to the source (a Python call) for each of the two flags() calls per row that
        # QTreeView makes when it expands a group of a thousand packs.
        return _ROW_FLAGS if index.isValid() else Qt.ItemFlag.NoItemFlags

    def filterAcceptsRow(self, row: int, parent: QModelIndex | QPersistentModelIndex) -> bool:
        model = self.sourceModel()
        if not isinstance(model, PackTreeModel):
            return False
        node = model.node_at(row, parent)  # direct access: this runs for every row on every insert
        if node is None or node.kind == "group":
            return False  # a group is shown only through a matching child (recursive filtering)
        return not self.needle or self.needle in PackTreeModel.filter_text(node)


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
