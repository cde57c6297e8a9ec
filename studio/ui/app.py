"""The GUI entry point: create the QApplication, theme it, show the main window, open the workspace."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from studio import APP_ID, __version__
from studio.core.first_use import prepare_in_background
from studio.ui.gc_policy import manage_memory
from studio.ui.icons import icon
from studio.ui.main_window import MainWindow
from studio.ui.settings import StudioSettings, default_settings
from studio.ui.theme import apply_theme
from studio.ui.workspace_source import WorkspaceRequest


def make_app() -> QApplication:
    # Workers are Python threads sharing the GIL with the GUI thread; a shorter switch interval lets the
    # GUI thread get the interpreter back sooner while packs load, so the window stays responsive.
    sys.setswitchinterval(0.0005)
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        app = QApplication(sys.argv[:1])
    app.setApplicationName("Knowledge Pack Studio")
    app.setOrganizationName("KnowledgePackStudio")
    app.setApplicationVersion(__version__)
    app.setWindowIcon(icon("app"))
    # Lets desktop shells (Wayland in particular) match the window to the installed desktop entry and icon.
    app.setDesktopFileName(APP_ID)
    apply_theme(app)
    manage_memory(app)  # the cycle collector on this thread only, the modules kept out of its full passes
    return app


def initial_request(window: MainWindow, paths: list[Path], project: Path | None, home: Path | None,
                    ) -> WorkspaceRequest | None:
    """What to open at start: the paths given, else the last workspace, else the bundled examples."""
    if paths or project or home:
        return WorkspaceRequest(explicit=list(paths), project=project, home=home)
    last = window.settings.last_workspace()
    if last:
        return WorkspaceRequest.from_settings(last)
    return WorkspaceRequest(builtin=True)


def run_gui(paths: list[Path], project: Path | None = None, home: Path | None = None,
            settings: QSettings | None = None, prepared: threading.Thread | None = None) -> int:
    """Show the window and run the event loop; returns the exit code.

    ``prepared``: the build of what the core makes on first use, already started
    (``first_use.prepare_in_background``: the default tokenizer, the lookalike tables); the preferred encoding's
    tokenizer is started here, and the window is shown once both are built: building them later, with the window
    on screen, would freeze it for 50-150 ms.
    """
    app = make_app()
    shot = os.environ.get("STUDIO_SCREENSHOT")
    throwaway: QSettings | None = None
    if shot:  # README screenshots: fresh settings, the size and theme asked for (studio.ui.screenshot)
        from studio.ui import screenshot

        if settings is None:
            settings = throwaway = screenshot.screenshot_settings()
    preferred = prepare_in_background([StudioSettings(settings if settings is not None else default_settings())
                                       .encoding()])
    window = MainWindow(settings)
    if shot:
        screenshot.prepare(window)
    for building in (prepared, preferred):
        if building is not None:
            building.join()
    window.show()
    request = initial_request(window, paths, project, home)
    if request is not None:
        window.open_request(request)
    if shot:
        screenshot.take_when_ready(window, Path(shot))
    code = app.exec()
    if throwaway is not None:
        screenshot.discard_settings(throwaway)
    return code
