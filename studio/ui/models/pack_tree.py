"""PackTreeModel: packs grouped by scope (plus Shadowed and Quarantined), each with its file tree beneath.

Group membership comes straight from the core's verdict on the pack: ``pack.loads`` and
``pack.shadowed_by``. File listings are read lazily with ``os.scandir`` in a worker the first time a
folder is expanded (``fetchMore``), never following a symlink.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from enum import IntEnum
from pathlib import Path
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt

from studio.core.model import Pack, Scope
from studio.ui import workers
from studio.ui.icons import icon

ModelIndex = QModelIndex | QPersistentModelIndex
_NO_PARENT = QModelIndex()  # shared default: Qt treats an invalid index as "the root"

GROUPS: tuple[tuple[str, str], ...] = (
    (Scope.EXPLICIT.value, "Explicit"),
    (Scope.PROJECT.value, "Project"),
    (Scope.USER.value, "User"),
    (Scope.ORGANIZATION.value, "Organization"),
    (Scope.BUILTIN.value, "Built-in"),
    ("shadowed", "Shadowed"),
    ("quarantined", "Quarantined"),
)


_ICONS = {"pack": "pack", "dir": "folder", "file": "file"}


class Role(IntEnum):
    """Custom data roles the views and the delegate read."""

    KIND = Qt.ItemDataRole.UserRole + 1
    PACK = Qt.ItemDataRole.UserRole + 2
    PATH = Qt.ItemDataRole.UserRole + 3
    REASON = Qt.ItemDataRole.UserRole + 4
    FILTER_TEXT = Qt.ItemDataRole.UserRole + 5
    ROW_PACK = Qt.ItemDataRole.UserRole + 6
    """The Pack when the row is a pack itself, else None (the delegate's one question per row)."""


@dataclass(eq=False)
class Node:
    """One row: a group, a pack or a file/folder inside a pack."""

    kind: str
    """``group``, ``pack``, ``dir`` or ``file``."""
    name: str
    parent: Node | None
    key: str = ""
    pack: Pack | None = None
    path: Path | None = None
    children: list[Node] = field(default_factory=list)
    listed: bool = False
    """For packs and folders: whether the directory listing has been requested."""
    signature: tuple[object, ...] = ()
    """For packs: what the row shows, to skip repaints when a re-settled pack did not change."""

    def row(self) -> int:
        return self.parent.children.index(self) if self.parent else 0


def group_key(pack: Pack) -> str:
    """Which group the pack belongs in, by the core's verdict."""
    if not pack.behavior.loads:
        return "quarantined"
    if pack.shadowed_by is not None:
        return "shadowed"
    return pack.scope.value


def _signature(pack: Pack) -> tuple[object, ...]:
    counts = pack.counts
    return (pack.name, pack.status, pack.trust, pack.profile, counts.errors, counts.warnings, counts.infos)


def exclusion_reason(pack: Pack) -> str:
    """Why a pack is in the Shadowed or Quarantined group, from its own findings."""
    if not pack.behavior.loads:
        worst = [d for d in pack.diagnostics if d.behavior is pack.behavior]
        return worst[0].message if worst else pack.behavior.value
    if pack.shadowed_by is not None:
        return f"shadowed by {pack.shadowed_by}"
    return ""


def list_directory(path: Path) -> list[tuple[str, bool]]:
    """(name, is_dir) of the entries of ``path``, folders first; symlinks are listed but never followed."""
    try:
        with os.scandir(path) as it:
            entries = [(e.name, e.is_dir(follow_symlinks=False)) for e in it]
    except OSError:
        return []
    return sorted(entries, key=lambda e: (not e[1], e[0].lower()))


class PackTreeModel(QAbstractItemModel):
    """Groups → packs → files, one column."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.root = Node("root", "", None)
        self.groups: dict[str, Node] = {}
        for key, label in GROUPS:
            node = Node("group", label, self.root, key=key)
            self.root.children.append(node)
            self.groups[key] = node
        self.pack_nodes: dict[Path, Node] = {}
        self._pending: dict[int, Node] = {}

    # -- feeding --------------------------------------------------------------------------------
    def clear(self) -> None:
        self.beginResetModel()
        for group in self.groups.values():
            group.children.clear()
        self.pack_nodes.clear()
        self._pending.clear()
        self.endResetModel()

    def add_packs(self, packs: list[Pack]) -> None:
        by_group: dict[str, list[Pack]] = {}
        for pack in packs:
            if pack.root not in self.pack_nodes:
                by_group.setdefault(group_key(pack), []).append(pack)
        for key, items in by_group.items():
            group = self.groups[key]
            start = len(group.children)
            self.beginInsertRows(self._index_of(group), start, start + len(items) - 1)
            for pack in items:
                node = Node("pack", pack.name, group, pack=pack, path=pack.root, signature=_signature(pack))
                group.children.append(node)
                self.pack_nodes[pack.root] = node
            self.endInsertRows()

    def replace_pack(self, fresh: Pack) -> None:
        node = self.pack_nodes.get(fresh.root)
        if node is None:
            self.add_packs([fresh])
            return
        if node.parent is self.groups[group_key(fresh)]:
            signature = _signature(fresh)
            if node.pack is fresh and node.signature == signature:
                return  # settled again but nothing the row shows has changed
            node.pack, node.name, node.signature = fresh, fresh.name, signature
            index = self._index_of(node)
            self.dataChanged.emit(index, index)
            return
        self.remove_pack(fresh.root)
        self.add_packs([fresh])

    def changes_group(self, pack: Pack) -> bool:
        """Whether ``replace_pack(pack)`` would move its row to another group (or add it)."""
        node = self.pack_nodes.get(pack.root)
        return node is None or node.parent is not self.groups[group_key(pack)]

    def remove_pack(self, root: Path) -> None:
        node = self.pack_nodes.pop(root, None)
        if node is None or node.parent is None:
            return
        row = node.row()
        self.beginRemoveRows(self._index_of(node.parent), row, row)
        node.parent.children.pop(row)
        self.endRemoveRows()

    def index_for_pack(self, root: Path) -> QModelIndex:
        node = self.pack_nodes.get(root)
        return self._index_of(node) if node else QModelIndex()

    # -- Qt model API ---------------------------------------------------------------------------
    def _node(self, index: ModelIndex) -> Node:
        return index.internalPointer() if index.isValid() else self.root  # type: ignore[no-any-return]

    def node_at(self, row: int, parent: ModelIndex) -> Node | None:
        children = self._node(parent).children
        return children[row] if 0 <= row < len(children) else None

    def _index_of(self, node: Node) -> QModelIndex:
        if node is self.root or node.parent is None:
            return QModelIndex()
        return self.createIndex(node.row(), 0, node)

    def index(self, row: int, column: int, parent: ModelIndex = _NO_PARENT) -> QModelIndex:
        # Bounds checked here rather than with hasIndex(), and _node() inlined: views and the filter proxy
        # call this for every row they lay out, so each Python call saved counts a thousand times.
        if column != 0 or row < 0:
            return QModelIndex()
        if parent.isValid():
            if parent.column() > 0:
                return QModelIndex()
            children = parent.internalPointer().children
        else:
            children = self.root.children
        if row >= len(children):
            return QModelIndex()
        return self.createIndex(row, 0, children[row])

    def parent(self, index: ModelIndex = _NO_PARENT) -> QModelIndex:  # type: ignore[override]
        if not index.isValid():
            return QModelIndex()
        parent = self._node(index).parent
        return QModelIndex() if parent is None or parent is self.root else self._index_of(parent)

    def rowCount(self, parent: ModelIndex = _NO_PARENT) -> int:
        if parent.column() > 0:
            return 0
        return len(self._node(parent).children)

    def columnCount(self, parent: ModelIndex = _NO_PARENT) -> int:
        return 1

    def hasChildren(self, parent: ModelIndex = _NO_PARENT) -> bool:
        node = self._node(parent)
        if node.kind in ("pack", "dir") and not node.listed:
            return True  # unknown until listed; the expander invites a fetch
        return bool(node.children)

    def canFetchMore(self, parent: ModelIndex) -> bool:
        node = self._node(parent)
        return node.kind in ("pack", "dir") and not node.listed

    def fetchMore(self, parent: ModelIndex) -> None:
        node = self._node(parent)
        if node.listed or node.path is None:
            return
        node.listed = True
        rid = workers.submit(list_directory, node.path, on_done=self._on_listed)
        self._pending[rid] = node

    def _on_listed(self, request_id: int, entries: list[tuple[str, bool]]) -> None:
        node = self._pending.pop(request_id, None)
        if node is None or node.path is None or not self._attached(node):
            return
        if node.kind == "pack":
            entries = [e for e in entries if e[0] != ".git"]
        if not entries:
            # Nothing to show: tell the view the expander should go away.
            index = self._index_of(node)
            self.dataChanged.emit(index, index)
            return
        self.beginInsertRows(self._index_of(node), 0, len(entries) - 1)
        node.children = [
            Node("dir" if is_dir else "file", name, node, pack=node.pack, path=node.path / name)
            for name, is_dir in entries
        ]
        self.endInsertRows()

    def _attached(self, node: Node) -> bool:
        """False when the node was dropped (rescan, pack moved) while its listing was in flight."""
        while node.parent is not None:
            if node not in node.parent.children:
                return False
            node = node.parent
        return node is self.root

    # No flags() override: Qt's default (enabled and selectable, nothing for the root) is what every row
    # needs, and QTreeView asks for the flags of each row twice when it lays out an expanded group.

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        node = self._node(index)
        if role == Qt.ItemDataRole.DisplayRole:
            if node.kind == "group":
                return f"{node.name} ({len(node.children)})"
            return node.name
        if role == Role.ROW_PACK:
            return node.pack if node.kind == "pack" else None
        if role == Qt.ItemDataRole.DecorationRole:
            name = _ICONS.get(node.kind)
            return icon(name) if name else None
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(node)
        if role == Role.KIND:
            return node.kind
        if role == Role.PACK:
            return node.pack
        if role == Role.PATH:
            return str(node.path) if node.path else None
        if role == Role.REASON:
            return exclusion_reason(node.pack) if node.kind == "pack" and node.pack else ""
        if role == Role.FILTER_TEXT:
            return self.filter_text(node)
        return None

    def _tooltip(self, node: Node) -> str | None:
        if node.kind == "pack" and node.pack:
            pack = node.pack
            profile = pack.effective_profile + (" (implied: not declared)" if pack.profile_is_implied else "")
            lines = [pack.name, str(pack.root), f"status: {pack.status or 'none'} · trust: {pack.trust or 'none'}"
                     f" · profile: {profile}"]
            if pack.description:
                lines.append(pack.description)
            reason = exclusion_reason(pack)
            if reason:
                lines.append(f"Reason: {reason}")
            return "\n".join(lines)
        return str(node.path) if node.path else None

    @staticmethod
    def filter_text(node: Node) -> str:
        if node.kind == "pack" and node.pack:
            p = node.pack
            return " ".join(x for x in (p.name, p.status, p.type, p.trust, p.description) if x).lower()
        return node.name.lower()
