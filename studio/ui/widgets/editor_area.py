"""The editor tabs: one EditorTab per open file, a dirty dot on modified tabs, lookup by path.

Tab titles tell files apart: a file name alone while it is the only one of that name, else the name and the
shortest parent path that differs (``boundaries.md — product-brief`` beside ``boundaries.md — launch``); every
``KNOWLEDGE.md`` names its pack folder. Titles are worked out again whenever a tab opens or closes
(``studio.core.labels.tab_titles``).
Open tabs follow a rename (``follow_rename``): a file, a folder holding files, or a whole pack folder.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPalette, QResizeEvent
from PySide6.QtWidgets import QLabel, QTabWidget, QWidget

from studio.core.labels import tab_titles
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
        file_created(object): a quick fix in a tab created this Path.
        pack_folder_renamed(object, object): a quick fix renamed a pack folder (old root, new root); the
            tabs have already followed.
        message(str): a status-bar line from a tab (a fix applied or refused, formatting).
    """

    close_requested = Signal(object)
    live_validated = Signal(object)
    file_created = Signal(object)
    pack_folder_renamed = Signal(object, object)
    message = Signal(str)

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
        self._titles: dict[int, str] = {}
        self.soft_wrap = True
        """Markdown tabs wrap at the editor's width (View ▸ Soft wrap Markdown, Alt+Z)."""

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.hint.setGeometry(self.rect().adjusted(24, 24, -24, -24))

    def tabInserted(self, index: int) -> None:
        super().tabInserted(index)
        self.hint.hide()

    def tabRemoved(self, index: int) -> None:
        super().tabRemoved(index)
        self.hint.setVisible(self.count() == 0)
        self.relabel()

    def tabs(self) -> list[EditorTab]:
        return [w for i in range(self.count()) if isinstance(w := self.widget(i), EditorTab)]

    def tab_for(self, path: Path) -> EditorTab | None:
        return next((t for t in self.tabs() if t.path == path), None)

    def current_tab(self) -> EditorTab | None:
        widget = self.currentWidget()
        return widget if isinstance(widget, EditorTab) else None

    def add(self, document: Document, pack: Pack | None) -> EditorTab:
        tab = EditorTab(document, pack)
        tab.set_soft_wrap(self.soft_wrap)
        index = self.addTab(tab, document.path.name)
        self.setTabToolTip(index, str(document.path))
        tab.dirty_changed.connect(lambda _dirty, t=tab: self._show_title(t))
        tab.live_validated.connect(self.live_validated)
        tab.file_created.connect(self.file_created)
        tab.message.connect(self.message)
        tab.pack_folder_renamed.connect(self._pack_renamed_by_fix)
        if pack is not None:
            tab.show_pack_diagnostics(pack)
        self.relabel()
        self.setCurrentWidget(tab)
        return tab

    def set_soft_wrap(self, on: bool) -> None:
        """Wrap every Markdown tab, open now or later, at its width (``on``) or not."""
        self.soft_wrap = on
        for tab in self.tabs():
            tab.set_soft_wrap(on)

    def title_of(self, tab: EditorTab) -> str:
        """The tab's title without the dirty dot."""
        return self._titles.get(id(tab), tab.path.name)

    def relabel(self) -> None:
        """Give every tab the title that tells it apart from the other open tabs."""
        tabs = self.tabs()
        titles = tab_titles([t.path for t in tabs])
        self._titles = {id(t): titles[t.path] for t in tabs}
        for tab in tabs:
            self._show_title(tab)

    def _show_title(self, tab: EditorTab) -> None:
        index = self.indexOf(tab)
        if index >= 0:
            base = self.title_of(tab)
            self.setTabText(index, f"{DIRTY_DOT}{base}" if tab.dirty else base)

    def _pack_renamed_by_fix(self, old: Path, new: Path) -> None:
        self.follow_rename(old, new, pack_root=True)
        self.pack_folder_renamed.emit(old, new)

    def follow_rename(self, old: Path, new: Path, *, pack_root: bool = False) -> list[EditorTab]:
        """Point the tabs of ``old`` (a file, or every file under a folder) at ``new``; returns them.

        With ``pack_root`` the folder is a pack's own folder, so the tabs' pack root moves too. Unsaved text
        stays unsaved: the next save writes to the new path.
        """
        moved = []
        for tab in self.tabs():
            path = tab.path
            if path != old and old not in path.parents:
                continue
            new_path = new / path.relative_to(old) if path != old else new
            root = tab.document_state.pack_root
            if pack_root or root == old or old in root.parents:
                root = new / root.relative_to(old) if root != old else new
            tab.retarget(new_path, root)
            self.setTabToolTip(self.indexOf(tab), str(new_path))
            moved.append(tab)
        if moved:
            self.relabel()
        return moved

    def tabs_under(self, path: Path) -> list[EditorTab]:
        """The tabs of ``path`` or of any file under it (e.g. before it goes to the trash)."""
        return [t for t in self.tabs() if t.path == path or path in t.path.parents]

    def remove(self, tab: EditorTab) -> None:
        index = self.indexOf(tab)
        if index >= 0:
            self.removeTab(index)
        tab.deleteLater()
