"""The window's authoring handlers: New pack, and files made, renamed or trashed from the tree and the editors.

``MainWindow`` connects these handlers in ``_connect``. They are kept apart so that the window's own module is about
the layout, the current pack and the files in tabs; they are handed the session, the editors and the window's few
commands they call, not the window, so this module never imports the window's.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QMainWindow

from studio.core.authoring.new_pack import DefaultFolder, default_pack_folder
from studio.core.diagnostics import Diagnostic
from studio.core.model import Pack
from studio.ui.recovery_keeper import RecoveryKeeper
from studio.ui.widgets.editor_area import EditorArea
from studio.ui.widgets.new_pack_dialog import NewPackDialog
from studio.ui.workspace_session import WorkspaceSession


class WindowAuthoring:
    """New pack and the file actions' follow-up (reload the pack, open the new file, close trashed tabs)."""

    def __init__(self, window: QMainWindow, session: WorkspaceSession, editors: EditorArea, recovery: RecoveryKeeper,
                 *, open_paths: Callable[[list[Path]], None], open_file: Callable[[Path], object],
                 open_diagnostic: Callable[[Diagnostic], None]) -> None:
        self.window = window
        """The New pack wizard's parent, and whose status bar says what was made."""
        self.session = session
        self.editors = editors
        self.recovery = recovery
        self.open_paths = open_paths
        self.open_file = open_file
        self.open_diagnostic = open_diagnostic
        self.open_on_arrival: dict[Path, Path] = {}
        """Files to open once their pack joins the workspace (a pack just made with New pack)."""

    def new_pack(self) -> None:
        """File ▸ New pack…: the wizard writes the pack; it then joins the workspace and its guide opens."""
        default = self.new_pack_default()
        dialog = NewPackDialog(default.folder, known=[(p.name, p.root) for p in self.session.packs.values()],
                               parent=self.window, into_reason=default.reason)
        dialog.pack_created.connect(self.pack_created)
        dialog.open()

    def new_pack_default(self) -> DefaultFolder:
        """Where a new pack goes by default (the CLI's rule): the project is --project, else the first folder
        opened; with neither, the user scope."""
        request = self.session.request
        # The first folder opened, checked lazily: a workspace may have been opened on hundreds of folders.
        project = request.project or next((p for p in request.explicit if p.is_dir()
                                           and not (p / "KNOWLEDGE.md").exists()), None)
        return default_pack_folder(project, request.home)

    def pack_created(self, root: Path) -> None:
        root = Path(os.path.abspath(root))  # as the core names packs (the path as typed, not resolved)
        self.open_on_arrival[root] = root / "KNOWLEDGE.md"  # opened once the pack is in the workspace
        if self.session.workspace is None:  # nothing open yet: open the new pack's folder
            self.open_paths([root.parent])
        else:
            self.session.add_pack(root)
        self.window.statusBar().showMessage(f"Created {root}", 8000)

    def packs_arrived(self, packs: list[Pack]) -> None:
        for pack in packs:
            target = self.open_on_arrival.pop(pack.root, None)
            if target is not None:
                self.open_file(target)

    def file_created(self, path: object) -> None:
        pack = self.session.pack_for_path(Path(str(path)))
        if pack is not None:
            self.session.reload_pack(pack.root)
            self.open_file(Path(str(path)))

    def file_renamed(self, old: Path, new: Path, is_pack: bool) -> None:
        self.editors.follow_rename(old, new, pack_root=is_pack)
        if is_pack:
            self.pack_moved(old, new)
            return
        pack = self.session.pack_for_path(new)
        if pack is not None:
            self.session.reload_pack(pack.root)

    def pack_moved(self, old: Path, new: Path) -> None:
        self.session.remove_pack(old)
        self.session.add_pack(new)

    def file_deleted(self, path: Path) -> None:
        for tab in self.editors.tabs_under(path):
            self.recovery.forget(tab)
            self.editors.remove(tab)
        if path in self.session.packs:
            self.session.remove_pack(path)
            return
        pack = self.session.pack_for_path(path)
        if pack is not None:
            self.session.reload_pack(pack.root)

    def quick_fix_for(self, diag: Diagnostic) -> None:
        self.open_diagnostic(diag)
        tab = self.editors.tab_for(Path(diag.pack) / diag.file) if diag.pack else None
        if tab is not None:
            tab.show_quick_fixes(diag.line)
