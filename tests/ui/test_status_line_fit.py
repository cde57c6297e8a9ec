"""The status bar at 1280 px: a long workspace name gives up its width, never the pack count or the progress."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel

from studio.core.diagnostics import DiagnosticCounts
from studio.ui.main_window import MainWindow


def test_a_long_workspace_name_is_cut_and_the_counts_and_progress_read_whole(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.resize(1280, 720)
    qtbot.waitExposed(window)
    status = window.status
    name = ", ".join(f"access-control-{n:05d}" for n in range(60)) + " and 940 more"
    status.set_workspace(name)
    status.set_counts(DiagnosticCounts(errors=65, warnings=120, infos=3000), 10000, 650, 12)
    status.show_cached(10000)
    qtbot.wait(50)  # the bar lays out its widgets
    for label in (status.packs_label, status.counts_label, status.progress_label):
        assert label.isVisible()
        assert label.width() >= label.sizeHint().width(), (label.text(), label.width(), label.sizeHint().width())
    assert status.workspace_label.text() == status.workspace_label.toolTip() == name
    shown = QLabel.text(status.workspace_label)  # what is painted
    assert "…" in shown and len(shown) < len(name)
