"""The window fits a laptop: every mode at 1024×700, no mode switch resizes it, docks and splitters per mode."""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import QSettings, QSize, Qt, QTimer
from PySide6.QtWidgets import QSplitter

from studio.ui.main_window import MainWindow
from studio.ui.mode_layouts import CENTRE_ROOM

MODES = ["Author", "Resolve", "Runs", "Review", "Evals"]


def _select(qtbot, window: MainWindow, name: str) -> None:  # type: ignore[no-untyped-def]
    pack = next(p for p in window.session.packs.values() if p.name == name)
    window.workspace_panel.select_pack(pack.root)
    window.open_file(pack.knowledge_path, 1)
    qtbot.waitUntil(lambda: window.inspector.pack is not None and window.inspector.pack.root == pack.root,
                    timeout=5000)


def _share(splitter: QSplitter) -> float:
    """The first pane's share of the splitter (pixel sizes follow the page's size, the share is what is kept)."""
    sizes = splitter.sizes()
    return sizes[0] / max(sum(sizes), 1)


def test_every_mode_fits_1024_by_700_and_a_mode_switch_never_resizes_the_window(
        qtbot, open_and_wait, window: MainWindow, examples_copy: Path) -> None:
    open_and_wait(window, [examples_copy])
    _select(qtbot, window, "northwind-espresso")
    window.resize(1024, 700)
    qtbot.waitUntil(lambda: window.size() == QSize(1024, 700), timeout=2000)
    for name in MODES + list(reversed(MODES)):
        window.switch_mode(name)
        qtbot.wait(50)  # the window fits itself to a resize on the next turn (its layout is final at once then)
        least = window.minimumSizeHint().expandedTo(window.minimumSize())
        assert least.width() <= 1024 and least.height() <= 700, (name, least)
        assert window.size() == QSize(1024, 700), name
        page = window.center.currentWidget()
        # The page gets the room it needs: nothing of it is cut off or left to scroll at this size.
        assert page.width() >= 560 and page.height() >= 400, (name, page.size())
        scroll = getattr(page, "verticalScrollBar", None)
        if scroll is not None:
            assert not scroll().isVisible(), f"{name} scrolls at 1024×700"
        if name == "Author":  # Problems' message keeps room: the code, pack and path columns narrow first
            assert window.problems.table.columnWidth(5) >= 300


def test_the_centre_has_its_room_on_the_turn_after_a_resize_however_busy_the_event_loop(
        qtbot, open_and_wait, window: MainWindow, examples_copy: Path) -> None:
    """The fit to a resize lays the window out at once: the relayout Qt would do two turns later could wait
    behind other work (a preview rendering, a scan's results) past the test's wait, and the page kept the
    docks sized for the wider window (452 px of 1024 instead of about 600) until then."""
    open_and_wait(window, [examples_copy])
    window.resize(1024, 700)
    qtbot.waitUntil(lambda: window.size() == QSize(1024, 700), timeout=2000)
    QTimer.singleShot(0, window, lambda: time.sleep(0.1))  # work queued behind the window's fit, longer than the wait
    qtbot.wait(50)
    assert window.center.currentWidget().width() >= CENTRE_ROOM - 4


def test_a_job_mode_seen_first_keeps_its_default_workspace_width(qtbot, open_and_wait, window: MainWindow,
                                                                 examples_copy: Path) -> None:
    """A first-time mode's docks are sized before the centre's room is checked: the check used to read the last
    mode's centre and narrow the new mode's Workspace for a deficit it did not have (to 215 px, or to the 170 px
    floor, when Author's fit was still pending)."""
    open_and_wait(window, [examples_copy])
    window.resize(1024, 700)
    qtbot.waitUntil(lambda: window.size() == QSize(1024, 700), timeout=2000)
    qtbot.wait(50)
    window.switch_mode("Resolve")
    assert window.docks["workspace"].width() >= 220  # the default: a fifth of the window, 220-360 px


def test_the_side_docks_give_way_before_the_editor(qtbot, open_and_wait, window: MainWindow,
                                                   examples_copy: Path) -> None:
    open_and_wait(window, [examples_copy])
    window.resize(1400, 900)
    qtbot.wait(50)
    window.resizeDocks([window.docks["workspace"], window.docks["inspector"]], [420, 420], Qt.Orientation.Horizontal)
    qtbot.wait(50)
    window.resize(1024, 700)
    qtbot.waitUntil(lambda: window.center.width() >= CENTRE_ROOM - 4, timeout=3000)
    # The docks shrank (Qt alone would have taken the whole loss from the centre).
    assert window.docks["workspace"].width() < 420 and window.docks["inspector"].width() < 420


def test_problems_is_hidden_outside_author_until_shown_and_each_mode_remembers_its_docks(
        qtbot, open_and_wait, settings: QSettings, examples_copy: Path) -> None:
    window = MainWindow(settings)
    window.show()
    try:
        open_and_wait(window, [examples_copy])
        assert window.docks["problems"].isVisible() and window.docks["inspector"].isVisible()
        window.switch_mode("Review")
        assert not window.docks["problems"].isVisible() and not window.docks["inspector"].isVisible()
        window.docks["problems"].show()  # the curator wants Problems in Review
        window.switch_mode("Runs")
        assert not window.docks["problems"].isVisible()
        window.docks["workspace"].hide()  # and no Workspace in Runs
        window.switch_mode("Author")
        assert window.docks["problems"].isVisible() and window.docks["workspace"].isVisible()
        window.switch_mode("Review")
        assert window.docks["problems"].isVisible() and window.docks["workspace"].isVisible()
        window.switch_mode("Runs")
        assert not window.docks["workspace"].isVisible()
        window.switch_mode("Review")
        review_split = window.modes.panel("Review").findChild(QSplitter)
        review_split.setSizes([300, 500])
        kept = _share(review_split)
    finally:
        window.session.cancel()
        window.close()
    # The next session: every mode as it was left.
    again = MainWindow(settings)
    again.show()
    try:
        open_and_wait(again, [examples_copy])
        again.switch_mode("Review")
        assert again.docks["problems"].isVisible()
        assert abs(_share(again.modes.panel("Review").findChild(QSplitter)) - kept) < 0.02
        again.switch_mode("Runs")
        assert not again.docks["workspace"].isVisible() and not again.docks["problems"].isVisible()
        again.switch_mode("Evals")  # never changed: the defaults
        assert again.docks["workspace"].isVisible() and not again.docks["problems"].isVisible()
    finally:
        again.session.cancel()
        again.close()


