"""Same-name packs in the window: the collision view for a name, and "Make this copy win" applied and remembered.

The Inspector of a pack whose name another pack carries offers "Compare copies…"; the collision view
(``widgets.collision_view``) lists every copy and emits ``pin_requested``. Here a pin is remembered for the
workspace (its ``.pack-studio/workspace.json``, shared with the CLI), applied to the open workspace
(``WorkspaceSession.set_pin``, which announces every pack whose verdict changed, so the tree, Problems and the
Inspector show the new winner), and the view is shown again. A workspace opened later reads its pins back
(``MainWindow.open_request``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QWidget

from studio.core.pins import PinsError, read_pins_file, set_pin_in_file
from studio.core.terminal import printable
from studio.ui.settings import StudioSettings
from studio.ui.widgets.collision_view import CollisionDialog
from studio.ui.workspace_session import WorkspaceSession
from studio.ui.workspace_source import WorkspaceRequest


class PackCopies(QObject):
    """Owns the collision dialog (one at a time) and applies the pins it asks for."""

    def __init__(self, session: WorkspaceSession, settings: StudioSettings, parent: QWidget,
                 say: Callable[[str], None]) -> None:
        super().__init__(parent)
        self.session = session
        self.settings = settings
        self.say = say
        self.dialog: CollisionDialog | None = None

    def compare(self, name: str) -> CollisionDialog:
        """Show every copy of ``name``: which one wins and why, and "Make this copy win"."""
        if self.dialog is None:
            parent = self.parent()
            self.dialog = CollisionDialog([], None, parent if isinstance(parent, QWidget) else None)
            self.dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            self.dialog.view.pin_requested.connect(self.pin)
            self.dialog.finished.connect(self._closed)
        self.dialog.view.name = name
        self.refresh()
        self.dialog.show()
        self.dialog.raise_()
        return self.dialog

    def _closed(self, _result: int) -> None:
        self.dialog = None

    def refresh(self, name: str | None = None) -> None:
        """Show the copies again (after a pin, or a copy reloaded); with ``name``, only if that name is shown."""
        dialog, workspace = self.dialog, self.session.workspace
        if dialog is None or workspace is None or (name is not None and name != dialog.view.name):
            return
        shown = dialog.view.name
        dialog.setWindowTitle(f"Copies of {printable(shown)}")
        dialog.view.set_copies(workspace.copies(shown), workspace.options.pins.get(shown))
        dialog.view.name = shown

    def stored_pins(self, request: WorkspaceRequest, entry: list[str]) -> dict[str, Path]:
        """The pins ``request``'s workspace keeps: its pins file's (shared with the CLI) over the settings' ones."""
        pins = self.settings.pins(entry)
        file = request.pins_file()
        if file is not None:
            try:
                pins.update(read_pins_file(file))
            except PinsError as exc:
                self.say(f"Pins not read: {exc}")
        return pins

    def pin(self, name: str, root: Path | None) -> None:
        """Make the copy at ``root`` win ``name`` in its scope (None: remove the pin), in this workspace from now on.

        Remembered in the workspace's ``.pack-studio/workspace.json``, where ``pack-studio validate`` reads it too;
        in the settings only for a workspace with no folder, or when that file cannot be written.
        """
        request = self.session.request
        where = "remembered for this workspace"
        file = request.pins_file()
        stored = False
        if file is not None:
            try:
                set_pin_in_file(file, name, root)
                stored = True
                where = f"remembered in {file}"
            except (PinsError, OSError) as exc:
                where = f"remembered in the settings only ({file}: {getattr(exc, 'strerror', None) or exc})"
        if not stored or root is None:  # a removed pin must not come back from the settings
            self.settings.set_pin(request.to_settings(), name, root)
        self.session.set_pin(name, root)
        self.refresh()
        self.say(f"{name}: " + ("pin removed" if root is None else f"the copy at {root} wins now") + f"; {where}")
