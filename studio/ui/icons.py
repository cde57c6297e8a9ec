"""The studio's own SVG icons from ``resources/icons`` (drawn for this project; scale cleanly on HiDPI)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PySide6.QtGui import QIcon

ICON_DIR = Path(__file__).resolve().parents[2] / "resources" / "icons"


@cache
def icon(name: str) -> QIcon:
    """``icon("error")`` loads ``resources/icons/error.svg``; a missing file gives an empty icon."""
    path = ICON_DIR / f"{name}.svg"
    return QIcon(str(path)) if path.is_file() else QIcon()


def severity_icon(severity: str) -> QIcon:
    return icon({"error": "error", "warning": "warning"}.get(severity, "info"))