def test_the_previews_collapse_come_back_and_are_remembered(qtbot, open_and_wait, settings: QSettings,
                                                           examples_copy: Path) -> None:
    window = MainWindow(settings)
    window.show()
    try:
        open_and_wait(window, [examples_copy])
        editor_before = window.editors.width()
        window.window_actions.toggle_previews.trigger()
        qtbot.wait(20)
        assert not window.previews_shown() and not window.window_actions.toggle_previews.isChecked()
        assert window.editors.width() > editor_before
        window.switch_mode("Resolve")
        window.window_actions.toggle_previews.trigger()  # bringing the previews back shows Author
        assert window.modes.current == "Author" and window.previews_shown()
        window.window_actions.toggle_previews.trigger()
    finally:
        window.session.cancel()
        window.close()
    again = MainWindow(settings)
    again.show()
    try:
        qtbot.waitUntil(lambda: not again.window_actions.toggle_previews.isChecked(), timeout=3000)
        assert not again.previews_shown()
    finally:
        again.close()


def test_the_first_window_fits_the_screen_it_opens_on(qtbot, settings: QSettings) -> None:  # type: ignore[no-untyped-def]
    window = MainWindow(settings)  # nothing remembered yet: a first start
    try:
        area = window.screen().availableGeometry()
        assert area.width() < 1400, "the offscreen test screen is smaller than the preferred first size"
        assert window.width() <= area.width() and window.height() <= area.height()
        assert window.size() == QSize(1400, 900).boundedTo(area.size())
    finally:
        window.close()


def test_first_size_is_the_preferred_size_bounded_by_the_available_area() -> None:
    from studio.ui.fit import first_size

    assert first_size(QSize(1280, 690)) == QSize(1280, 690)
    assert first_size(QSize(1920, 1050)) == QSize(1400, 900)
    assert first_size(QSize(1024, 1200)) == QSize(1024, 900)
    assert first_size(QSize()) == QSize(1400, 900)


def _rows_in_sight(view, row_height: int) -> float:  # type: ignore[no-untyped-def]
    return view.viewport().height() / max(row_height, 1)


def _resolve_with_find(qtbot, window: MainWindow, size: QSize):  # type: ignore[no-untyped-def]
    """Resolve mode at ``size`` with a task resolved and Find in Workspace open with results."""
    from studio.ui.panels.resolver_panel import ResolverPanel

    window.resize(size)
    qtbot.waitUntil(lambda: window.size() == size, timeout=2000)
    window.switch_mode("Resolve")
    panel = window.modes.panel_of(ResolverPanel)
    panel.inputs.set_task("retry with backoff", 4000)
    panel.run_now()
    qtbot.waitUntil(lambda: panel.result is not None, timeout=10_000)
    window.find_in_workspace()
    window.find_panel.query.setText("price")
    window.find_panel.search_now()
    qtbot.waitUntil(lambda: window.find_panel.model.rowCount() > 0, timeout=20_000)
    qtbot.wait(100)  # the window fits itself to the dock just shown on the next turn
    return panel


def test_at_1024_by_700_resolve_results_and_find_results_get_the_room_the_form_gives_way(
        qtbot, open_and_wait, window: MainWindow, examples_copy: Path) -> None:
    """The results are the mode's main output: with Find in Workspace open at 1024x700, Resolve's candidate
    table shows at least six rows (it showed two) and Find's results six (about two); the form above the
    candidates scrolls in its place instead."""
    open_and_wait(window, [examples_copy])
    panel = _resolve_with_find(qtbot, window, QSize(1024, 700))
    row = panel.table.verticalHeader().defaultSectionSize()
    assert _rows_in_sight(panel.table, row) >= 6
    tree = window.find_panel.tree
    assert window.docks["find"].isVisible()
    assert _rows_in_sight(tree, tree.visualRect(window.find_panel.model.index(0, 0)).height()) >= 6
    page = window.modes.pages["Resolve"]
    assert not page.verticalScrollBar().isVisible()  # the page fits: only the form scrolls


def test_at_1280_by_720_the_resolve_results_fill_the_page_below_the_form(
        qtbot, open_and_wait, window: MainWindow, examples_copy: Path) -> None:
    """No blank band: the form keeps its natural height and the results take every pixel below it."""
    open_and_wait(window, [examples_copy])
    panel = _resolve_with_find(qtbot, window, QSize(1280, 720))
    window.docks["find"].hide()
    qtbot.wait(100)
    form = panel.form_area
    assert form.height() == form.widget().sizeHint().height()  # all of the form, no scrolling
    below = panel.height() - panel.layout().contentsMargins().bottom()
    candidates = panel.left_tabs
    bottom = candidates.mapTo(panel, candidates.rect().bottomLeft()).y()
    assert below - bottom <= 2
    assert _rows_in_sight(panel.table, panel.table.verticalHeader().defaultSectionSize()) >= 10
