"""The Problems dock: the workspace's diagnostics, sortable and filterable; activating one opens its file, and a
row's context menu offers its quick fixes.

While a filter hides findings the panel says so: ``title()`` reads "Problems (9 of 54 shown …)", a line above the
table repeats it, and F8 / Shift+F8 (``step``) say that they visit only the problems shown.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPersistentModelIndex, QPoint, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QMenu,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from studio.core.authoring.fixes import has_fix
from studio.core.diagnostics import Diagnostic, Severity
from studio.ui.models.diagnostics_table import (
    DIAGNOSTIC_ROLE,
    DiagnosticsFilterProxy,
    DiagnosticsTableModel,
    counts_text,
)
from studio.ui.row_table import size_columns, sorted_row_table
from studio.ui.widgets.filter_field import filter_field

COLUMN_WIDTHS = (80, 180, 200, 240, 44, 0, 120)
"""Starting widths of Severity, Code, Pack, Path, Line, (Message: the rest), Behavior."""
MESSAGE_COLUMN = 5
SHRINKING = (1, 2, 3, 6)
"""Columns that give way in a narrow window: code, pack, path and behaviour."""
SHRINKABLE = sum(COLUMN_WIDTHS[c] for c in SHRINKING)
MESSAGE_ROOM = 320
"""Pixels the message keeps before the other columns narrow."""


class _CutAtTheEnd(QStyledItemDelegate):
    """A message keeps its start: "Produced by agent-skill 'policy-builder 1.0.0' ..." says what is wrong in its
    first words, and the table's middle cut (right for labels and paths) hid the skill's name there."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        option.textElideMode = Qt.TextElideMode.ElideRight


