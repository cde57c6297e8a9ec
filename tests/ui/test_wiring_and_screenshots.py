"""Part A's pieces wired into the window (Problems title and step notes, panels' status messages), and the
screenshot hook's options (mode, size, theme) on the real app in a child process."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from PySide6.QtGui import QImage

from studio.core.diagnostics import Severity
from studio.core.search.store import INDEX_FILE
from studio.ui.main_window import MainWindow
from studio.ui.widgets.catalog_preview import compressed_for


def test_the_problems_dock_title_and_f8_say_what_a_filter_hides(qtbot, open_and_wait, window: MainWindow,
                                                                examples_copy: Path) -> None:
    open_and_wait(window, [examples_copy])
    dock = window.docks["problems"]
    assert dock.windowTitle() == window.problems.title() and dock.windowTitle().startswith("Problems (")
    window.problems.severity_boxes[Severity.INFO].setChecked(False)
    shown, total = window.diag_model.rowCount(), window.diag_model.total()
    assert shown < total
    assert dock.windowTitle().startswith(f"Problems ({shown:,} of {total:,} shown")
    window.window_actions.next_problem.trigger()
    assert f"of the {shown:,} shown" in window.statusBar().currentMessage()
    window.problems.severity_boxes[Severity.INFO].setChecked(True)
    assert " of " not in dock.windowTitle()


def test_a_panels_status_message_reaches_the_status_bar(qtbot, window: MainWindow) -> None:
    window.modes.panel("Review").status_message.emit("Recorded “confirm” for brief in runs/review-1.json.")
    assert window.statusBar().currentMessage() == "Recorded “confirm” for brief in runs/review-1.json."
    window.modes.panel("Evals").status_message.emit("Evals said something")
    assert window.statusBar().currentMessage() == "Evals said something"


def test_the_catalog_previews_compressed_index_keeps_its_token_counts_in_the_search_cache(
        qtbot, open_and_wait, window: MainWindow, examples_copy: Path) -> None:
    """The L0 preview counts each runtime file's tokens once: the counts go to the search index's folder, so
    rebuilding the preview (every filter change) does not count them all again."""
    assert window.previews.catalog.cache_dir == window.search.cache_dir
    open_and_wait(window, [examples_copy])
    preview = compressed_for(list(window.session.packs.values()), (), (), (), window.previews.catalog.cache_dir)
    assert "tokens for 5 pack(s)" in preview.tokens
    with sqlite3.connect(window.search.cache_dir / INDEX_FILE) as db:
        kept = db.execute("SELECT count(*) FROM token_counts").fetchone()[0]
    assert kept >= 5  # a count per runtime file of the five examples, where the search index lives


def test_the_screenshot_hook_shows_the_mode_at_the_size_asked_for(tmp_path: Path, examples_copy: Path) -> None:
    target = tmp_path / "evals.png"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", STUDIO_SCREENSHOT=str(target),
               STUDIO_SCREENSHOT_MODE="evals", STUDIO_SCREENSHOT_SIZE="1024x700", STUDIO_SCREENSHOT_THEME="dark",
               STUDIO_SCREENSHOT_PACK="northwind-espresso", HOME=str(tmp_path / "home"),
               XDG_CONFIG_HOME=str(tmp_path / "config"), TMPDIR=str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    done = subprocess.run([sys.executable, "-m", "studio", "open", str(examples_copy)], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "(1024x700, Evals mode)" in done.stdout
    image = QImage(str(target))
    assert (image.width(), image.height()) == (1024, 700)
    assert image.pixelColor(image.width() // 2, 2).lightness() < 128  # the dark theme's menu bar
    assert not (tmp_path / "config" / "KnowledgePackStudio").exists()  # the user's settings were not touched
    assert list((tmp_path / "tmp").iterdir()) == []  # its throwaway settings went with it
