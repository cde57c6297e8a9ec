"""The guide preview never shows a file from outside the pack: not an image, not a linked file.

Real files and real symlinks: an ``outside`` folder beside the pack holds a secret image (a PNG with the secret's
bytes after its end, which image loaders ignore) and a secret page. The browser reads images through the pack's
PackFS, so an image that is a symlink out of the pack, or becomes one after the guide was rendered (a swap),
loads nothing; a link to such a file opens nothing.
"""

from __future__ import annotations

import html
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QUrl
from PySide6.QtGui import QColor, QImage, QTextDocument
from race_support import swap_for_link

from studio.core.pack import load_pack
from studio.ui.previews import build_previews, runtime_items
from studio.ui.widgets.safe_browser import SafeBrowser

SECRET = b"OUTSIDE-SECRET-BYTES"
IMAGE = QTextDocument.ResourceType.ImageResource.value
BROKEN = ":/qt-project.org/styles/commonstyle/images/file-16.png"
"""Qt's broken-image icon: what the page shows where an image is refused."""
KNOWLEDGE = """---
name: pictured
description: A pack whose guide shows images, some linked out of it. Use in tests.
type: domain-reference
status: ready
profile: document-first
metadata:
  primaryDocument: documents/brief.md
---
# Pictured

![logo](documents/logo.png) ![leak](documents/leak.png)

See [the brief](documents/brief.md) and [the leak](documents/leak.md).
"""


def png(width: int, height: int, colour: str) -> bytes:
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(QColor(colour))
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    buffer.close()
    return bytes(data.data())


@pytest.fixture
def pack(qapp: Any, make_pack: Callable[..., Path], tmp_path: Path) -> tuple[Path, Path]:
    """A pack with a 5x4 blue logo, and an ``outside`` folder with a 7x3 red secret image and a secret page."""
    root = make_pack("pictured", KNOWLEDGE, {"documents/logo.png": png(5, 4, "blue"),
                                             "documents/brief.md": "# Brief\n", "compiled/facts.md": "Blue.\n"})
    outside = tmp_path / "outside"
    outside.mkdir()
    secret_png = png(7, 3, "red") + SECRET
    (outside / "secret.png").write_bytes(secret_png)
    (outside / "logo.png").write_bytes(secret_png)  # what documents/logo.png names once documents/ is a link
    (outside / "secret.md").write_bytes(b"# " + SECRET + b"\n")
    (outside / "facts.md").write_bytes(SECRET)
    os.symlink(outside / "secret.png", root / "documents" / "leak.png")
    os.symlink(outside / "secret.md", root / "documents" / "leak.md")
    return root, outside



def image_urls(guide_html: str) -> list[QUrl]:
    return [QUrl(html.unescape(src)) for src in re.findall(r'<img src="([^"]+)"', guide_html)]


def size(image: Any) -> tuple[int, int] | None:
    """The size of an image ``loadResource`` answered with (always an image: a refused one is Qt's icon)."""
    return (image.width(), image.height()) if isinstance(image, QImage) and not image.isNull() else None


def broken_size() -> tuple[int, int]:
    icon = QImage(BROKEN)
    return (icon.width(), icon.height()) if not icon.isNull() else (1, 1)


def shown(qtbot: Any, root: Path, guide_html: str) -> SafeBrowser:
    """A browser showing ``guide_html`` for the pack at ``root``, laid out (so Qt has asked for its images)."""
    browser = SafeBrowser()
    qtbot.addWidget(browser)
    browser.pack_root = root
    browser.setHtml(guide_html)
    browser.show()
    qtbot.waitExposed(browser)
    browser.document().size()  # lays the page out: Qt loads the images now
    return browser


def pixmap_sizes(browser: SafeBrowser, urls: list[QUrl]) -> list[tuple[int, int] | None]:
    """The size of each image as the document holds it (what the user sees), None where nothing loaded."""
    sizes: list[tuple[int, int] | None] = []
    for url in urls:
        res = browser.document().resource(IMAGE, url)
        sizes.append(None if res is None or res.isNull() else (res.width(), res.height()))
    return sizes


