"""DiagnosticsTableModel: every diagnostic of the workspace as table rows, plus a severity/text filter proxy."""

from __future__ import annotations

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


class DiagnosticsTableModel(QAbstractTableModel):
    """Rows are (diagnostic, pack name); the model keeps them grouped per pack so one pack can be swapped."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._by_pack: dict[str, tuple[str, list[Diagnostic]]] = {}
        self._rows: list[tuple[Diagnostic, str]] = []

    def clear(self) -> None:
        self.beginResetModel()
        self._by_pack.clear()
        self._rows = []
        self.endResetModel()

    def set_pack(self, pack_root: str, pack_name: str, diagnostics: list[Diagnostic]) -> None:
        """Replace the rows of one pack (or workspace-level findings with ``pack_root=""``)."""
        self.set_packs([(pack_root, pack_name, diagnostics)])

    def set_packs(self, items: list[tuple[str, str, list[Diagnostic]]]) -> None:
        appended_only = all(root not in self._by_pack for root, _, _ in items)
        new_rows = [(d, name) for _root, name, diags in items for d in diags]
        for root, name, diags in items:
            self._by_pack[root] = (name, list(diags))
        if appended_only:
            if new_rows:  # a scan batch: append, so selections and scroll position survive
                start = len(self._rows)
                self.beginInsertRows(QModelIndex(), start, start + len(new_rows) - 1)
                self._rows.extend(new_rows)
                self.endInsertRows()
            return
        self.beginResetModel()
        self._rows = [(d, name) for name, diags in self._by_pack.values() for d in diags]
        self.endResetModel()

    def diagnostic(self, row: int) -> Diagnostic:
        return self._rows[row][0]

    def counts(self) -> DiagnosticCounts:
        return DiagnosticCounts.of([d for d, _ in self._rows])

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
        diag, pack_name = self._rows[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return (diag.severity.value, diag.code, pack_name, diag.file, diag.line, diag.message,
                    diag.behavior.value)[col]
        if role == SORT_ROLE:
            return (diag.severity.rank, diag.code, pack_name, diag.file, diag.line, diag.message,
                    diag.behavior.gravity)[col]
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
        diag = model.index(row, 0, parent).data(DIAGNOSTIC_ROLE)
        if not isinstance(diag, Diagnostic) or diag.severity not in self.severities:
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
