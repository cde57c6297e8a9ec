"""The live watch stays within its cap on watched paths, and a new workspace starts from zero."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.ui import live_watch
from studio.ui.live_watch import LiveWatch


def _packs(base: Path, count: int) -> list[Path]:
    roots = []
    for i in range(count):
        root = base / f"p{i}"
        (root / "compiled").mkdir(parents=True)
        (root / "KNOWLEDGE.md").write_text("---\nname: p\n---\n", encoding="utf-8")
        roots.append(root)
    return roots


def _watched(watch: LiveWatch) -> int:
    return len(watch.watcher.files()) + len(watch.watcher.directories())


def test_watching_stops_at_the_cap_and_starts_over_after_clear(qtbot, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live_watch, "MAX_WATCHED", 10)  # each pack here gives 3 paths
    watch = LiveWatch()
    first, second = _packs(tmp_path / "a", 3), _packs(tmp_path / "b", 3)
    watch.watch_packs(first[:2])
    qtbot.waitUntil(lambda: _watched(watch) == 6, timeout=5000)
    watch.watch_packs(first[2:] + second)
    qtbot.waitUntil(lambda: _watched(watch) == 10, timeout=5000)
    qtbot.wait(100)
    assert _watched(watch) == 10
    watch.clear()
    watch.watch_packs(second)
    qtbot.waitUntil(lambda: _watched(watch) == 9, timeout=5000)
