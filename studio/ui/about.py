"""The About box: what the studio is and the versions it runs on (useful in bug reports)."""

from __future__ import annotations

import platform
from importlib import metadata

import PySide6
from PySide6.QtCore import qVersion
from PySide6.QtWidgets import QMessageBox, QWidget

from studio import __version__


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "not installed"


def versions() -> dict[str, str]:
    return {
        "Knowledge Pack Studio": __version__,
        "Qt": qVersion(),
        "PySide6": PySide6.__version__,
        "Python": platform.python_version(),
        "tiktoken": _version("tiktoken"),
    }


def about_text() -> str:
    rows = "".join(f"<tr><td>{k}</td><td>&nbsp;{v}</td></tr>" for k, v in versions().items())
    return (
        "<h3>Knowledge Pack Studio</h3>"
        "<p>Author, validate and debug Agent Knowledge packs. Knowledge is data: the studio never runs "
        "anything from a pack and never fetches remote content.</p>"
        f"<table>{rows}</table>"
    )


def show_about(parent: QWidget) -> None:
    QMessageBox.about(parent, "About Knowledge Pack Studio", about_text())
