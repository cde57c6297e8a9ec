"""The window appears with its tokenizers and lookalike tables built: building them later, on screen, would freeze
the window.

tiktoken builds its encoder without letting go of the interpreter lock (100-150 ms), and the lookalike tables take
50-60 ms to parse Unicode's confusables file, so a build in a worker while the window is shown stops the GUI thread
for that long; the app builds them while its modules load instead.
"""

from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import QSettings

from studio.core import lookalike, tokens
from studio.core.first_use import prepare_in_background
from studio.launcher import main
from studio.ui import app as app_module
from studio.ui.settings import Preferences, StudioSettings


def test_the_window_is_shown_once_the_tokenizers_and_lookalike_tables_are_built(
        qapp, monkeypatch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    monkeypatch.setattr(tokens, "_built", {})  # as in a fresh process
    for table in (lookalike._prototypes, lookalike._translation, lookalike._ascii_table):
        table.cache_clear()
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    StudioSettings(settings).save_preferences(Preferences(encoding="o200k_base"))
    built_when_shown: list[set[str]] = []
    monkeypatch.setattr(app_module, "default_settings", lambda: settings)
    monkeypatch.setattr(app_module.MainWindow, "show", lambda self: built_when_shown.append(
        {*tokens._built, *(["lookalike"] if lookalike._ascii_table.cache_info().currsize == 2 else [])}))
    monkeypatch.setattr(app_module.MainWindow, "open_request", lambda self, request: None)  # no scan needed
    monkeypatch.setattr(type(qapp), "exec", lambda self: 0)  # the event loop would wait for a user
    monkeypatch.setattr(app_module, "MainWindow", _with_settings(app_module.MainWindow, settings))
    assert main(["open", str(tmp_path)]) == 0
    assert built_when_shown == [{"cl100k_base", "o200k_base", "lookalike"}]
    assert lookalike.confusables_available()  # the tables hold Unicode's data, not just case folding


def _with_settings(window_class: type, settings: QSettings) -> type:
    class Window(window_class):  # type: ignore[misc, valid-type]
        def __init__(self, _settings: QSettings | None = None) -> None:
            super().__init__(settings)
    return Window


def test_an_unknown_encoding_in_the_background_build_is_reported_later_not_raised(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(tokens, "_built", {})
    thread = prepare_in_background(["not-an-encoding", "cl100k_base"])
    assert isinstance(thread, threading.Thread) and thread.daemon  # never holds the process open at exit
    thread.join(60)
    assert not thread.is_alive()
    assert "cl100k_base" in tokens._built, "the names after a bad one are built too"
    assert not tokens.get_tokenizer("not-an-encoding").available
