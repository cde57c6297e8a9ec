"""The Problems dock: the workspace's diagnostics, sortable and filterable; activating one opens its file, and a
row's context menu offers its quick fixes."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPoint, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QMenu,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from studio.core.authoring.fixes import has_fix
from studio.core.diagnostics import Diagnostic, Severity
from studio.ui.models.diagnostics_table import DIAGNOSTIC_ROLE, DiagnosticsFilterProxy, DiagnosticsTableModel


class ProblemsPanel(QWidget):
    """Signals:
        diagnostic_activated(object): the Diagnostic the user double-clicked (or reached with F8).
        quick_fix_requested(object): the user chose Quick fix… on this Diagnostic's row (context menu);
            the window opens its file and shows the fixes there (``EditorTab.show_quick_fixes``).
    """

    diagnostic_activated = Signal(object)
    quick_fix_requested = Signal(object)

    def __init__(self, model: DiagnosticsTableModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.proxy = DiagnosticsFilterProxy(self)
        self.proxy.setSourceModel(model)
        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        for col, width in enumerate((80, 190, 170, 230, 50, 0, 150)):
            if width:
                self.table.setColumnWidth(col, width)
        header.setSectionResizeMode(5, QHeaderView.ResizeMode.Stretch)
        header.moveSection(6, 5)  # behaviour before the stretching message column
        self.table.doubleClicked.connect(self._activate)
        self.table.activated.connect(self._activate)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._context_menu)

        self.filter = QLineEdit(placeholderText="Filter problems (code, message, pack, file)…")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self.proxy.set_needle)
        bar = QHBoxLayout()
        bar.addWidget(self.filter, 1)
        self.severity_boxes: dict[Severity, QCheckBox] = {}
        for severity, label in ((Severity.ERROR, "Errors"), (Severity.WARNING, "Warnings"), (Severity.INFO, "Info")):
            box = QCheckBox(label)
            box.setChecked(True)
            box.toggled.connect(lambda on, s=severity: self.proxy.set_severity(s, on))
            self.severity_boxes[severity] = box
            bar.addWidget(box)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(bar)
        layout.addWidget(self.table)

    def _activate(self, index: QModelIndex) -> None:
        diag = index.sibling(index.row(), 0).data(DIAGNOSTIC_ROLE)
        if isinstance(diag, Diagnostic):
            self.diagnostic_activated.emit(diag)

    def _context_menu(self, pos: QPoint) -> None:
        index = self.table.indexAt(pos)
        diag = index.sibling(index.row(), 0).data(DIAGNOSTIC_ROLE) if index.isValid() else None
        if isinstance(diag, Diagnostic):
            self.menu_for(diag).popup(self.table.viewport().mapToGlobal(pos))

    def menu_for(self, diag: Diagnostic) -> QMenu:
        """The row's context menu: Quick fix… (when the finding's code has fixes) and Go to problem."""
        menu = QMenu(self)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        fix = menu.addAction("Quick fix…")
        fix.setEnabled(diag.file == "KNOWLEDGE.md" and has_fix(diag.code))
        fix.triggered.connect(lambda: self.quick_fix_requested.emit(diag))
        menu.addAction("Go to problem").triggered.connect(lambda: self.diagnostic_activated.emit(diag))
        return menu

    def step(self, delta: int) -> None:
        """Select the next (+1) or previous (-1) visible problem, wrapping around, and open it."""
        rows = self.proxy.rowCount()
        if rows == 0:
            return
        current = self.table.currentIndex()
        row = (current.row() + delta) % rows if current.isValid() else (0 if delta > 0 else rows - 1)
        index = self.proxy.index(row, 0)
        self.table.setCurrentIndex(index)
        self.table.scrollTo(index)
        self._activate(index)
