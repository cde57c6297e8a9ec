"""The Problems table's columns follow the room it has: narrowed in a small window so the message stays readable,
and back to their widths in a large one (they stayed half-width in a 1920-pixel window after a small first
layout)."""

from __future__ import annotations

from studio.ui.main_window import MainWindow
from studio.ui.widgets.problems_panel import COLUMN_WIDTHS, SHRINKING, ProblemsPanel


def _widths(panel: ProblemsPanel) -> list[int]:
    return [panel.table.columnWidth(column) for column in SHRINKING]


def test_a_window_first_shown_large_shows_the_columns_whole(settings, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = MainWindow(settings)
    window.resize(1920, 1080)
    window.show()
    try:
        panel = window.findChild(ProblemsPanel)
        assert panel is not None
        qtbot.waitUntil(lambda: panel.table.viewport().width() > 1500, timeout=3000)
        qtbot.wait(100)
        assert _widths(panel) == [COLUMN_WIDTHS[column] for column in SHRINKING]
    finally:
        window.close()
        window.deleteLater()


def test_columns_narrow_in_a_small_window_and_come_back_in_a_large_one(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    panel = window.findChild(ProblemsPanel)
    assert panel is not None
    full = [COLUMN_WIDTHS[column] for column in SHRINKING]
    window.resize(900, 700)
    qtbot.waitUntil(lambda: _widths(panel) != full, timeout=3000)
    assert all(w < f for w, f in zip(_widths(panel), full, strict=True))
    window.resize(1920, 1080)
    qtbot.waitUntil(lambda: _widths(panel) == full, timeout=3000)
