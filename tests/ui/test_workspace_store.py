"""What the window remembers about a workspace: folders by absolute path, and pins in the one store the CLI
reads (``<project>/.pack-studio/workspace.json``), so ``pack-studio validate .`` agrees with the window."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from test_same_name_window import put

from studio.cli import main
from studio.ui.main_window import MainWindow


def test_a_folder_opened_as_dot_is_remembered_by_its_absolute_path(
        qtbot, open_and_wait, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    put(tmp_path / "ws" / "brief", "1.0.0")
    monkeypatch.chdir(tmp_path / "ws")
    open_and_wait(window, [Path(".")])
    qtbot.waitUntil(lambda: bool(window.settings.recent_workspaces()), timeout=5000)
    assert window.settings.last_workspace() == [str(tmp_path / "ws")]
    monkeypatch.chdir(tmp_path)  # the desktop entry starts elsewhere: the same folder opens
    assert window.session.request.explicit == [tmp_path / "ws"]


def test_a_pin_made_in_the_window_is_what_validate_reads(
        qtbot, open_and_wait, settings: QSettings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    ws = tmp_path / "ws"
    old = put(ws / "v0.4.0" / "brief", "0.4.0")
    new = put(ws / "v0.7.2" / "brief", "0.7.2")
    monkeypatch.chdir(ws)
    window = MainWindow(settings)
    window.show()
    try:
        open_and_wait(window, [Path(".")])
        window.copies.pin("brief", new)
        assert window.session.packs[new].loads and not window.session.packs[old].loads
    finally:
        window.session.cancel()
        window.close()
    stored = json.loads((ws / ".pack-studio" / "workspace.json").read_text())
    assert stored == {"pins": {"brief": "v0.7.2/brief"}}
    # The CLI, from the same folder, lets the same copy win.
    main(["validate", ".", "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert {p["path"]: p["shadowed_by"] for p in report["packs"]} == {str(old): str(new), str(new): None}
    # A window started from another folder on the remembered workspace keeps the pin.
    monkeypatch.chdir(tmp_path)
    again = MainWindow(settings)
    again.show()
    try:
        open_and_wait(again, [ws])
        assert again.session.packs[new].loads and not again.session.packs[old].loads
    finally:
        again.session.cancel()
        again.close()
