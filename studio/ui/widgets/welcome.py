"""The first-run page: how to open packs, and the recently opened workspaces."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QPushButton, QVBoxLayout, QWidget

from studio.core.terminal import printable
from studio.ui.icons import icon


class WelcomePage(QWidget):
    """Signals:
        open_folder(): the user wants to pick a folder.
        open_examples(): the user wants the bundled example packs.
        open_recent(list): a recent workspace entry (list of settings strings) was chosen.
    """

    open_folder = Signal()
    open_examples = Signal()
    open_recent = Signal(list)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        logo = QLabel()
        logo.setPixmap(icon("app").pixmap(QSize(72, 72)))
        title = QLabel("<h1>Knowledge Pack Studio</h1>")
        blurb = QLabel(
            "Open a folder that holds Agent Knowledge packs (directories with a KNOWLEDGE.md) to see "
            "every pack, every problem and what an agent would be shown. Nothing in a pack is ever run, "
            "and files change only when you save.", wordWrap=True,
        )
        self.open_button = QPushButton(icon("open"), "Open folder…")
        self.examples_button = QPushButton(icon("pack"), "Open the bundled examples")
        self.open_button.clicked.connect(self.open_folder)
        self.examples_button.clicked.connect(self.open_examples)
        self.recent = QListWidget()
        self.recent.itemActivated.connect(self._recent_chosen)
        self.recent.itemDoubleClicked.connect(self._recent_chosen)
        column = QVBoxLayout()
        for w in (logo, title, blurb, self.open_button, self.examples_button):
            column.addWidget(w)
        column.addWidget(QLabel("<b>Recent workspaces</b>"))
        column.addWidget(self.recent, 1)
        box = QWidget()
        box.setLayout(column)
        box.setMaximumWidth(640)
        outer = QVBoxLayout(self)
        outer.addWidget(box, 0, Qt.AlignmentFlag.AlignHCenter)

    def set_recent(self, entries: list[list[str]]) -> None:
        self.recent.clear()
        for entry in entries:
            label = " + ".join("bundled examples" if e == "builtin:" else e for e in entry)
            item = QListWidgetItem(icon("folder"), printable(label))
            item.setData(Qt.ItemDataRole.UserRole, entry)
            self.recent.addItem(item)
        if not entries:
            self.recent.addItem("(none yet)")

    def _recent_chosen(self, item: QListWidgetItem) -> None:
        entry = item.data(Qt.ItemDataRole.UserRole)
        if isinstance(entry, list):
            self.open_recent.emit(entry)
