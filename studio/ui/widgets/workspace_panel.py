"""The Workspace dock: a filter box over the pack tree; activating a file asks the window to open it, and a
row's context menu creates, renames and deletes files (``file_actions``).

The tree shows the model itself while the filter box is empty, and goes through the filter proxy only while
something is typed: a proxy makes Qt keep a mapping for every row that has children, which cost 30-35 ms the
first time a group of 10,000 packs was opened and half a millisecond for every row a settling scan moved in an
opened group (measured; the model alone opens the same group in 11 ms). Empty groups are hidden rows then.

The selection follows the pack, not the row. Only the user's own clicks and keys in the tree (and ``select_pack``)
choose a pack; when rows move (a fix moves a pack to another group, a filter hides it, a namesake arrives), Qt
moves the current index to whatever row now stands in the old place, and the panel puts it back on the pack it
was following (``follow_pack``), in its new place, without announcing a new selection.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import QEvent, QModelIndex, QPersistentModelIndex, QPoint, Qt, Signal
from PySide6.QtGui import QKeyEvent, QMouseEvent
from PySide6.QtWidgets import QMenu, QTreeView, QVBoxLayout, QWidget

from studio.core.model import Pack
from studio.ui.models.pack_filter import PackFilterProxy
from studio.ui.models.pack_tree import PackTreeModel, Role
from studio.ui.turns import next_turn
from studio.ui.widgets.filter_field import filter_field
from studio.ui.widgets.pack_file_actions import PackFileActions
from studio.ui.widgets.pack_row_delegate import PackRowDelegate

AUTO_EXPAND_LIMIT = 300
"""Groups up to this many packs are expanded automatically."""


_Event = TypeVar("_Event", bound=QEvent)


class PackTreeView(QTreeView):
    """A tree that knows whether the current row is changing because of the user (``user_input``)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.user_input = False

    def _as_user(self, handler: Callable[[_Event], None], event: _Event) -> None:
        self.user_input = True
        try:
            handler(event)
        finally:
            self.user_input = False

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self._as_user(super().mousePressEvent, event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        self._as_user(super().mouseMoveEvent, event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        self._as_user(super().mouseReleaseEvent, event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        self._as_user(super().keyPressEvent, event)


class WorkspacePanel(QWidget):
    """Signals:
        file_activated(Path): a file row was double-clicked or Enter was pressed on it.
        pack_selected(object): the current row belongs to this Pack (or None).
        compare_requested(object, str): compare this Pack with a git ref (``ref``) or a folder (``folder``).

    ``file_actions`` (a PackFileActions) emits ``file_created``, ``renamed`` and ``deleted`` after a change
    made from the context menu; the panel lists the folder again itself, the window reloads the pack.
    """

    file_activated = Signal(Path)
    pack_selected = Signal(object)
    compare_requested = Signal(object, str)

    def __init__(self, model: PackTreeModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.proxy = PackFilterProxy(self)
        """Between the model and the tree only while the filter box holds text (see the module's docstring)."""
        self._filtering = False
        self.filter = filter_field("Filter packs (name, status, type, trust)…", self._filter_changed)
        self.tree = PackTreeView()
        self.tree.setModel(self.model)
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
        self.model.rowsInserted.connect(self._groups_changed)
        self.model.rowsRemoved.connect(self._groups_changed)
        self.model.modelReset.connect(self._groups_changed)
        self.file_actions = PackFileActions(self)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._context_menu)
        self.file_actions.file_created.connect(lambda path: self.model.refresh_folder(path.parent))
        self.file_actions.renamed.connect(lambda old, new, _pack: self.model.refresh_folder(new.parent))
        self.file_actions.deleted.connect(lambda path: self.model.refresh_folder(path.parent))
        self.model.rowsInserted.connect(self._expand_groups)
        self.following: Path | None = None
        """The root of the pack the selection stays on (the user's pick, or the window's current pack)."""
        self._announcing = False
        for followed in (self.model, self.proxy):
            for signal in (followed.rowsInserted, followed.layoutChanged, followed.modelReset):
                signal.connect(self._refollow)
        self.auto_expand = True
        # No minimum beyond a name's worth: the rows elide the name and drop the tags first (PackRowDelegate),
        # and a fixed minimum here would push the window wider than a laptop's screen.
        self.setMinimumWidth(160)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.filter)
        layout.addWidget(self.tree)
        self._groups_changed()

    # -- the model the tree shows ------------------------------------------------------------------
    def view_index(self, source: QModelIndex) -> QModelIndex:
        """The tree's index for a row of the model (invalid when the filter hides it)."""
        return self.proxy.mapFromSource(source) if self._filtering else QModelIndex(source)

    def source_index(self, index: QModelIndex) -> QModelIndex:
        """The model's index for a row of the tree."""
        return self.proxy.mapToSource(index) if self._filtering else QModelIndex(index)

    def _show_through_filter(self, filtering: bool) -> None:
        if filtering == self._filtering:
            return
        self._filtering = filtering
        if filtering:
            self.proxy.setSourceModel(self.model)
        old = self.tree.selectionModel()
        self.tree.setModel(self.proxy if filtering else self.model)
        old.deleteLater()  # setModel makes a new one and leaves the old to its owner
        self.tree.selectionModel().currentChanged.connect(self._current_changed)
        if not filtering:
            # A proxy nobody shows would still follow every change. Qt takes no model here (nullptr); PySide6's
            # stubs do not allow None.
            self.proxy.setSourceModel(None)  # type: ignore[arg-type]
        self._groups_changed()

    def _groups_changed(self, parent: QModelIndex | None = None, _first: int = 0, _last: int = 0) -> None:
        """Without the proxy, a group with no pack is a hidden row (the proxy's filter hides it otherwise)."""
        if self._filtering or (parent is not None and parent.isValid() and parent.data(Role.KIND) != "group"):
            return
        root = QModelIndex()
        for row in range(self.model.rowCount(root)):
            index = self.model.index(row, 0, root)
            hidden = self.model.rowCount(index) == 0
            if self.tree.isRowHidden(row, root) != hidden:
                self.tree.setRowHidden(row, root, hidden)

    def expect(self, total: int) -> None:
        """The scan found ``total`` packs (0: not known yet): expand groups as packs arrive only when that
        stays cheap. Until the total is known, groups wait for the end of the scan."""
        self.auto_expand = 0 < total <= AUTO_EXPAND_LIMIT

    def scan_finished(self) -> None:
        """Expand the groups that are small enough to lay out at once; big ones wait for a click."""
        shown = self.tree.model()
        for row in range(shown.rowCount()):
            index = shown.index(row, 0)
            if 0 < shown.rowCount(index) <= AUTO_EXPAND_LIMIT:
                self.tree.expand(index)
        self.auto_expand = True
        current = self.tree.currentIndex()
        if current.isValid():
            self.tree.scrollTo(current)  # the pack followed through the scan (see ``_refollow``)

    def _expand_groups(self, parent: QModelIndex, first: int, last: int) -> None:
        # Every insertion under an expanded group re-lays out and repaints its rows, so a large scan fills
        # collapsed groups, whose titles count up, and expands the small ones at the end.
        if self.auto_expand and parent.isValid() and parent.data(Role.KIND) == "group":
            self.tree.expand(self.view_index(parent))

    # -- expanded rows and the filter --------------------------------------------------------------
    @staticmethod
    def _row_key(index: QModelIndex) -> str:
        if index.data(Role.KIND) == "group":
            return f"group:{index.data(Role.GROUP)}"
        return str(index.data(Role.PATH) or "")

    def _expanded(self, index: QModelIndex) -> None:
        source = self.source_index(index)
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
            self._show_through_filter(bool(self.proxy.needle))
            shown = self.tree.model()
            if self.proxy.needle:
                self.tree.expandToDepth(0)  # the matches, not collapsed group titles
            else:  # back to the tree the user had: groups expanded only for the filter fold again
                for row in range(shown.rowCount()):
                    group = shown.index(row, 0)
                    if self._row_key(group) not in self._open_rows:
                        self.tree.collapse(group)
            for key, source in list(self._open_rows.items()):
                if not source.isValid():
                    del self._open_rows[key]  # the row is gone (a rescan, a removed pack)
                    continue
                # Qt converts a persistent index to a QModelIndex; PySide6's stubs lack that constructor.
                index = self.view_index(QModelIndex(source))  # type: ignore[call-overload]
                if index.isValid():
                    self.tree.expand(index)
        finally:
            self._restoring = False
        self._refollow()  # a new model has a new selection: put it back on the pack
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
        menu = self.file_actions.menu_for(pack, Path(path))
        menu.addSeparator()
        menu.addAction("Compare with git ref…").triggered.connect(lambda: self.compare_requested.emit(pack, "ref"))
        menu.addAction("Compare with folder…").triggered.connect(lambda: self.compare_requested.emit(pack, "folder"))
        return menu

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not (self.tree.user_input or self._announcing):
            return  # rows moved under the selection: ``_refollow`` puts it back on the pack
        pack = current.data(Role.PACK)
        self.following = pack.root if isinstance(pack, Pack) else None
        self.pack_selected.emit(pack if isinstance(pack, Pack) else None)

    def forget_rows(self) -> None:
        """A new workspace is coming: the row painter lets go of the packs it drew, and large groups fold if the
        rows will go over several turns.

        Call before the model clears. A large workspace's rows leave a slice per turn (``PackTreeModel.clear``),
        and each slice taken from an expanded group of 10,000 rows had the tree lay out all the rows left (asking
        each for its data and flags): 5-20 ms a turn, on the turns that take in the new scan. A folded group lays
        out nothing; a large group of the new workspace waits for a click anyway (``scan_finished``). A smaller
        workspace is emptied in one turn and its groups stay as the user left them.
        """
        delegate = self.tree.itemDelegate()
        if isinstance(delegate, PackRowDelegate):
            delegate.forget()
        if not self.model.clears_in_slices:
            return
        shown = self.tree.model()
        for row in range(shown.rowCount()):
            group = shown.index(row, 0)
            if self.tree.isExpanded(group) and shown.rowCount(group) > AUTO_EXPAND_LIMIT:
                self.tree.collapse(group)

    def select_pack(self, root: Path) -> None:
        """Select the pack at ``root`` as a click would: ``pack_selected`` is emitted.

        A pack in a large collapsed group (Quick Open, a problem, a link) is selected a turn later: opening the
        group lays out every one of its rows (a few ms for 10,000 packs, 30-45 ms while a filter is typed), and
        that turn does nothing else, as if the user had opened the group first.
        """
        index = self.view_index(self.model.index_for_pack(root))
        group = index.parent()
        large = group.isValid() and self.tree.model().rowCount(group) > AUTO_EXPAND_LIMIT
        if large and not self.tree.isExpanded(group):
            self.following = root
            self.tree.expand(group)
            next_turn(self, lambda: self._select_now(root))
            return
        self._select_now(root)

    def _select_now(self, root: Path) -> None:
        index = self.view_index(self.model.index_for_pack(root))
        if index.isValid():
            self._announcing = True
            try:
                self.tree.setCurrentIndex(index)
            finally:
                self._announcing = False
            self.following = root
            self.tree.scrollTo(index)

    def follow_pack(self, root: Path | None) -> None:
        """Keep the selection on the pack at ``root`` (the window's current pack), quietly: no ``pack_selected``.

        A file or folder row of that pack that is already current stays current.
        """
        self.following = root
        self._refollow()

    def _refollow(self, *_args: object) -> None:
        root = self.following
        if root is None:
            return
        current = self.tree.currentIndex()
        pack = current.data(Role.PACK) if current.isValid() else None
        if isinstance(pack, Pack) and pack.root == root:
            return
        index = self.view_index(self.model.index_for_pack(root))
        if index.isValid():
            self.tree.setCurrentIndex(index)  # not user input: announces nothing
            # Scrolling to a row expands its group. While a large scan fills a collapsed group, that would make
            # every later batch lay out the whole group again (60-80 ms a batch at 10,000 packs): the row is
            # scrolled to once the scan is over instead.
            if self.auto_expand or self.tree.isExpanded(index.parent()):
                self.tree.scrollTo(index)
