"""The Workspace tree's filter: packs matched by name, status, type, trust and description, in Qt's own code."""

from __future__ import annotations

from PySide6.QtCore import QObject, QRegularExpression, QSortFilterProxyModel

from studio.ui.models.pack_tree import Role


class PackFilterProxy(QSortFilterProxyModel):
    """Matches packs by name, status, type, trust and description; a matching pack keeps all its rows (its
    files stay browsable), and a group shows only while it holds a match, so empty groups stay hidden too.

    Qt's own expression filter on ``Role.FILTER_TEXT`` does the matching, so filtering (and every insertion
    while a scan runs) stays in C++ instead of calling Python once per row. Only pack rows have a filter
    text: groups are accepted through their packs, files and folders through their pack. Files are found
    by Quick open (Ctrl+P), which lists every file, not only the folders expanded so far.
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setRecursiveFilteringEnabled(True)
        self.setAutoAcceptChildRows(True)
        self.setFilterRole(Role.FILTER_TEXT)
        self.needle = ""
        self._apply()

    def set_needle(self, text: str) -> None:
        needle = text.strip().lower()
        if needle != self.needle:
            self.needle = needle
            self._apply()

    def _apply(self) -> None:
        # No needle: any non-empty filter text, that is every pack. A needle: its plain text.
        pattern = QRegularExpression.escape(self.needle) if self.needle else "."
        self.setFilterRegularExpression(
            QRegularExpression(pattern, QRegularExpression.PatternOption.CaseInsensitiveOption))
