"""The Runs statistics view lists selected files changed since a record hashed them, and says when it cannot tell."""

from __future__ import annotations

from studio.core.runs.stats import RunStats, SelectedChange
from studio.ui.panels.run_stats_view import RunStatsView


def texts(widget) -> list[str]:  # type: ignore[no-untyped-def]
    return [widget.item(i).text() for i in range(widget.count())]


def test_changed_selected_files_and_the_no_hash_note(qtbot) -> None:
    view = RunStatsView()
    qtbot.addWidget(view)
    stats = RunStats(selection_counts={"compiled/a.md": 2, "compiled/b.md": 1},
                     selected_modified=[SelectedChange("compiled/a.md", "2026-05-01 10:00:00Z", "runs/compile-1.json")],
                     selected_unhashed=["compiled/b.md"])
    view.set_stats(stats)
    assert texts(view.selected_changed) == [
        "compiled/a.md  (last selected 2026-05-01 10:00:00Z; hash in runs/compile-1.json)"]
    assert not view.change_note.isHidden() and "1 of 2 selected files" in view.change_note.text()
    view.set_stats(RunStats(selection_counts={"compiled/b.md": 1}, selected_unhashed=["compiled/b.md"]))
    assert texts(view.selected_changed) == ["(none)"]
    assert view.change_note.text().startswith("No record carries a content hash")
    view.set_stats(None)
    assert view.change_note.isHidden()
