"""Render the application icon (``resources/icons/app.svg``) into the freedesktop icon theme layout under
``packaging/icons/hicolor``: the SVG itself as ``scalable`` and PNGs at the usual sizes, named after the app id.

Run it after changing ``app.svg`` (``python packaging/render_icons.py``) and commit the result; a test checks that
the copies match the SVG and that every size is present. Needs PySide6 (the ``gui`` or ``test`` extra).
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtGui import QGuiApplication, QImage, QPainter  # noqa: E402
from PySide6.QtSvg import QSvgRenderer  # noqa: E402

HERE = Path(__file__).resolve().parent
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def app_id() -> str:
    sys.path.insert(0, str(HERE.parent))
    from studio import APP_ID

    return APP_ID


def render(svg: Path, size: int, target: Path) -> None:
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise SystemExit(f"render_icons: {svg} is not a valid SVG")
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    target.parent.mkdir(parents=True, exist_ok=True)
    if not image.save(str(target), "PNG"):
        raise SystemExit(f"render_icons: could not write {target}")


def main() -> int:
    _app = QGuiApplication(sys.argv[:1])
    name = app_id()
    svg = HERE.parent / "resources" / "icons" / "app.svg"
    theme = HERE / "icons" / "hicolor"
    scalable = theme / "scalable" / "apps" / f"{name}.svg"
    scalable.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(svg, scalable)
    for size in SIZES:
        render(svg, size, theme / f"{size}x{size}" / "apps" / f"{name}.png")
    print(f"rendered {len(SIZES)} PNG sizes and the SVG into {theme}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
