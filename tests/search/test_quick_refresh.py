"""A refresh that trusts packs whose folders did not change (``studio.core.search.folders``): what it skips and
what it still sees."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from studio.core.search import SearchIndex
from studio.core.search import folders as folders_module


@pytest.fixture(autouse=True)
def folders_sure_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(folders_module, "RACY_NS", 0)


def _next_tick() -> None:
    time.sleep(0.05)  # past the file system clock's tick, so a change gives a folder new times


def test_unchanged_packs_are_not_walked_and_still_searched(index: SearchIndex, kettle: Path,
                                                           teahouse: Path) -> None:
    _next_tick()
    index.refresh([kettle, teahouse])
    again = index.refresh([kettle, teahouse])
    assert (again.trusted, again.files, again.bytes_read) == (2, 0, 0)
    assert index.search("外公").hits and index.search("warranty").hits


def test_a_new_renamed_or_deleted_file_changes_its_folder_and_is_seen(index: SearchIndex, kettle: Path) -> None:
    _next_tick()
    index.refresh([kettle])
    _next_tick()
    (kettle / "wiki" / "concepts" / "filters.md").write_text("# Filters\n\nRinse the limescale filter.\n",
                                                              encoding="utf-8")
    (kettle / "compiled" / "facts.md").rename(kettle / "compiled" / "renamed.md")
    (kettle / "documents" / "brief.md").unlink()
    report = index.refresh([kettle])
    assert report.trusted == 0
    hit = index.search("limescale").hits[0]
    assert (hit.path, hit.line) == ("wiki/concepts/filters.md", 3)
    assert {h.path for h in index.search("warranty", limit=50).hits} == {"compiled/renamed.md",
                                                                          "sources/interview.txt"}


def test_an_atomic_save_is_seen(index: SearchIndex, kettle: Path) -> None:
    _next_tick()
    index.refresh([kettle])
    _next_tick()
    page = kettle / "wiki" / "concepts" / "descaling.md"
    temp = page.with_name(".descaling.md.tmp")
    temp.write_text("# Descaling\n\nUse vinegar sparingly.\n", encoding="utf-8")
    os.replace(temp, page)
    index.refresh([kettle])
    assert index.search("vinegar").hits[0].line == 3


def test_a_file_rewritten_in_place_needs_the_full_check(index: SearchIndex, kettle: Path) -> None:
    # The one change folder times cannot see; the app's watcher reports it, and --recheck stats every file.
    _next_tick()
    index.refresh([kettle])
    page = kettle / "wiki" / "concepts" / "descaling.md"
    with open(page, "a", encoding="utf-8") as f:
        f.write("Never use a dishwasher tablet.\n")
    assert index.refresh([kettle]).trusted == 1
    report = index.refresh([kettle], quick=False)
    assert report.trusted == 0 and report.indexed == 1
    assert index.search("dishwasher").hits[0].line == 5
