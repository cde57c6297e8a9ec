"""``pack-studio open``: a clear message instead of a crash when no window can be shown."""

from __future__ import annotations

import sys

import pytest

from studio.launcher import main


def test_without_a_display_open_explains_and_exits_2(monkeypatch, capsys) -> None:
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    assert main(["open", "somewhere"]) == 2
    err = capsys.readouterr().err
    assert "no display" in err and "pack-studio validate" in err


def test_no_arguments_means_open(monkeypatch, capsys) -> None:
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    assert main([]) == 2
    assert "cannot open the desktop app" in capsys.readouterr().err


def test_missing_pyside_is_reported(monkeypatch, capsys) -> None:
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    monkeypatch.setitem(sys.modules, "studio.ui.app", None)  # makes the lazy import fail like a missing PySide6
    assert main(["open"]) == 2
    assert "needs PySide6" in capsys.readouterr().err


@pytest.mark.parametrize("flag", ["--project", "--home"])
def test_scope_options_are_accepted(flag: str, monkeypatch, tmp_path) -> None:
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    assert main(["open", flag, str(tmp_path)]) == 2  # parsed fine; stopped only by the missing display
