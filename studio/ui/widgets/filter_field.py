"""The one-line filter box the Workspace tree, the Problems dock and the shortcuts list put above their rows."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QLineEdit


def filter_field(placeholder: str, changed: Callable[[str], object]) -> QLineEdit:
    """A filter box: ``placeholder`` says what it matches, a clear button empties it, and every edit calls
    ``changed`` with the text (the rows filter as the user types)."""
    field = QLineEdit(placeholderText=placeholder)
    field.setClearButtonEnabled(True)
    field.textChanged.connect(changed)
    return field
