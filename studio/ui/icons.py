"""The studio's own SVG icons from the bundled ``icons`` folder (drawn for this project; scale cleanly on HiDPI)."""

from __future__ import annotations

import logging
from functools import cache
from pathlib import Path

from PySide6.QtGui import QIcon

from studio.core.resources import icons_dir

ICON_DIR = icons_dir()
_log = logging.getLogger(__name__)


@cache
def icon(name: str) -> QIcon:
    """``icon("error")`` loads ``<icons>/error.svg``; a missing file gives an empty icon and one warning.

    ``icon("")`` is the deliberate empty icon (actions without one), never a warning.
    """
    if not name:
        return QIcon()
    path = ICON_DIR / f"{name}.svg"
    if path.is_file():
        return QIcon(str(path))
    _warn_missing(ICON_DIR if not ICON_DIR.is_dir() else path)
    return QIcon()


@cache
def _warn_missing(path: Path) -> None:
    # Said once per path: without icons, the tree's error and warning counts are bare numbers, and the user
    # should learn why (an incomplete installation) instead of guessing.
    _log.warning("pack-studio: icon %s is missing; this installation is incomplete (reinstall it)", path)


def severity_icon(severity: str) -> QIcon:
    return icon({"error": "error", "warning": "warning"}.get(severity, "info"))
