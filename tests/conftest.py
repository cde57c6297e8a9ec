"""Fixtures shared by every test package."""

from __future__ import annotations

import gc
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "resources" / "examples"
DATA = Path(__file__).resolve().parent / "data"



@pytest.fixture(autouse=True, scope="session")
def _private_cache_folder(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """Commands cache results in $XDG_CACHE_HOME: the suite (and every process it starts) uses its own folder,
    never the user's."""
    before = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("xdg-cache"))
    yield
    if before is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = before


@pytest.fixture(autouse=True)
def _collector_settings_restored():  # type: ignore[no-untyped-def]
    """A command run in-process tunes the cycle collector for one batch (studio.core.batch_gc); a process
    running one command then exits, but this one runs every test after it, so each test starts from the
    thresholds the one before it found."""
    threshold = gc.get_threshold()
    yield
    gc.set_threshold(*threshold)


@pytest.fixture
def examples_copy(tmp_path: Path) -> Path:
    """A private copy of the bundled examples, safe to modify."""
    dest = tmp_path / "examples"
    shutil.copytree(EXAMPLES, dest)
    return dest


@pytest.fixture
def make_pack(tmp_path: Path) -> Callable[..., Path]:
    """Write a pack: ``make_pack("name", "---\\n...\\n---\\nbody", {"compiled/facts.md": "..."})``."""

    def _make(name: str, knowledge: str | bytes, files: dict[str, str | bytes] | None = None,
              parent: Path | None = None) -> Path:
        root = (parent or tmp_path) / name
        root.mkdir(parents=True, exist_ok=True)
        data = knowledge.encode("utf-8") if isinstance(knowledge, str) else knowledge
        (root / "KNOWLEDGE.md").write_bytes(data)
        for rel, content in (files or {}).items():
            target = root / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            payload = content.encode("utf-8") if isinstance(content, str) else content
            target.write_bytes(payload)
        return root

    return _make


@pytest.fixture
def trash_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A freedesktop trash under the test's temp dir; returns its folder (``…/Trash``).

    send2trash reads XDG_DATA_HOME once, when it is first imported, and picks the home trash only for files
    on the home folder's device; so HOME moves here too and the module's cached paths are pointed here
    (a rename of those names in send2trash makes this fixture fail, never trash into the real home).
    """
    from send2trash import plat_other  # type: ignore[import-untyped]

    home = tmp_path / "home"
    data = home / ".local" / "share"
    data.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    monkeypatch.setattr(plat_other, "XDG_DATA_HOME", os.fsencode(data))
    monkeypatch.setattr(plat_other, "HOMETRASH_B", os.fsencode(data / "Trash"))
    monkeypatch.setattr(plat_other, "HOMETRASH", str(data / "Trash"))
    return data / "Trash"
