"""Run as a script by ``test_hostile_window.py``: open a workspace, visit every pack, preview tab and mode.

A separate process because the failure it guards against is a hang (Qt's line layout never finishing): the
test gives it a time limit and kills it, where an in-process test would hang the suite.
Usage: python hostile_walk.py WORKSPACE SETTINGS_FILE
"""

from __future__ import annotations

import os
import re
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QSettings  # noqa: E402
from PySide6.QtWidgets import QAbstractItemView, QApplication, QDockWidget, QLabel, QTabWidget  # noqa: E402

from studio.ui.main_window import MainWindow  # noqa: E402
from studio.ui.pack_text_view import PackTextView  # noqa: E402
from studio.ui.screenshot import MODES  # noqa: E402

BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\x1b\x9b]")
"""Bidi controls, and ESC/CSI: shown raw they are a box at best and a reordered sentence at worst."""


def shown_texts(window: MainWindow) -> list[str]:
    """Every sentence the window shows that could hold pack text: labels, titles, tabs, tree rows."""
    texts = ["window title: " + window.windowTitle(), "status: " + window.statusBar().currentMessage()]
    texts += [f"label {label.objectName() or type(label.parent()).__name__}: {label.text()}"
              for label in window.findChildren(QLabel)]
    texts += ["dock: " + dock.windowTitle() for dock in window.findChildren(QDockWidget)]
    texts += [f"text view in {type(view.parent()).__name__}: {view.toPlainText()}"
              for view in window.findChildren(PackTextView)]
    for tabs in window.findChildren(QTabWidget):
        texts += ["tab: " + tabs.tabText(i) for i in range(tabs.count())]
    for view in window.findChildren(QAbstractItemView):
        model = view.model()
        if model is None:
            continue
        for index in all_indexes(model, all_columns=True):
            value = index.data()
            if isinstance(value, str):
                texts.append(f"{type(model).__name__} in {type(view.parent()).__name__}: {value}")
    return texts


def all_indexes(model: QAbstractItemModel, *, all_columns: bool = False, limit: int = 20_000) -> list[QModelIndex]:
    """The model's indexes, depth first (bounded), first column only unless ``all_columns``."""
    out: list[QModelIndex] = []
    stack = [QModelIndex()]
    while stack and len(out) < limit:
        parent = stack.pop()
        try:
            columns = model.columnCount(parent) if all_columns else 1
        except TypeError:  # a list model keeps it private: one column
            columns = 1
        for row in range(min(model.rowCount(parent), 500)):
            for column in range(columns):
                index = model.index(row, column, parent)
                out.append(index)
                if column == 0 and model.rowCount(index):
                    stack.append(index)
    return out


def settle(app: QApplication, seconds: float = 0.3) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)


def main() -> int:
    workspace, settings_file = sys.argv[1], sys.argv[2]
    app = QApplication([])
    window = MainWindow(QSettings(settings_file, QSettings.Format.IniFormat))
    window.resize(1280, 720)
    window.show()
    done: list[bool] = []
    window.session.finished.connect(lambda _cancelled: done.append(True))
    window.open_paths([workspace])
    deadline = time.monotonic() + 60
    while not done and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.01)
    packs = sorted(window.session.packs.values(), key=lambda p: str(p.root))
    visited = 0
    texts: list[str] = []
    for pack in packs:
        window.workspace_panel.select_pack(pack.root)
        if pack.knowledge_path.is_file():
            window.open_file(pack.knowledge_path, 1)
        for path in sorted(pack.root.glob("*/*.md"))[:6]:  # odd file names become tab titles
            window.open_file(path, 1)
        tree = window.workspace_panel.tree
        for index in all_indexes(tree.model(), limit=2000):  # file names become rows
            tree.expand(index)
            app.processEvents()
        settle(app, 0.5)
        for index in range(window.previews.count()):
            window.previews.setCurrentIndex(index)
            settle(app, 0.4)
            visited += 1
        for mode in MODES.values():
            window.switch_mode(mode)
            settle(app, 0.4)
            visited += 1
            panel = window.modes.panels.get(mode)  # Author has none: the editor and the previews
            for tabs in panel.findChildren(QTabWidget) if panel is not None else []:  # Coverage, Claims, Clients
                for index in range(tabs.count()):
                    tabs.setCurrentIndex(index)
                    settle(app, 0.6)
                    visited += 1
                    texts.extend(shown_texts(window))
        window.switch_mode("Author")
    print(f"visited {visited} views of {len(packs)} packs", flush=True)
    for text in texts + shown_texts(window):
        if BIDI.search(text):
            print(f"raw bidi control in: {text.encode('unicode_escape').decode()}", flush=True)
    for tab in window.editors.tabs():
        tab.editor.document().setModified(False)
    window.session.cancel()
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
