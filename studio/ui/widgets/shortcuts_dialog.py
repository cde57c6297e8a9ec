"""Help ▸ Keyboard Shortcuts: every key the window's commands have, read from the menus themselves.

Nothing here is written by hand: the list walks the menu bar (each command with a key is in a menu, see
``window_actions``), so a new command or a changed key shows up without touching this file.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QMenu,
    QMenuBar,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.ui.widgets.filter_field import filter_field

COLUMNS = ("Keys", "Command", "Menu")


def _plain(text: str) -> str:
    """A menu text without its mnemonic marker, its ellipsis and its tab-separated key: ``&File`` -> ``File``."""
    return text.split("\t", 1)[0].replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip("…").strip()


def shortcut_rows(menu_bar: QMenuBar) -> list[tuple[str, str, str]]:
    """(keys, command, menu path) for every command with a key, in menu order."""
    rows: list[tuple[str, str, str]] = []

    def walk(menu: QMenu, path: str) -> None:
        for action in menu.actions():
            if action.isSeparator():
                continue
            sub = action.menu()
            if isinstance(sub, QMenu):
                walk(sub, f"{path} ▸ {_plain(sub.title())}")
                continue
            keys = [k.toString(QKeySequence.SequenceFormat.NativeText) for k in action.shortcuts() if not k.isEmpty()]
            if keys:
                rows.append((" or ".join(keys), _plain(action.text()), path))

    for action in menu_bar.actions():
        menu = action.menu()
        if isinstance(menu, QMenu):
            walk(menu, _plain(menu.title()))
    return rows


class ShortcutsDialog(QDialog):
    """A filterable table of ``shortcut_rows``."""

    def __init__(self, menu_bar: QMenuBar, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard Shortcuts")
        self.rows = shortcut_rows(menu_bar)
        self.filter = filter_field("Filter by key or command…", self._filter)
        self.table = QTableWidget(len(self.rows), len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        for row, cells in enumerate(self.rows):
            for column, text in enumerate(cells):
                self.table.setItem(row, column, QTableWidgetItem(text))
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.filter)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        self.resize(560, 520)
        self.filter.setFocus(Qt.FocusReason.OtherFocusReason)

    def _filter(self, text: str) -> None:
        needle = text.strip().lower()
        for row, cells in enumerate(self.rows):
            self.table.setRowHidden(row, bool(needle) and not any(needle in c.lower() for c in cells))
