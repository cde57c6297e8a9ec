"""``STUDIO_SCREENSHOT=path`` support: once the workspace is loaded, show a pack, grab the window, quit.

Used to produce the README screenshots under Xvfb; never active in normal use.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from studio.ui.main_window import MainWindow


def _pick_pack(window: MainWindow) -> None:
    wanted = os.environ.get("STUDIO_SCREENSHOT_PACK")
    packs = sorted(window.session.packs.values(), key=lambda p: (p.counts.warnings + p.counts.errors == 0, p.name))
    chosen = next((p for p in packs if p.name == wanted), packs[0] if packs else None)
    if chosen is None:
        return
    window.workspace_panel.select_pack(chosen.root)
    if chosen.knowledge_path.is_file():
        window.open_file(chosen.knowledge_path, 1)
    tab = os.environ.get("STUDIO_SCREENSHOT_TAB")
    if tab and tab.isdigit():
        window.previews.setCurrentIndex(int(tab))


def take_when_ready(window: MainWindow, target: Path, settle_ms: int = 2500) -> None:
    def grab() -> None:
        target.parent.mkdir(parents=True, exist_ok=True)
        window.grab().save(str(target))
        print(f"screenshot saved to {target}")
        QApplication.quit()

    def loaded(_cancelled: bool) -> None:
        _pick_pack(window)
        QTimer.singleShot(settle_ms, grab)

    window.session.finished.connect(loaded)
