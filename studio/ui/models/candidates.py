"""CandidateTableModel: every item the resolver saw, selected or skipped, with its reason; plus its filter.

A 200-split pack gives ~500 rows per re-run and the re-run happens on every slider move, so each row's
display strings and sort keys are computed once when the result arrives, and sorting happens in the
model with those keys (QSortFilterProxyModel would call ``data`` thousands of times per sort).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt
from PySide6.QtGui import QColor

from studio.core.resolver import Decision, ResolveResult
from studio.core.terminal import printable
from studio.ui.models.item_table import ItemTableModel

COLUMNS = ("", "Pack", "Path", "Section", "Lines", "Tokens", "Score", "Reason")
ROW_ROLE = Qt.ItemDataRole.UserRole + 40
TOKENS_COLUMN = COLUMNS.index("Tokens")
SKIPPED_COLOR = QColor("#8a8f98")
_DISPLAY = Qt.ItemDataRole.DisplayRole


@dataclass(frozen=True, slots=True)
class CandidateRow:
    decision: Decision
    selected: bool
    order: int
    """Position in the resolver's own order (selected in fence order, then skipped), the default sort."""
    texts: tuple[str, ...]
    keys: tuple[Any, ...]
    haystack: str
    """Lower-cased text the filter searches."""


def make_row(decision: Decision, selected: bool, order: int) -> CandidateRow:
    d = decision
    texts = ("selected" if selected else "skipped", printable(d.pack), printable(d.path), printable(d.section or ""),
             f"{d.lines[0]}-{d.lines[1]}" if d.lines else "", _tokens_text(d),
             "" if d.score is None else f"{d.score:.2f}", printable(d.reason))
    tokens_key = d.tokens if d.tokens is not None else (d.tokens_at_least if d.tokens_at_least is not None else -1)
    keys = (0 if selected else 1, d.pack, d.path, d.section or "", d.lines[0] if d.lines else 0,
            tokens_key, -1.0 if d.score is None else d.score, d.reason)
    haystack = f"{d.pack} {d.path} {d.section or ''} {d.reason} {d.detail}".lower()
    return CandidateRow(d, selected, order, texts, keys, haystack)


def _tokens_text(d: Decision) -> str:
    if d.tokens is not None:
        return f"{d.tokens:,}"
    if d.tokens_at_least is not None:
        return f"\u2265{d.tokens_at_least:,}"  # a lower bound: the item was ruled out before tokenizing
    return ""


UNCOUNTED_TIP = ("Not tokenized yet: its word count alone (at least {n:,} tokens) rules it out of what is left "
                 "of the budget. The exact count follows in the background.")


def rows_of(result: ResolveResult) -> list[CandidateRow]:
    """Selected items first (in fence order), then every skipped one, pack by pack."""
    decisions = [(d, True) for p in result.packs for d in p.selected]
    decisions.extend((d, False) for p in result.packs for d in p.skipped)
    return [make_row(d, selected, i) for i, (d, selected) in enumerate(decisions)]


class CandidateTableModel(ItemTableModel[CandidateRow]):
    columns = COLUMNS
    item_role = ROW_ROLE

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.sort_column = -1
        self.sort_order = Qt.SortOrder.AscendingOrder

    def set_result(self, result: ResolveResult | None) -> None:
        rows = rows_of(result) if result else []
        self.set_items(self._sorted(rows))

    def _sorted(self, rows: list[CandidateRow]) -> list[CandidateRow]:
        if not 0 <= self.sort_column < len(COLUMNS):
            return rows
        col = self.sort_column
        descending = self.sort_order == Qt.SortOrder.DescendingOrder
        return sorted(rows, key=lambda r: (r.keys[col], r.order), reverse=descending)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self.layoutAboutToBeChanged.emit()
        before = self.persistentIndexList()
        old_rows = [self.items[i.row()] if 0 <= i.row() < len(self.items) else None for i in before]
        self.sort_column, self.sort_order = column, order
        self.items = self._sorted(sorted(self.items, key=lambda r: r.order))
        where = {id(row): n for n, row in enumerate(self.items)}
        after = [self.index(where[id(row)], i.column()) if row is not None else QModelIndex()
                 for i, row in zip(before, old_rows, strict=True)]
        self.changePersistentIndexList(before, after)
        self.layoutChanged.emit()

    def cell(self, row: CandidateRow, col: int, role: int) -> Any:
        if role == _DISPLAY:
            return row.texts[col]
        if role == Qt.ItemDataRole.ForegroundRole and not row.selected:
            return SKIPPED_COLOR
        if role == Qt.ItemDataRole.ToolTipRole:
            d = row.decision
            if col == TOKENS_COLUMN and d.tokens is None and d.tokens_at_least is not None:
                return UNCOUNTED_TIP.format(n=d.tokens_at_least)
            tip = d.detail or d.reason
            return f"{tip}\n{d.feedback}" if d.feedback else tip  # with "Use feedback": how feedback moved it
        return None


class CandidateFilterProxy(QSortFilterProxyModel):
    """Filters by a text needle (path, section, reason, pack) and by selected / skipped.

    Sorting is handed to the source model, which sorts on precomputed keys.
    """

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.needle = ""
        self.show_selected = True
        self.show_skipped = True

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        source = self.sourceModel()
        if isinstance(source, CandidateTableModel):
            source.sort(column, order)

    def set_needle(self, text: str) -> None:
        self.beginFilterChange()
        self.needle = text.strip().lower()
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def set_shown(self, selected: bool, skipped: bool) -> None:
        self.beginFilterChange()
        self.show_selected, self.show_skipped = selected, skipped
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, source_row: int, parent: QModelIndex | QPersistentModelIndex) -> bool:
        source = self.sourceModel()
        if not isinstance(source, CandidateTableModel) or not 0 <= source_row < len(source.items):
            return False
        row = source.items[source_row]
        if not (self.show_selected if row.selected else self.show_skipped):
            return False
        return not self.needle or self.needle in row.haystack
