"""The Workspace dock: a filter box over the pack tree; activating a file asks the window to open it, and a
row's context menu creates, renames and deletes files (``file_actions``)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QPoint, Qt, Signal
from PySide6.QtWidgets import QLineEdit, QMenu, QTreeView, QVBoxLayout, QWidget

from studio.core.model import Pack
from studio.ui.models.pack_filter import PackFilterProxy
from studio.ui.models.pack_tree import PackTreeModel, Role
from studio.ui.widgets.pack_file_actions import PackFileActions
from studio.ui.widgets.pack_row_delegate import PackRowDelegate

AUTO_EXPAND_LIMIT = 300
"""Groups up to this many packs are expanded automatically."""


class WorkspacePanel(QWidget):
    """Signals:
        file_activated(Path): a file row was double-clicked or Enter was pressed on it.
        pack_selected(object): the current row belongs to this Pack (or None).

    ``file_actions`` (a PackFileActions) emits ``file_created``, ``renamed`` and ``deleted`` after a change
    made from the context menu; the panel lists the folder again itself, the window reloads the pack.
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
        self.filter.textChanged.connect(self._filter_changed)
        self.tree = QTreeView()
        self.tree.setModel(self.proxy)
        self.tree.setHeaderHidden(True)
        self.tree.setUniformRowHeights(True)
        self.tree.setItemDelegate(PackRowDelegate(self.tree))
        self.tree.activated.connect(self._activated)
        self.tree.expanded.connect(self._expanded)
        self.tree.collapsed.connect(self._collapsed)
        # What the user expanded, kept across filtering: rows a needle hides lose their expanded state in
        # the view, and a typo in the filter box must not fold the whole tree away.
        self._open_rows: dict[str, QPersistentModelIndex] = {}
        self._restoring = False
        self.proxy.rowsInserted.connect(self._count_visible)
        self.proxy.rowsRemoved.connect(self._count_visible)
        self.tree.doubleClicked.connect(self._activated)
        self.tree.selectionModel().currentChanged.connect(self._current_changed)
        self.file_actions = PackFileActions(self)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._context_menu)
        self.file_actions.file_created.connect(lambda path: self.model.refresh_folder(path.parent))
        self.file_actions.renamed.connect(lambda old, new, _pack: self.model.refresh_folder(new.parent))
        self.file_actions.deleted.connect(lambda path: self.model.refresh_folder(path.parent))
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
        # Every insertion under an expanded group re-lays out and repaints its rows, so a large scan fills
        # collapsed groups, whose titles count up, and expands the small ones at the end.
        if self.auto_expand and parent.isValid() and parent.data(Role.KIND) == "group":
            self.tree.expand(self.proxy.mapFromSource(parent))

    # -- expanded rows and the filter --------------------------------------------------------------
    @staticmethod
    def _row_key(index: QModelIndex) -> str:
        if index.data(Role.KIND) == "group":
            return f"group:{index.data(Role.GROUP)}"
        return str(index.data(Role.PATH) or "")

    def _expanded(self, index: QModelIndex) -> None:
        source = self.proxy.mapToSource(index)
        self.model.list_children(source)
        if not self._restoring:
            self._open_rows[self._row_key(index)] = QPersistentModelIndex(source)

    def _collapsed(self, index: QModelIndex) -> None:
        if not self._restoring:
            self._open_rows.pop(self._row_key(index), None)

    def _filter_changed(self, text: str) -> None:
        self.proxy.set_needle(text)
        self._restoring = True
        try:
            if self.proxy.needle:
                self.tree.expandToDepth(0)  # the matches, not collapsed group titles
            else:  # back to the tree the user had: groups expanded only for the filter fold again
                for row in range(self.proxy.rowCount()):
                    group = self.proxy.index(row, 0)
                    if self._row_key(group) not in self._open_rows:
                        self.tree.collapse(group)
            for key, source in list(self._open_rows.items()):
                if not source.isValid():
                    del self._open_rows[key]  # the row is gone (a rescan, a removed pack)
                    continue
                index = self.proxy.mapFromSource(QModelIndex(source))
                if index.isValid():
                    self.tree.expand(index)
        finally:
            self._restoring = False
        self._count_visible()

    def _count_visible(self, parent: QModelIndex | None = None, _first: int = 0, _last: int = 0) -> None:
        """Group titles say how many packs the filter shows, as "Explicit (3 of 923)"."""
        if parent is not None and parent.isValid() and parent.data(Role.KIND) != "group":
            return  # files listed inside a pack: the titles count packs
        if not self.proxy.needle:
            self.model.show_visible_counts(None)
            return
        visible = {}
        for key, item in self.model.groups.items():
            visible[key] = self.proxy.rowCount(self.proxy.mapFromSource(item.index()))
        self.model.show_visible_counts(visible)

    def _activated(self, index: QModelIndex) -> None:
        if index.data(Role.KIND) == "file":
            self.file_activated.emit(Path(index.data(Role.PATH)))

    def _context_menu(self, pos: QPoint) -> None:
        menu = self.menu_at(self.tree.indexAt(pos))
        if menu is not None:
            menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            menu.popup(self.tree.viewport().mapToGlobal(pos))

    def menu_at(self, index: QModelIndex) -> QMenu | None:
        """The context menu for a pack, folder or file row (None for groups and placeholders)."""
        pack = index.data(Role.PACK) if index.isValid() else None
        path = index.data(Role.PATH) if index.isValid() else None
        if not isinstance(pack, Pack) or not path or index.data(Role.KIND) not in ("pack", "dir", "file"):
            return None
        return self.file_actions.menu_for(pack, Path(path))

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        pack = current.data(Role.PACK)
        self.pack_selected.emit(pack if isinstance(pack, Pack) else None)

    def select_pack(self, root: Path) -> None:
        index = self.proxy.mapFromSource(self.model.index_for_pack(root))
        if index.isValid():
            self.tree.setCurrentIndex(index)
