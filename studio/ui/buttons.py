"""The push buttons of the panels and dialogs: a label, what it does (its tooltip), and what it calls."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import SignalInstance
from PySide6.QtWidgets import QPushButton


def command_button(text: str, clicked: Callable[..., object] | SignalInstance, tip: str = "") -> QPushButton:
    """A button labelled ``text`` whose ``clicked`` signal goes to ``clicked`` (a slot, or a signal to pass on);
    ``tip`` says what it does, or when it can be used, as the tooltip."""
    button = QPushButton(text)
    if tip:
        button.setToolTip(tip)
    button.clicked.connect(clicked)
    return button
