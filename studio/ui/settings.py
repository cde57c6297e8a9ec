"""What the window remembers between sessions (geometry, recent workspaces), stored with QSettings.

The QSettings object is always passed in, so tests hand the window an INI file in a temp directory and
never touch the real user's settings.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QSettings

MAX_RECENT = 8


def default_settings() -> QSettings:
    """The user's real settings store (INI format so it is readable and easy to reset)."""
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "KnowledgePackStudio", "studio")


class StudioSettings:
    """Typed accessors over a QSettings store."""

    def __init__(self, store: QSettings) -> None:
        self.store = store

    # -- recent workspaces: each entry is a list of folder paths opened together --------------
    def recent_workspaces(self) -> list[list[str]]:
        raw = self.store.value("recent/workspaces", [])
        entries = raw if isinstance(raw, list) else [raw] if raw else []
        return [e.split("\n") for e in entries if isinstance(e, str) and e]

    def add_recent(self, roots: list[str]) -> None:
        key = "\n".join(roots)
        entries = ["\n".join(r) for r in self.recent_workspaces() if "\n".join(r) != key]
        self.store.setValue("recent/workspaces", [key, *entries][:MAX_RECENT])
        self.store.sync()

    def last_workspace(self) -> list[str] | None:
        recent = self.recent_workspaces()
        return recent[0] if recent else None

    # -- window geometry ----------------------------------------------------------------------
    def geometry(self) -> QByteArray | None:
        value = self.store.value("window/geometry")
        return value if isinstance(value, QByteArray) else None

    def window_state(self) -> QByteArray | None:
        value = self.store.value("window/state")
        return value if isinstance(value, QByteArray) else None

    def save_window(self, geometry: QByteArray, state: QByteArray) -> None:
        self.store.setValue("window/geometry", geometry)
        self.store.setValue("window/state", state)
        self.store.sync()