def test_the_guide_shows_its_own_image_and_never_one_linked_out(qtbot: Any, pack: tuple[Path, Path]) -> None:
    root, _outside = pack
    guide_html = build_previews(load_pack(root)).guide_html
    assert SECRET.decode() not in guide_html and "not a file inside the pack" in guide_html
    browser = shown(qtbot, root, guide_html)
    urls = image_urls(guide_html)
    assert pixmap_sizes(browser, urls) == [(5, 4)]  # the logo, and no <img> for the link out
    # Asked directly for the link's URL (a page written by hand, a stale render), the browser loads nothing.
    leak = QUrl.fromLocalFile(str(root / "documents" / "leak.png"))
    secret = QUrl.fromLocalFile(str(root.parent / "outside" / "secret.png"))
    for url in (leak, secret):
        assert browser.read_image(url) is None and size(browser.loadResource(IMAGE, url)) == broken_size()
    assert browser.read_image(urls[0]) == (root / "documents" / "logo.png").read_bytes()
    assert size(browser.loadResource(IMAGE, urls[0])) == (5, 4)
    # A page naming them shows Qt's broken-image icon, not the secret (Qt would load a refused one by path).
    page = "".join(f'<img src="{url.toString()}" />' for url in (leak, secret))
    assert pixmap_sizes(shown(qtbot, root, page), [leak, secret]) == [broken_size(), broken_size()]


def test_an_image_swapped_for_a_link_after_rendering_loads_nothing(qtbot: Any, pack: tuple[Path, Path]) -> None:
    root, outside = pack
    guide_html = build_previews(load_pack(root)).guide_html  # the logo is a real file when rendered
    urls = image_urls(guide_html)
    assert len(urls) == 1
    swap_for_link(root / "documents" / "logo.png", outside / "secret.png")
    browser = shown(qtbot, root, guide_html)
    assert pixmap_sizes(browser, urls) == [broken_size()]
    assert browser.read_image(urls[0]) is None and size(browser.loadResource(IMAGE, urls[0])) == broken_size()


def test_an_image_behind_a_folder_swapped_for_a_link_loads_nothing(qtbot: Any, pack: tuple[Path, Path]) -> None:
    root, outside = pack
    guide_html = build_previews(load_pack(root)).guide_html
    urls = image_urls(guide_html)
    swap_for_link(root / "documents", outside)  # documents/logo.png now names outside/logo.png (the secret)
    browser = shown(qtbot, root, guide_html)
    assert pixmap_sizes(browser, urls) == [broken_size()]
    assert browser.read_image(urls[0]) is None and size(browser.loadResource(IMAGE, urls[0])) == broken_size()


def test_an_image_linked_inside_the_pack_still_shows(qtbot: Any, pack: tuple[Path, Path]) -> None:
    root, _outside = pack
    os.symlink("logo.png", root / "documents" / "alias.png")
    alias = QUrl.fromLocalFile(str(root / "documents" / "alias.png"))
    guide_html = f'<p><img src="{alias.toString()}" /></p>'
    browser = shown(qtbot, root, guide_html)
    assert pixmap_sizes(browser, image_urls(guide_html)) == [(5, 4)]


def test_bytes_that_are_not_an_image_never_send_qt_back_to_the_path(qtbot: Any, pack: tuple[Path, Path]) -> None:
    """Qt loads an image by path itself when the bytes it was given do not decode; by then the file may be a
    link out. The browser decodes them itself, so the page shows the broken-image icon, never the secret."""
    root, outside = pack
    (root / "documents" / "notes.png").write_text("not an image\n")

    class SwapAfterRead(SafeBrowser):
        def read_image(self, url: QUrl) -> bytes | None:
            data = super().read_image(url)  # read while a real file, then swapped before Qt could look again
            if data is not None and not (root / "documents" / "notes.png").is_symlink():
                swap_for_link(root / "documents" / "notes.png", outside / "secret.png")
            return data

    browser = SwapAfterRead()
    qtbot.addWidget(browser)
    browser.pack_root = root
    url = QUrl.fromLocalFile(str(root / "documents" / "notes.png"))
    browser.setHtml(f'<img src="{url.toString()}" />')
    browser.show()
    browser.document().size()
    assert (root / "documents" / "notes.png").is_symlink()  # the swap happened
    assert pixmap_sizes(browser, [url]) == [broken_size()]


