"""The live watch stays within its cap on watched paths, and a new workspace starts from zero."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.ui import live_watch
from studio.ui.live_watch import LiveWatch
from studio.ui.pacing import Pace


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
    # Past the cap, more packs are not even listed (at 10,000 packs that was 8,000 folders for nothing).
    listed: list[Path] = []
    real = live_watch.paths_to_watch
    monkeypatch.setattr(live_watch, "paths_to_watch", lambda roots: listed.extend(roots) or real(roots))
    watch.watch_packs(_packs(tmp_path / "c", 3))
    qtbot.wait(100)
    assert listed == [] and _watched(watch) == 10
    watch.clear()
    watch.watch_packs(second)
    qtbot.waitUntil(lambda: _watched(watch) == 9, timeout=5000)
    assert listed == second  # a new workspace starts from zero


def test_many_packs_are_watched_in_slices_and_a_change_is_reported(qtbot, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    watch = LiveWatch()
    watch._adding.pace = Pace.fixed(7)  # 30 packs x 3 paths: many slices
    roots = _packs(tmp_path / "many", 30)
    watch.watch_packs(roots)
    qtbot.waitUntil(lambda: _watched(watch) == 90, timeout=5000)
    with qtbot.waitSignal(watch.pack_changed, timeout=5000) as changed:
        (roots[-1] / "compiled" / "new.md").write_text("# new\n", encoding="utf-8")
    assert changed.args == [roots[-1]]


def test_a_cleared_watch_reports_nothing_of_the_old_workspace(qtbot, tmp_path: Path) -> None:
    watch = LiveWatch()
    old = _packs(tmp_path / "old", 2)
    watch.watch_packs(old)
    qtbot.waitUntil(lambda: _watched(watch) == 6, timeout=5000)
    watch.clear()
    assert _watched(watch) == 0
    reported: list[Path] = []
    watch.pack_changed.connect(reported.append)
    (old[0] / "compiled" / "late.md").write_text("# late\n", encoding="utf-8")
    qtbot.wait(live_watch.DEBOUNCE_MS + 300)
    assert reported == []
