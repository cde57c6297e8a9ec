"""Qt fixtures for the desktop app tests; everything runs offscreen with throwaway settings."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # before any Qt import; override it to watch

import gc  # noqa: E402
import hashlib  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
from PySide6.QtCore import QSettings, QThreadPool  # noqa: E402

from studio.ui.main_window import MainWindow  # noqa: E402


@pytest.fixture
def settings(tmp_path: Path) -> QSettings:
    """An INI file in the test's temp dir: the real user's settings are never read or written."""
    return QSettings(str(tmp_path / "settings" / "studio.ini"), QSettings.Format.IniFormat)


@pytest.fixture(autouse=True, scope="session")
def collector_on_the_test_thread() -> Iterator[None]:
    """As in the app (``studio.ui.gc_policy``): no automatic cycle collection, which could free a test's
    widgets in a worker thread and crash the run; ``no_leftover_work`` collects after each test instead."""
    enabled = gc.isenabled()
    gc.disable()
    yield
    if enabled:
        gc.enable()


@pytest.fixture(autouse=True)
def no_leftover_work() -> Iterator[None]:
    """Fail a test that leaves thread-pool work running (it would race the next test)."""
    yield
    assert QThreadPool.globalInstance().waitForDone(10_000), "worker jobs still running after the test"
    gc.collect()  # the test's garbage, on this (the GUI) thread


@pytest.fixture
def window(qtbot, settings: QSettings) -> Iterator[MainWindow]:  # type: ignore[no-untyped-def]
    # Not qtbot.addWidget: pytest-qt would close the window before this fixture could mark the
    # buffers clean, and the unsaved-changes prompt would then wait forever offscreen.
    win = MainWindow(settings)
    win.show()
    yield win
    # Close without the unsaved-changes prompt: mark every buffer clean first.
    win.session.cancel()
    QThreadPool.globalInstance().waitForDone(10_000)
    qtbot.wait(1)  # deliver the last worker results before deciding nothing is left unsaved
    for tab in win.editors.tabs():
        tab.editor.document().setModified(False)
    win.close()
    win.deleteLater()


@pytest.fixture
def open_and_wait(qtbot):  # type: ignore[no-untyped-def]
    """``open_and_wait(window, [paths])``: open a workspace and return once the scan has finished."""

    def _open(win: MainWindow, paths: list[Path]) -> None:
        with qtbot.waitSignal(win.session.finished, timeout=20_000):
            win.open_paths(paths)

    return _open


@pytest.fixture
def tree_digest():  # type: ignore[no-untyped-def]
    return _tree_digest


def _tree_digest(root: Path) -> dict[str, str]:
    """Path -> sha256 of every file under ``root`` (plus directories, so a new folder shows too)."""
    out: dict[str, str] = {}
    for dirpath, _dirnames, filenames in os.walk(root):
        rel = Path(dirpath).relative_to(root).as_posix()
        out[rel + "/"] = "dir"
        for name in filenames:
            full = Path(dirpath) / name
            out[f"{rel}/{name}"] = hashlib.sha256(full.read_bytes()).hexdigest()
    return out
