"""A QTextBrowser that never fetches anything: no remote resources, no link following by itself."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QUrl, Signal
from PySide6.QtWidgets import QTextBrowser, QWidget

from studio.core.paths import is_inside, resolve_inside


class SafeBrowser(QTextBrowser):
    """Shows preview HTML for one pack.

    Signals:
        open_file(Path): a pack-relative link was clicked; the window opens it in the editor.
    """

    open_file = Signal(Path)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenExternalLinks(False)
        self.setOpenLinks(False)
        self.pack_root: Path | None = None
        self.anchorClicked.connect(self._clicked)

    def loadResource(self, kind: int, url: QUrl | str) -> Any:
        """Only files inside the pack are loaded (images the core already vetted); nothing remote."""
        url = QUrl(url)
        if self.pack_root is None or not url.isLocalFile():
            return None
        path = Path(url.toLocalFile())
        if not is_inside(self.pack_root, path):
            return None
        return super().loadResource(kind, url)

    def _clicked(self, url: QUrl) -> None:
        if url.scheme() or url.host():
            return  # the core renders only pack-relative links as links; ignore anything else
        if not url.path() and url.fragment():
            self.scrollToAnchor(url.fragment())
            return
        if self.pack_root is None:
            return
        target = resolve_inside(self.pack_root, url.path())
        if target is not None and target.is_file():
            self.open_file.emit(target)