def test_a_link_to_a_file_linked_out_opens_nothing(qtbot: Any, pack: tuple[Path, Path]) -> None:
    root, outside = pack
    browser = shown(qtbot, root, build_previews(load_pack(root)).guide_html)
    with qtbot.assertNotEmitted(browser.open_file):
        browser.anchorClicked.emit(QUrl("documents/leak.md"))
    with qtbot.waitSignal(browser.open_file) as blocker:
        browser.anchorClicked.emit(QUrl("documents/brief.md"))
    assert blocker.args == [root / "documents" / "brief.md"]
    swap_for_link(root / "documents" / "brief.md", outside / "secret.md")  # valid when rendered, then swapped
    with qtbot.assertNotEmitted(browser.open_file):
        browser.anchorClicked.emit(QUrl("documents/brief.md"))


def test_the_fence_preview_never_reads_a_runtime_file_swapped_after_listing(pack: tuple[Path, Path]) -> None:
    from studio.core.render.resources import scan_resources

    root, outside = pack
    loaded_pack = load_pack(root)
    scan = scan_resources(loaded_pack)  # compiled/facts.md is listed while it is a real file ...
    assert [i.text for i in runtime_items(loaded_pack, scan)] == ["Blue.\n"]
    swap_for_link(root / "compiled" / "facts.md", outside / "facts.md")  # ... then becomes a link out
    assert runtime_items(loaded_pack, scan) == []
    swap_for_link(root / "compiled", outside)
    assert runtime_items(loaded_pack, scan) == []


def test_the_browser_holds_the_pack_open_only_while_a_page_loads(qtbot: Any, pack: tuple[Path, Path]) -> None:
    root, _outside = pack
    before = len(os.listdir("/proc/self/fd"))
    browser = shown(qtbot, root, build_previews(load_pack(root)).guide_html)
    qtbot.wait(20)  # the next turns of the event loop: the page's PackFS is closed
    assert len(os.listdir("/proc/self/fd")) <= before + 2
    browser.pack_root = None
    assert browser.read_image(QUrl.fromLocalFile(str(root / "documents" / "logo.png"))) is None


SWAPPER = str(Path(__file__).resolve().parents[1] / "race_swapper.py")  # shared with tests/core/test_pack_fs.py


@pytest.mark.slow
@pytest.mark.parametrize("swapped", ["documents/logo.png", "documents"])
def test_no_secret_bytes_load_while_the_image_or_its_folder_is_swapped(
        qtbot: Any, pack: tuple[Path, Path], swapped: str) -> None:
    """A child process swaps the image (or its folder) for a link out thousands of times a second while the
    browser loads it: a check by path then an open by path let the secret through; a descriptor read never."""
    root, outside = pack
    browser = SafeBrowser()
    qtbot.addWidget(browser)
    browser.pack_root = root
    url = QUrl.fromLocalFile(str(root / "documents" / "logo.png"))
    target = outside / "secret.png" if swapped.endswith(".png") else outside
    swapper = subprocess.Popen([sys.executable, SWAPPER, str(root / swapped), str(target), "2.5"],
                               stdout=subprocess.PIPE, text=True)
    assert swapper.stdout is not None and swapper.stdout.readline().strip() == "ready"
    loads = real = 0
    try:
        end = time.monotonic() + 2.0
        while time.monotonic() < end:
            data = browser.read_image(url) or b""
            assert SECRET not in data and size(browser.loadResource(IMAGE, url)) != (7, 3)
            real += bool(data)
            loads += 1
            qtbot.wait(0)  # lets the page's PackFS close, so the next load opens the pack afresh
    finally:
        swapper.wait(timeout=30)
    assert loads > 20 and real > 0
