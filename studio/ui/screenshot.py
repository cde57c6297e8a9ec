"""``STUDIO_SCREENSHOT=path`` support: once the workspace is loaded, show a pack, grab the window, quit.

Used to produce the README screenshots under Xvfb; never active in normal use. The settings are a fresh file
in a temporary folder, so a screenshot never depends on (or changes) the user's remembered layout. Options,
all environment variables:

- ``STUDIO_SCREENSHOT_MODE``: ``author`` (default), ``resolve``, ``runs``, ``review``, ``claims`` (Review's
  Claims tab) or ``evals``; with ``claims``, ``STUDIO_SCREENSHOT_TASK`` compares the fences for that task;
- ``STUDIO_SCREENSHOT_SIZE``: the window size, ``1280x720`` (default: the screen's available size);
- ``STUDIO_SCREENSHOT_THEME``: ``light``, ``dark`` or ``system`` (default);
- ``STUDIO_SCREENSHOT_PACK``: the name of the pack to show (default: the first with findings), and
  ``STUDIO_SCREENSHOT_PACK_INDEX``: which of several packs of that name (0, 1, ...; in tree order);
- ``STUDIO_SCREENSHOT_SUITE`` and ``STUDIO_SCREENSHOT_COMPARE`` (``config``, ``last``): Evals mode's suite and
  comparison;
- ``STUDIO_SCREENSHOT_OPEN``: more files to open in tabs, paths relative to the shown pack, ``;``-separated;
- ``STUDIO_SCREENSHOT_TASK`` (Resolve mode): a task to resolve, ``TASK`` or ``TASK|BUDGET``, and
  ``STUDIO_SCREENSHOT_RESOLVE_TAB``: the title of the result tab to bring to the front (``Clients``, ``Sweep`` ...);
- ``STUDIO_SCREENSHOT_PAGE``: the title of a tab inside the mode's panel to bring to the front (e.g. ``Coverage``
  in Evals mode);
- ``STUDIO_SCREENSHOT_TAB``: the index of the preview tab to bring to the front, or ``STUDIO_SCREENSHOT_PREVIEWS=0``
  to collapse the previews (View ▸ Previews beside the editor);
- ``STUDIO_SCREENSHOT_DIFF``: a git ref: the Diff view of the shown pack against it, at the window's size, is
  grabbed instead of the window.
- ``STUDIO_SCREENSHOT_DOCK``: a dock to show in front (``visibility`` for Who sees it, ``find``, ``problems``...).

    STUDIO_SCREENSHOT=docs/screenshots/mode-resolve.png STUDIO_SCREENSHOT_MODE=resolve \\
        xvfb-run -s "-screen 0 1280x720x24" pack-studio open resources/examples
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from PySide6.QtCore import QSettings, QTimer
from PySide6.QtGui import QGuiApplication, QScreen
from PySide6.QtWidgets import QApplication, QTabWidget, QWidget

from studio.ui.main_window import MainWindow

MODES = {"author": "Author", "resolve": "Resolve", "runs": "Runs", "review": "Review", "claims": "Review",
         "evals": "Evals"}


_FOLDER_PREFIX = "studio-screenshot-"


def screenshot_settings() -> QSettings:
    """A fresh settings file in a temporary folder of its own (``discard_settings`` removes it)."""
    folder = tempfile.mkdtemp(prefix=_FOLDER_PREFIX)
    return QSettings(str(Path(folder) / "studio.ini"), QSettings.Format.IniFormat)


def discard_settings(settings: QSettings) -> None:
    """Remove the folder ``screenshot_settings`` made, once the window is closed: every run left one behind (a
    helper's screenshots had piled up hundreds). Written out first, so nothing is left to write into it later."""
    settings.sync()
    folder = Path(settings.fileName()).parent
    if folder.name.startswith(_FOLDER_PREFIX) and folder.parent == Path(tempfile.gettempdir()):
        shutil.rmtree(folder, ignore_errors=True)


def wanted_size() -> tuple[int, int] | None:
    """``STUDIO_SCREENSHOT_SIZE`` as (width, height), else the primary screen's available size."""
    raw = os.environ.get("STUDIO_SCREENSHOT_SIZE", "")
    width, _, height = raw.lower().partition("x")
    if width.isdigit() and height.isdigit():
        return int(width), int(height)
    screen: QScreen | None = QGuiApplication.primaryScreen()  # None with no screen at all (the stubs say never)
    if screen is None:
        return None
    area = screen.availableGeometry()
    return area.width(), area.height()


def prepare(window: MainWindow) -> None:
    """Before the workspace opens: the theme and the window's size."""
    theme = os.environ.get("STUDIO_SCREENSHOT_THEME", "")
    if theme in ("light", "dark", "system"):
        window.set_theme(theme)
    size = wanted_size()
    if size is not None:
        window.resize(*size)


def _pick_pack(window: MainWindow) -> None:
    wanted = os.environ.get("STUDIO_SCREENSHOT_PACK")
    packs = sorted(window.session.packs.values(), key=lambda p: (p.counts.warnings + p.counts.errors == 0, p.name))
    if wanted:
        named = sorted((p for p in packs if p.name == wanted), key=lambda p: str(p.root))
        index = os.environ.get("STUDIO_SCREENSHOT_PACK_INDEX", "0")
        packs = named[int(index):] + named if index.isdigit() else named
    chosen = packs[0] if packs else None
    if chosen is None:
        return
    for rel in filter(None, os.environ.get("STUDIO_SCREENSHOT_OPEN", "").split(";")):
        window.open_file((chosen.root / rel).resolve(), 1)
    window.workspace_panel.select_pack(chosen.root)
    if chosen.knowledge_path.is_file():
        window.open_file(chosen.knowledge_path, 1)
    tab = os.environ.get("STUDIO_SCREENSHOT_TAB")
    if tab and tab.isdigit():
        window.previews.setCurrentIndex(int(tab))
    if os.environ.get("STUDIO_SCREENSHOT_PREVIEWS") == "0":
        QTimer.singleShot(200, lambda: window.show_previews(False))
    dock = window.docks.get(os.environ.get("STUDIO_SCREENSHOT_DOCK", ""))
    if dock is not None:
        QTimer.singleShot(400, dock.show)
        QTimer.singleShot(450, dock.raise_)
    wanted_mode = os.environ.get("STUDIO_SCREENSHOT_MODE", "author").lower()
    mode = MODES.get(wanted_mode)
    if mode is not None and mode != window.modes.current:
        QTimer.singleShot(300, lambda: window.switch_mode(mode))
    if wanted_mode == "claims":
        QTimer.singleShot(400, lambda: _show_claims(window))
    elif wanted_mode == "resolve" and os.environ.get("STUDIO_SCREENSHOT_TASK"):
        QTimer.singleShot(500, lambda: _resolve_task(window))
    page = os.environ.get("STUDIO_SCREENSHOT_PAGE")
    if mode is not None and page:
        QTimer.singleShot(400, lambda: _show_page(window.modes.panel(mode), page))
    if wanted_mode == "evals":
        QTimer.singleShot(400, lambda: _show_evals(window))
    # The focus in the centre (the editor, or the mode's panel), so the focus frame shows where typing goes.
    window.activateWindow()
    QTimer.singleShot(600, lambda: window.panes.focus(window.panes.panes[1]))


def _show_evals(window: MainWindow) -> None:
    """``STUDIO_SCREENSHOT_SUITE`` (a suite path in the pack) and ``STUDIO_SCREENSHOT_COMPARE`` (``config`` or
    ``last``) set up Evals mode, so a screenshot can show a comparison."""
    panel = window.modes.panels.get("Evals")
    suite, compare = os.environ.get("STUDIO_SCREENSHOT_SUITE"), os.environ.get("STUDIO_SCREENSHOT_COMPARE")
    select, set_compare = getattr(panel, "select_suite", None), getattr(panel, "set_compare", None)
    if suite and select is not None:
        select(suite)
    if compare and set_compare is not None:
        set_compare(compare)


def _show_claims(window: MainWindow) -> None:
    panel = window.modes.panels.get("Review")
    show = getattr(panel, "show_claims", None)
    if show is not None:
        show()
    task = os.environ.get("STUDIO_SCREENSHOT_TASK")
    claims = getattr(panel, "claims", None)
    if task and claims is not None:
        claims.task.setText(task)
        QTimer.singleShot(800, claims.compare_fences)  # once the claims are read


def _resolve_task(window: MainWindow) -> None:
    from studio.ui.panels.resolver_panel import ResolverPanel

    panel = window.modes.panel_of(ResolverPanel)
    task, _, budget = os.environ.get("STUDIO_SCREENSHOT_TASK", "").partition("|")
    panel.inputs.set_task(task, int(budget) if budget.isdigit() else panel.inputs.budget)
    wanted = os.environ.get("STUDIO_SCREENSHOT_RESOLVE_TAB", "")
    for tabs in (panel.tabs, panel.left_tabs):
        for i in range(tabs.count()):
            if tabs.tabText(i).replace("&&", "&") == wanted:
                tabs.setCurrentIndex(i)
    panel.run_now()
def _show_page(panel: QWidget, title: str) -> None:
    for tabs in panel.findChildren(QTabWidget):
        for i in range(tabs.count()):
            if tabs.tabText(i) == title:
                tabs.setCurrentIndex(i)


def take_when_ready(window: MainWindow, target: Path, settle_ms: int = 3000) -> None:
    def grab() -> None:
        target.parent.mkdir(parents=True, exist_ok=True)
        dialog = window.diffs.dialog
        (dialog if dialog is not None else window).grab().save(str(target))
        print(f"screenshot saved to {target} ({window.width()}x{window.height()}, {window.modes.current} mode)")
        QApplication.quit()

    def loaded(_cancelled: bool) -> None:
        _pick_pack(window)
        ref = os.environ.get("STUDIO_SCREENSHOT_DIFF")
        if ref and window.current_pack is not None:
            dialog = window.diffs.compare(window.current_pack, "ref", ref)
            dialog.resize(window.size())
        QTimer.singleShot(settle_ms, grab)

    window.session.finished.connect(loaded)
