"""The window's icons come from the installed package; a missing icon folder is said once, not silently blank."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from studio.core.resources import icons_dir
from studio.ui import icons


def test_severity_icons_load_from_the_bundled_folder(qapp) -> None:
    assert icons_dir() == icons.ICON_DIR
    for severity in ("error", "warning", "info"):
        assert not icons.severity_icon(severity).isNull()
    assert not icons.icon("app").isNull()


def test_the_empty_name_is_a_deliberate_blank_not_a_warning(qapp, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="studio.ui.icons"):
        assert icons.icon("").isNull()
    assert caplog.records == []


def test_missing_icon_folder_is_a_warning_naming_it(qapp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    gone = tmp_path / "site-packages" / "studio" / "resources" / "icons"
    monkeypatch.setattr(icons, "ICON_DIR", gone)
    icons.icon.cache_clear()
    icons._warn_missing.cache_clear()
    try:
        with caplog.at_level(logging.WARNING, logger="studio.ui.icons"):
            assert icons.icon("error").isNull() and icons.icon("warning").isNull()
    finally:
        icons.icon.cache_clear()
        icons._warn_missing.cache_clear()
    (record,) = caplog.records  # once per missing folder, not once per icon
    assert str(gone) in record.getMessage() and "incomplete" in record.getMessage()
