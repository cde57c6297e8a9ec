"""Remembered state (recent workspaces, geometry) and the PySide refcount guard."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QWidget

from studio.ui.about import about_text, versions
from studio.ui.main_window import MainWindow
from studio.ui.settings import MAX_RECENT, StudioSettings
from studio.ui.workspace_source import WorkspaceRequest


def test_recent_workspaces_are_most_recent_first_and_bounded(settings: QSettings) -> None:
    store = StudioSettings(settings)
    for i in range(MAX_RECENT + 3):
        store.add_recent([f"/packs/{i}"])
    store.add_recent(["/packs/2"])
    recent = store.recent_workspaces()
    assert recent[0] == ["/packs/2"] and len(recent) == MAX_RECENT
    assert recent.count(["/packs/2"]) == 1


def test_bundled_examples_round_trip_through_settings() -> None:
    request = WorkspaceRequest(explicit=[Path("/a")], builtin=True)
    again = WorkspaceRequest.from_settings(request.to_settings())
    assert again.explicit == [Path("/a")] and again.builtin


def test_the_window_remembers_its_layout(qtbot, settings: QSettings) -> None:
    first = MainWindow(settings)
    first.show()
    first.docks["problems"].hide()  # the user closed the Problems dock
    first.close()
    assert StudioSettings(settings).geometry() is not None
    second = MainWindow(settings)
    qtbot.addWidget(second)
    second.show()
    assert second.docks["problems"].isHidden() and not second.docks["workspace"].isHidden()
    first.deleteLater()


def test_about_lists_the_versions_needed_in_a_bug_report() -> None:
    assert set(versions()) == {"Knowledge Pack Studio", "Qt", "PySide6", "Python", "tiktoken"}
    assert "never runs anything from a pack" in about_text()


def test_many_void_qt_calls_do_not_exhaust_none(qtbot) -> None:
    # PySide6 6.12.0 on Python 3.11 dropped a reference to None on each void call; studio.ui guards it.
    widget = QWidget()
    qtbot.addWidget(widget)
    before = sys.getrefcount(None)
    for _ in range(20_000):
        widget.update()
    assert sys.getrefcount(None) > 0 and sys.getrefcount(None) >= before - 20_000


def test_an_opened_workspace_heads_the_recent_menu(qtbot, open_and_wait, window, make_pack, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The recent list is written a turn after the scan starts (not on the opening turn), but it is written."""
    text = "---\nname: {name}\ndescription: A pack for tests.\ntype: domain-reference\nstatus: ready\n---\n# G\n"
    make_pack("a", text.format(name="a"), parent=tmp_path / "first")
    make_pack("b", text.format(name="b"), parent=tmp_path / "second")
    open_and_wait(window, [tmp_path / "first"])
    open_and_wait(window, [tmp_path / "second"])
    labels = [action.text() for action in window.window_actions.recent_menu.actions()]
    assert labels[:2] == [str(tmp_path / "second"), str(tmp_path / "first")]
    assert window.settings.recent_workspaces()[0] == [str(tmp_path / "second")]
