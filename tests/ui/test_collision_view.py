"""The collision view: both copies with version and updated, the deciding rule, and "Make this copy win"."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings

from studio.core.workspace import WorkspaceOptions, open_workspace
from studio.ui.settings import StudioSettings
from studio.ui.widgets.collision_view import CollisionView


def put(folder: Path, version: str, updated: str, name: str = "brief") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "KNOWLEDGE.md").write_text(
        f"---\nname: {name}\ndescription: Facts.\ntype: domain-reference\nstatus: ready\nprofile: wiki-first\n"
        f"version: {version}\nupdated: {updated}\n---\n# Guide\n", encoding="utf-8")
    return folder


def cells(view: CollisionView) -> list[list[str]]:
    return [[view.table.item(r, c).text() for c in range(view.table.columnCount())]
            for r in range(view.table.rowCount())]


def test_pinning_the_newer_copy_from_the_view(qtbot, tmp_path: Path) -> None:
    old = put(tmp_path / "v0.4.0" / "brief", "0.4.0", "2025-01-10")
    new = put(tmp_path / "v0.7.2" / "brief", "0.7.2", "2026-03-01")
    ws = open_workspace(WorkspaceOptions(explicit=[tmp_path], builtin=False))
    view = CollisionView()
    qtbot.addWidget(view)
    view.set_copies(ws.copies("brief"))
    assert cells(view) == [["wins", "explicit", "0.4.0", "2025-01-10", str(old)],
                           ["shadowed", "explicit", "0.7.2", "2026-03-01", str(new)]]
    assert "path that sorts first wins" in view.rule.text() and "2 packs are named" in view.heading.text()
    assert view.unpin.isHidden()
    assert view.select_root(new) and view.make_winner.isEnabled()
    with qtbot.waitSignal(view.pin_requested) as pinned:
        view.make_winner.click()
    assert pinned.args == ["brief", new]
    # The window applies the pin to the workspace and shows the copies again.
    ws.set_pin("brief", new)
    view.set_copies(ws.copies("brief"), new)
    assert [row[0] for row in cells(view)] == ["shadowed", "wins (pinned)"]
    assert "copy you pinned wins" in view.rule.text() and not view.unpin.isHidden()
    with qtbot.waitSignal(view.pin_requested) as unpinned:
        view.unpin.click()
    assert unpinned.args == ["brief", None]


def test_a_copy_a_higher_scope_outranks_cannot_be_pinned_and_the_view_says_why(qtbot, tmp_path: Path) -> None:
    put(tmp_path / "p" / ".agents" / "knowledge" / "brief", "1.0.0", "2026-01-01")
    user = put(tmp_path / "u" / ".agents" / "knowledge" / "brief", "2.0.0", "2026-02-01")
    ws = open_workspace(WorkspaceOptions(project=tmp_path / "p", home=tmp_path / "u", builtin=False))
    view = CollisionView()
    qtbot.addWidget(view)
    view.set_copies(ws.copies("brief"))
    assert "Scopes decide" in view.rule.text()
    view.select_root(user)
    assert not view.make_winner.isEnabled()
    assert "A project copy outranks this user copy" in view.why_not.text()


def test_pins_are_remembered_per_workspace(tmp_path: Path) -> None:
    settings = StudioSettings(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    one, two = [str(tmp_path / "a")], [str(tmp_path / "b"), "builtin:"]
    assert settings.set_pin(one, "brief", tmp_path / "x" / "brief") == {"brief": tmp_path / "x" / "brief"}
    assert settings.pins(two) == {}
    again = StudioSettings(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    assert again.pins(one) == {"brief": tmp_path / "x" / "brief"}
    assert again.set_pin(one, "brief", None) == {} and again.pins(one) == {}
    again.store.setValue(again._pins_key(two), '{"pins": {"a": 1}}')  # garbled by hand: read as no pins
    assert again.pins(two) == {}
