"""The editor tabs: one EditorTab per open file, a dirty dot on modified tabs, lookup by path."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPalette, QResizeEvent
from PySide6.QtWidgets import QLabel, QTabWidget, QWidget

from studio.core.model import Pack
from studio.ui.document import Document
from studio.ui.widgets.editor_tab import EditorTab

DIRTY_DOT = "● "
EMPTY_HINT = ("No file open.\n\nDouble-click a file in the Workspace tree or a problem in the Problems panel,\n"
              "or press Ctrl+P to find a pack or file by name.")


class EditorArea(QTabWidget):
    """Signals:
        close_requested(object): the user clicked a tab's close button (the window asks about changes).
        live_validated(object): a KNOWLEDGE.md buffer was validated (a Pack).
    """

    close_requested = Signal(object)
    live_validated = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTabsClosable(True)
        self.setMovable(True)
        self.setDocumentMode(True)
        self.tabCloseRequested.connect(lambda i: self.close_requested.emit(self.widget(i)))
        # What to do when no file is open, instead of an empty grey pane.
        self.hint = QLabel(EMPTY_HINT, self)
        self.hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.hint.setWordWrap(True)
        self.hint.setForegroundRole(QPalette.ColorRole.PlaceholderText)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.hint.setGeometry(self.rect().adjusted(24, 24, -24, -24))

    def tabInserted(self, index: int) -> None:
        super().tabInserted(index)
        self.hint.hide()

    def tabRemoved(self, index: int) -> None:
        super().tabRemoved(index)
        self.hint.setVisible(self.count() == 0)

    def tabs(self) -> list[EditorTab]:
        return [w for i in range(self.count()) if isinstance(w := self.widget(i), EditorTab)]

    def tab_for(self, path: Path) -> EditorTab | None:
        return next((t for t in self.tabs() if t.path == path), None)

    def current_tab(self) -> EditorTab | None:
        widget = self.currentWidget()
        return widget if isinstance(widget, EditorTab) else None

    def add(self, document: Document, pack: Pack | None) -> EditorTab:
        tab = EditorTab(document, pack)
        title = document.path.name if document.path.name != "KNOWLEDGE.md" or pack is None \
            else f"KNOWLEDGE.md — {pack.name}"
        index = self.addTab(tab, title)
        self.setTabToolTip(index, str(document.path))
        tab.dirty_changed.connect(lambda dirty, t=tab, base=title: self._mark(t, base, dirty))
        tab.live_validated.connect(self.live_validated)
        if pack is not None:
            tab.show_pack_diagnostics(pack)
        self.setCurrentWidget(tab)
        return tab

    def _mark(self, tab: EditorTab, base: str, dirty: bool) -> None:
        index = self.indexOf(tab)
        if index >= 0:
            self.setTabText(index, f"{DIRTY_DOT}{base}" if dirty else base)

    def remove(self, tab: EditorTab) -> None:
        index = self.indexOf(tab)
        if index >= 0:
            self.removeTab(index)
        tab.deleteLater()
