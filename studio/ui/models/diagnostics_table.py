"""DiagnosticsTableModel: every diagnostic of the workspace as table rows, plus a severity/text filter proxy."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)

from studio.core.diagnostics import Diagnostic, DiagnosticCounts, Severity
from studio.ui.icons import severity_icon
from studio.ui.models.filtering import change_filter

ModelIndex = QModelIndex | QPersistentModelIndex
_NO_PARENT = QModelIndex()  # shared default: Qt treats an invalid index as "the root"
COLUMNS = ("Severity", "Code", "Pack", "File", "Line", "Message", "Behavior")
DIAGNOSTIC_ROLE = Qt.ItemDataRole.UserRole + 10
SORT_ROLE = Qt.ItemDataRole.UserRole + 11


@dataclass(frozen=True, slots=True)
class _Row:
    """One table row with its cells and sort keys worked out once (views ask for them thousands of times)."""

    diagnostic: Diagnostic
    root: str
    cells: tuple[Any, ...]
    keys: tuple[Any, ...]

    @classmethod
    def of(cls, d: Diagnostic, root: str, pack_name: str) -> _Row:
        cells = (d.severity.value, d.code, pack_name, d.file, d.line, d.message, d.behavior.value)
        keys = (d.severity.rank, d.code, pack_name, d.file, d.line, d.message, d.behavior.gravity)
        return cls(d, root, cells, keys)


class DiagnosticsTableModel(QAbstractTableModel):
    """Rows of one pack stay contiguous, so a reloaded pack swaps its block without a model reset."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._by_pack: dict[str, tuple[str, list[Diagnostic]]] = {}
        self._rows: list[_Row] = []

    def clear(self) -> None:
        self.beginResetModel()
        self._by_pack.clear()
        self._rows = []
        self.endResetModel()

    def set_pack(self, pack_root: str, pack_name: str, diagnostics: list[Diagnostic]) -> None:
        """Replace the rows of one pack (or workspace-level findings with ``pack_root=""``)."""
        self.set_packs([(pack_root, pack_name, diagnostics)])

    def set_packs(self, items: list[tuple[str, str, list[Diagnostic]]]) -> None:
        """Add or replace the rows of several packs; unchanged packs are left alone."""
        appended: list[_Row] = []
        for root, name, diags in items:
            old = self._by_pack.get(root)
            if old is not None and old[0] == name and old[1] == diags:
                continue
            self._by_pack[root] = (name, list(diags))
            rows = [_Row.of(d, root, name) for d in diags]
            if old is None:
                appended.extend(rows)
            else:
                self._swap_block(root, len(old[1]), rows)
        if appended:  # a scan batch: one insertion at the end
            start = len(self._rows)
            self.beginInsertRows(QModelIndex(), start, start + len(appended) - 1)
            self._rows.extend(appended)
            self.endInsertRows()

    def _swap_block(self, root: str, old_count: int, rows: list[_Row]) -> None:
        start = next((i for i, r in enumerate(self._rows) if r.root == root), len(self._rows))
        if old_count:
            self.beginRemoveRows(QModelIndex(), start, start + old_count - 1)
            del self._rows[start:start + old_count]
            self.endRemoveRows()
        if rows:
            self.beginInsertRows(QModelIndex(), start, start + len(rows) - 1)
            self._rows[start:start] = rows
            self.endInsertRows()

    def diagnostic(self, row: int) -> Diagnostic:
        return self._rows[row].diagnostic

    def counts(self) -> DiagnosticCounts:
        return DiagnosticCounts.of([r.diagnostic for r in self._rows])

    def rowCount(self, parent: ModelIndex = _NO_PARENT) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: ModelIndex = _NO_PARENT) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        horizontal = orientation == Qt.Orientation.Horizontal
        if horizontal and role == Qt.ItemDataRole.DisplayRole and 0 <= section < len(COLUMNS):
            return COLUMNS[section]
        return None

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        diag, col = row.diagnostic, index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return row.cells[col]
        if role == SORT_ROLE:
            return row.keys[col]
        if role == Qt.ItemDataRole.DecorationRole and col == 0:
            return severity_icon(diag.severity.value)
        if role == Qt.ItemDataRole.ToolTipRole:
            hint = f"\nHint: {diag.hint}" if diag.hint else ""
            rule = f" [{diag.rule}]" if diag.rule else ""
            return f"{diag.code}{rule}: {diag.message}{hint}"
        if role == DIAGNOSTIC_ROLE:
            return diag
        return None


class DiagnosticsFilterProxy(QSortFilterProxyModel):
    """Shows the severities that are switched on and rows whose text contains the filter string."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.severities = {Severity.ERROR, Severity.WARNING, Severity.INFO}
        self.needle = ""
        self.setSortRole(SORT_ROLE)

    def set_severity(self, severity: Severity, shown: bool) -> None:
        change_filter(self, lambda: (self.severities.add if shown else self.severities.discard)(severity))

    def set_needle(self, text: str) -> None:
        change_filter(self, lambda: setattr(self, "needle", text.strip().lower()))

    def filterAcceptsRow(self, row: int, parent: ModelIndex) -> bool:
        model = self.sourceModel()
        if not isinstance(model, DiagnosticsTableModel) or parent.isValid():
            return False
        diag = model.diagnostic(row)
        if diag.severity not in self.severities:
            return False
        if not self.needle:
            return True
        pack = str(model.index(row, 2, parent).data())
        hay = f"{diag.code} {diag.message} {diag.file} {pack} {Path(diag.pack).name}".lower()
        return self.needle in hay


def counts_text(counts: DiagnosticCounts) -> str:
    """``3 errors, 5 warnings, 2 info`` (singular when one)."""
    def plural(n: int, word: str) -> str:
        return f"{n} {word}{'' if n == 1 else 's'}"

    return f"{plural(counts.errors, 'error')}, {plural(counts.warnings, 'warning')}, {counts.infos} info"
