"""Search results as a two-level tree: one row per pack (with its hit count), one child row per hit.

Columns: location (``path:line``), section heading, relevance (the score over the best hit's), snippet.
``HIT_ROLE`` gives a hit row's ``SearchHit``; ``PACK_ROLE`` gives a pack row's root. The model only holds what
the core returned.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from studio.core.labels import SEPARATOR, telling_suffixes
from studio.core.search import SearchHit
from studio.ui.shown_text import shown_as

ModelIndex = QModelIndex | QPersistentModelIndex
HIT_ROLE = Qt.ItemDataRole.UserRole + 1
PACK_ROLE = Qt.ItemDataRole.UserRole + 2
COLUMNS = ("Location", "Section", "Relevance", "Snippet")
_TOP = 0xFFFFFFFF
"""Internal id of a pack row; a hit row's internal id is its pack row's number."""


class SearchResultsModel(QAbstractItemModel):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._groups: list[tuple[str, str, list[SearchHit]]] = []
        """(pack name, root, hits) in the order of each pack's best hit."""

    def set_hits(self, hits: list[SearchHit]) -> None:
        groups: dict[str, tuple[str, str, list[SearchHit]]] = {}
        for hit in hits:
            groups.setdefault(hit.root, (hit.pack, hit.root, []))[2].append(hit)
        self.beginResetModel()
        self._groups = told_apart(list(groups.values()))
        self.endResetModel()

    def hit_count(self) -> int:
        return sum(len(g[2]) for g in self._groups)

    def pack_count(self) -> int:
        return len(self._groups)

    # -- Qt model ----------------------------------------------------------------------------------------
    def index(self, row: int, column: int, parent: ModelIndex = QModelIndex()) -> QModelIndex:  # noqa: B008
        if column < 0 or column >= len(COLUMNS) or row < 0:
            return QModelIndex()
        if not parent.isValid():
            return self.createIndex(row, column, _TOP) if row < len(self._groups) else QModelIndex()
        if parent.internalId() != _TOP or parent.column() != 0:
            return QModelIndex()
        group = parent.row()
        if group >= len(self._groups) or row >= len(self._groups[group][2]):
            return QModelIndex()
        return self.createIndex(row, column, group)

    # PySide6's stubs give QAbstractItemModel.parent two overloads, QObject's parent() and parent(index), which
    # one Python method cannot restate; Qt calls this one with an index.
    def parent(self, index: ModelIndex = QModelIndex()) -> QModelIndex:  # type: ignore[override]  # noqa: B008
        if not index.isValid() or index.internalId() == _TOP:
            return QModelIndex()
        return self.createIndex(int(index.internalId()), 0, _TOP)

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008
        if not parent.isValid():
            return len(self._groups)
        if parent.internalId() == _TOP and parent.column() == 0 and parent.row() < len(self._groups):
            return len(self._groups[parent.row()][2])
        return 0

    def columnCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008
        return len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole and section < len(COLUMNS):
            return COLUMNS[section]
        return None

    def hit(self, index: ModelIndex) -> SearchHit | None:
        if not index.isValid() or index.internalId() == _TOP:
            return None
        group = int(index.internalId())
        if group >= len(self._groups) or index.row() >= len(self._groups[group][2]):
            return None
        return self._groups[group][2][index.row()]

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """What a row shows; names, paths, headings and snippets come from packs, so through ``shown_as``."""
        return shown_as(self._data(index, role), role)

    def _data(self, index: ModelIndex, role: int) -> Any:
        if not index.isValid():
            return None
        if index.internalId() == _TOP:
            if index.row() >= len(self._groups):
                return None
            name, root, hits = self._groups[index.row()]
            if role == Qt.ItemDataRole.DisplayRole and index.column() == 0:
                return f"{name}  ({len(hits)})"
            if role == Qt.ItemDataRole.ToolTipRole:
                return root
            if role == PACK_ROLE:
                return root
            return None
        hit = self.hit(index)
        if hit is None:
            return None
        if role == HIT_ROLE:
            return hit
        if role == Qt.ItemDataRole.DisplayRole:
            if index.column() == 0:
                return f"{hit.path}:{hit.line}"
            if index.column() == 1:
                return hit.heading or ""
            if index.column() == 2:
                return f"{hit.relevance:.0%}"
            return hit.snippet
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{hit.root}/{hit.path}, line {hit.line} ({hit.kind})"
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() == 2:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


def told_apart(groups: list[tuple[str, str, list[SearchHit]]]) -> list[tuple[str, str, list[SearchHit]]]:
    """Groups of packs sharing a name labelled with what tells them apart (``acme — v0.4.0/acme``), as the tree
    does: two groups reading ``acme`` told the reader nothing."""
    roots_by_name: dict[str, list[PurePath]] = {}
    for name, root, _hits in groups:
        roots_by_name.setdefault(name, []).append(PurePath(root))
    told: dict[PurePath, str] = {}
    for same in roots_by_name.values():
        if len(same) > 1:
            told.update(telling_suffixes(same))
    return [(f"{name}{SEPARATOR}{told[PurePath(root)]}" if PurePath(root) in told else name, root, hits)
            for name, root, hits in groups]
