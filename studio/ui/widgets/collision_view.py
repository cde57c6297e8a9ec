"""CollisionView: every copy of one pack name side by side, which one wins and why, and "Make this copy win".

Shown for a pack whose name another pack shares. Each copy's scope, version, ``updated`` and folder are listed
with whether it wins or is shadowed (or cannot load at all); a sentence names the rule that decided (scope
precedence, the curator's pin, or path order within one scope). Pinning only chooses among the copies of the
winning scope: a copy a higher scope outranks cannot be made to win, and the view says so instead of offering it.

The view decides nothing and stores nothing: it emits ``pin_requested(name, root)`` (``root`` None to remove the
pin); the window applies it (``Workspace.set_pin``) and remembers it (``StudioSettings.set_pin``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.core.labels import pack_labels
from studio.core.model import Pack
from studio.core.shadowing import RULES, decide
from studio.core.terminal import printable
from studio.ui.buttons import command_button
from studio.ui.row_table import size_columns
from studio.ui.shown_text import as_typed

COLUMNS = ("", "Scope", "Version", "Updated", "Folder")
WIN_COLOR = QColor("#2e7d32")
LOST_COLOR = QColor("#8a8f98")
ROOT_ROLE = Qt.ItemDataRole.UserRole + 70


class CollisionView(QWidget):
    """Signals:
        pin_requested(str, object): make the copy at this root (a Path) win its name; None removes the pin.
    """

    pin_requested = Signal(str, object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.name = ""
        self.copies: list[Pack] = []
        self.pin: Path | None = None
        self.winner: Pack | None = None
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        font = self.heading.font()
        font.setBold(True)
        self.heading.setFont(font)
        self.rule = QLabel()
        self.rule.setWordWrap(True)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setTextElideMode(Qt.TextElideMode.ElideLeft)  # the end of a folder path is what differs
        size_columns(self.table.horizontalHeader(), (86, 84, 70, 96), stretch=len(COLUMNS) - 1)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        self.why_not = QLabel()
        self.why_not.setWordWrap(True)
        self.why_not.setStyleSheet("color: #b26a00")
        self.make_winner = command_button("Make this copy win", self._pin_selected,
                                          "Pin the selected copy: it wins among the copies of its scope, from now on")
        self.unpin = command_button("Remove pin", lambda: self.pin_requested.emit(self.name, None))
        buttons = QHBoxLayout()
        buttons.addWidget(self.make_winner)
        buttons.addWidget(self.unpin)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.rule)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.why_not)
        layout.addLayout(buttons)
        self.set_copies([], None)

    def set_copies(self, copies: Sequence[Pack], pin: Path | None = None) -> None:
        """Show ``copies`` (every pack of one name) with ``pin`` (the pinned root for that name, if any)."""
        self.copies = list(copies)
        self.name = self.copies[0].name if self.copies else ""
        self.pin = pin
        decided = decide(self.copies, pin)
        self.winner, rule = decided if decided is not None else (None, "")
        labels = pack_labels(self.copies)
        self.heading.setText(f"{len(self.copies)} packs are named \u201c{printable(self.name)}\u201d" if self.copies
                             else "No name collision.")
        self.rule.setText(RULES.get(rule, "No copy can load: every one is quarantined or skipped.")
                          if self.copies else "")
        self.table.setRowCount(len(self.copies))
        for row, pack in enumerate(self.copies):
            state = self._state(pack)
            updated = pack.field("updated")
            cells = (state, pack.scope.value, pack.version or "", updated if isinstance(updated, str) else "",
                     printable(str(pack.root)))
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setData(ROOT_ROLE, pack.root)
                item.setToolTip(as_typed(f"{labels[pack.root].text}\n{pack.root}"))
                if column == 0:
                    item.setForeground(WIN_COLOR if state.startswith("wins") else LOST_COLOR)
                self.table.setItem(row, column, item)
        winner_row = next((r for r, p in enumerate(self.copies) if p is self.winner), -1)
        if winner_row >= 0:
            self.table.selectRow(winner_row)
        self._update_buttons()

    def _state(self, pack: Pack) -> str:
        if not pack.own_behavior.loads:
            return "cannot load"
        if pack is self.winner:
            return "wins (pinned)" if self.pin is not None and pack.root == self.pin else "wins"
        return "shadowed"

    def selected(self) -> Pack | None:
        rows = self.table.selectionModel().selectedRows()
        return self.copies[rows[0].row()] if rows else None

    def select_root(self, root: Path) -> bool:
        """Select the row of the copy at ``root`` (as a click would)."""
        for row, pack in enumerate(self.copies):
            if pack.root == root:
                self.table.selectRow(row)
                return True
        return False

    def pin_problem(self, pack: Pack) -> str:
        """Why ``pack`` cannot be made to win (empty when it can)."""
        if not pack.own_behavior.loads:
            return "This copy cannot load on its own findings (quarantined or skipped); fix it first."
        if self.winner is not None and pack.scope is not self.winner.scope:
            return (f"A {self.winner.scope.value} copy outranks this {pack.scope.value} copy: scopes decide before "
                    "pins do. Remove or rename the other copy to let this one win.")
        if pack is self.winner and self.pin is not None and pack.root == self.pin:
            return "This copy is already pinned."
        return ""

    def _update_buttons(self) -> None:
        pack = self.selected()
        problem = self.pin_problem(pack) if pack is not None else ""
        self.make_winner.setEnabled(pack is not None and not problem)
        self.why_not.setText(problem)
        self.why_not.setVisible(bool(problem))
        self.unpin.setVisible(self.pin is not None)

    def _pin_selected(self) -> None:
        pack = self.selected()
        if pack is not None and not self.pin_problem(pack):
            self.pin_requested.emit(self.name, pack.root)


class CollisionDialog(QDialog):
    """The collision view in a dialog (for the Inspector's "Compare copies…" link)."""

    def __init__(self, copies: Sequence[Pack], pin: Path | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Copies of {printable(copies[0].name)}" if copies else "Copies")
        self.view = CollisionView(self)
        self.view.set_copies(copies, pin)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.view)
        layout.addWidget(close)
        self.resize(720, 300)
