"""The PySide6 desktop app. Nothing outside ``studio.ui`` imports Qt; the core never imports this package."""

from __future__ import annotations

from studio.ui.qt_guard import protect_none

try:
    NONE_PROTECTED = protect_none()
    """Whether the workaround for the PySide6 6.12.0 refcount bug had to be applied (see qt_guard)."""
except ImportError:
    # No PySide6 (a CLI-only install): nothing here can run, and the launcher, which imports this package first,
    # says how to install the app. Raising here gave a traceback in its place.
    NONE_PROTECTED = False