class ProblemsPanel(QWidget):
    """Signals:
        diagnostic_activated(object): the Diagnostic the user double-clicked (or reached with F8).
        quick_fix_requested(object): the user chose Quick fix… on this Diagnostic's row (context menu);
            the window opens its file and shows the fixes there (``EditorTab.show_quick_fixes``).
        title_changed(str): the dock title to show (``title()``): counts, and "9 of 54 shown" while filtered.
        step_note(str): what F8 / Shift+F8 just did when a filter limits it (empty when nothing is hidden).
    """

    diagnostic_activated = Signal(object)
    quick_fix_requested = Signal(object)
    title_changed = Signal(str)
    step_note = Signal(str)

    def __init__(self, model: DiagnosticsTableModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.proxy = DiagnosticsFilterProxy(self)
        self.proxy.setSourceModel(model)
        self.table = sorted_row_table(self.proxy)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        # Labels and paths differ at their ends (``— explicit, v0.4.0/``, ``…/KNOWLEDGE.md``): elide the middle.
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.table.setItemDelegateForColumn(MESSAGE_COLUMN, _CutAtTheEnd(self.table))
        header = self.table.horizontalHeader()
        size_columns(header, COLUMN_WIDTHS, stretch=MESSAGE_COLUMN)
        self._fitting = False
        self._user_sized = False
        header.sectionResized.connect(self._section_resized)
        header.moveSection(6, 5)  # behaviour before the stretching message column
        self.table.viewport().installEventFilter(self)
        self.table.doubleClicked.connect(self._activate)
        self.table.activated.connect(self._activate)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._context_menu)

        self.filter = filter_field("Filter problems (code, message, pack, file)…", self.proxy.set_needle)
        bar = QHBoxLayout()
        bar.addWidget(self.filter, 1)
        self.severity_boxes: dict[Severity, QCheckBox] = {}
        for severity, label in ((Severity.ERROR, "Errors"), (Severity.WARNING, "Warnings"), (Severity.INFO, "Info")):
            box = QCheckBox(label)
            box.setChecked(True)
            box.toggled.connect(lambda on, s=severity: self.proxy.set_severity(s, on))
            self.severity_boxes[severity] = box
            bar.addWidget(box)
        self.filter_note = QLabel()
        self.filter_note.setWordWrap(True)
        self.filter_note.setStyleSheet("color: #b26a00")
        self.filter_note.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(bar)
        layout.addWidget(self.filter_note)
        layout.addWidget(self.table)
        self._title = ""
        for signal in (model.layoutChanged, model.modelReset, model.rowsInserted, model.rowsRemoved):
            signal.connect(self._model_changed)
        self._model_changed()

    # -- column widths: the message keeps room in a narrow window ---------------------------------------
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        # The table's viewport, not this panel: when the panel hears of a resize the viewport has not been laid
        # out yet, so columns narrowed for a small first layout stayed narrow in a 1920-pixel window.
        if watched is self.table.viewport() and event.type() == QEvent.Type.Resize:
            self.fit_columns()
        return super().eventFilter(watched, event)

    def fit_columns(self) -> None:
        """Narrow the code, pack, path and behaviour columns in proportion until the message has ``MESSAGE_ROOM``
        pixels (never below half their width); once the user has sized a column, the widths are theirs."""
        if self._user_sized:
            return
        room = self.table.viewport().width()
        if room <= 0:
            return
        scale = min(1.0, max(0.5, (room - MESSAGE_ROOM - COLUMN_WIDTHS[0] - COLUMN_WIDTHS[4]) / SHRINKABLE))
        self._fitting = True
        try:
            for col in SHRINKING:
                self.table.setColumnWidth(col, int(COLUMN_WIDTHS[col] * scale))
        finally:
            self._fitting = False

    def _section_resized(self, column: int, _old: int, _new: int) -> None:
        if not self._fitting and column != MESSAGE_COLUMN:
            self._user_sized = True

    # -- what the header and the note say -----------------------------------------------------------
    def title(self) -> str:
        """``Problems (3 errors, 5 warnings, 2 info)``; while filtered ``Problems (9 of 54 shown; …)``."""
        counts = counts_text(self.model.counts())
        if not self.model.filtered:
            return f"Problems ({counts})"
        return f"Problems ({self.model.rowCount():,} of {self.model.total():,} shown; {counts} in all)"

    def _model_changed(self, *_args: object) -> None:
        model = self.model
        if model.filtered:
            hidden = model.total() - model.rowCount()
            text = (f"Showing {model.rowCount():,} of {model.total():,} problems ({model.filter_words()}; "
                    f"{hidden:,} hidden). F8 visits only those shown.")
            self.filter_note.setText(text)
        self.filter_note.setVisible(model.filtered)
        title = self.title()
        if title != self._title:
            self._title = title
            self.title_changed.emit(title)

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

    def step(self, delta: int) -> str:
        """Select the next (+1) or previous (-1) visible problem, wrapping around, and open it.

        Returns (and emits as ``step_note``) what a filter did to the step: empty when nothing is hidden.
        """
        rows = self.proxy.rowCount()
        if rows == 0:
            return self._say_step(rows)
        current = self.table.currentIndex()
        row = (current.row() + delta) % rows if current.isValid() else (0 if delta > 0 else rows - 1)
        index = self.proxy.index(row, 0)
        self.table.setCurrentIndex(index)
        self.table.scrollTo(index)
        self._activate(index)
        return self._say_step(rows)

    def _say_step(self, rows: int) -> str:
        note = self._step_words(rows)
        if note:
            self.filter_note.setText(note)
        self.step_note.emit(note)
        return note

    def _step_words(self, rows: int) -> str:
        model = self.model
        if not model.filtered or rows == model.total():
            return ""
        if rows == 0:
            return (f"No problem to go to: the filter ({model.filter_words()}) hides all {model.total():,}. "
                    "Clear it to step through them.")
        current = self.table.currentIndex()
        return (f"Problem {((current.row() + 1) if current.isValid() else 1):,} of the {rows:,} shown; the filter "
                f"({model.filter_words()}) hides {model.total() - rows:,} more.")
