"""A QTextBrowser that never fetches anything: no remote resources, no link following by itself.

Images are the only resources it loads, and only from inside the pack: a ``file:`` URL is turned back into a
pack-relative path and read through a ``PackFS`` of the pack (by descriptor from its root, never by name). The
core vetted each image when it rendered the Markdown, but the file may have been swapped for a symlink leading
out of the pack since; the descriptor read refuses it then, so an outside file's bytes never reach the view.

``loadResource`` never answers with nothing, nor with bytes that are not an image: then Qt loads the resource
itself, by path and following symlinks (``QTextDocument::loadResource`` reads a local file, and the image handler
tries ``QImage::load`` on the name when the data does not decode). So images are decoded here, a refused or
undecodable one is answered with Qt's own broken-image icon, and any other resource with a blank.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QTimer, QUrl, Signal
from PySide6.QtGui import QImage, QTextDocument
from PySide6.QtWidgets import QTextBrowser, QWidget

from studio.core.pack_fs import PackFS, Status
from studio.core.paths import is_unsafe_pointer

MAX_IMAGE_BYTES = 8 * 1024 * 1024
"""Largest image shown; a larger one is left out (it is read on the GUI thread while the page lays out)."""
_BROKEN_IMAGE = ":/qt-project.org/styles/commonstyle/images/file-16.png"
"""What Qt itself shows for an image it cannot load (built into Qt's widgets library)."""
_BLANK = b" "
"""A stylesheet or page that is not loaded: not empty, which Qt would take for "load it yourself"."""


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
        self._pack_root: Path | None = None
        self._fs: PackFS | None = None
        self.anchorClicked.connect(self._clicked)

    @property
    def pack_root(self) -> Path | None:
        return self._pack_root

    @pack_root.setter
    def pack_root(self, root: Path | None) -> None:
        if root != self._pack_root:
            self._close_fs()
        self._pack_root = root

    def loadResource(self, kind: int, url: QUrl | str) -> Any:
        """An image inside the pack, read through the pack's PackFS; anything else gets a stand-in, never None
        (see the module docstring: None makes Qt read the file by path)."""
        if getattr(kind, "value", kind) != QTextDocument.ResourceType.ImageResource.value:
            return QByteArray(_BLANK)
        data = self.read_image(QUrl(url))
        # Decoded here: bytes Qt cannot decode would send it back to the file by path (it may be a link by then).
        image = QImage.fromData(data) if data is not None else None
        return image if image is not None and not image.isNull() else _broken_image()

    def read_image(self, url: QUrl) -> bytes | None:
        """The bytes of the pack image ``url`` names, or None when it lies outside the pack, is (or lies
        behind) a symlink leading out of it, is missing or not a regular file, or is larger than the limit."""
        rel = self.pack_relative(url)
        if rel is None:
            return None
        result = self._pack_fs().read(rel, MAX_IMAGE_BYTES + 1)
        if result.status is not Status.OK or result.data is None or result.size > MAX_IMAGE_BYTES:
            return None
        return result.data

    def pack_relative(self, url: QUrl) -> str | None:
        """The pack-relative path a local ``file:`` URL names, or None when it lies outside the pack root.

        The core writes image URLs from resolved paths, so the root is matched as given and resolved (a pack
        opened through a symlinked folder). Only the text of the path is compared here; whether it really stays
        inside is decided by the PackFS read, link by link.
        """
        if self._pack_root is None or not url.isLocalFile() or url.host():
            return None
        path = os.path.normpath(url.toLocalFile())
        for root in _root_spellings(self._pack_root):
            prefix = root if root.endswith(os.sep) else root + os.sep
            if path.startswith(prefix):
                rel = path[len(prefix):].replace(os.sep, "/")
                return None if is_unsafe_pointer(rel) else rel
        return None

    def _pack_fs(self) -> PackFS:
        """The pack held open for the resources of one layout pass: Qt asks for every image of a page in the
        same turn of the event loop, so they share one PackFS, closed on the next turn (a PackFS kept open
        longer would keep reading a folder the user has since moved out of the pack)."""
        if self._fs is None:
            assert self._pack_root is not None
            self._fs = PackFS(self._pack_root)
            QTimer.singleShot(0, self, self._close_fs)
        return self._fs

    def _close_fs(self) -> None:
        if self._fs is not None:
            self._fs.close()
            self._fs = None

    def _clicked(self, url: QUrl) -> None:
        if url.scheme() or url.host():
            return  # the core renders only pack-relative links as links; ignore anything else
        if not url.path() and url.fragment():
            self.scrollToAnchor(url.fragment())
            return
        rel = url.path()
        if self._pack_root is None or is_unsafe_pointer(rel):
            return
        # Looked at by descriptor: a link that is (or lies behind) a symlink out of the pack opens nothing. The
        # editor reads the file through the pack's descriptors again, so a swap after this look cannot leak.
        with PackFS(self._pack_root) as fs:
            inside = fs.exists(rel)
        if inside:
            self.open_file.emit(self._pack_root / rel)


def _broken_image() -> QImage:
    image = QImage(_BROKEN_IMAGE)
    if image.isNull():  # a Qt build without the icon: one transparent pixel, still not "nothing"
        image = QImage(1, 1, QImage.Format.Format_ARGB32)
        image.fill(0)
    return image


def _root_spellings(root: Path) -> list[str]:
    spelled = os.path.abspath(root)
    try:
        real = os.path.realpath(root)
    except (OSError, ValueError):
        return [spelled]
    return [spelled] if real == spelled else [spelled, real]
