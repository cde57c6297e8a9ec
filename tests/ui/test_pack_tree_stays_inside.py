"""The Workspace tree lists a pack's folders through the pack's descriptors, never following a symlink out."""

from __future__ import annotations

import shutil
from pathlib import Path

from studio.ui.models.pack_tree import list_directory


def _pack_with_outside(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "pack"
    (root / "wiki").mkdir(parents=True)
    (root / "KNOWLEDGE.md").write_text("---\nname: pack\n---\n", encoding="utf-8")
    (root / "wiki" / "page.md").write_text("# page\n", encoding="utf-8")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret-payroll.csv").write_text("x", encoding="utf-8")
    return root, outside


def test_a_folder_lists_its_own_entries_folders_first(tmp_path: Path) -> None:
    root, _outside = _pack_with_outside(tmp_path)
    assert list_directory(root, root) == [("wiki", True), ("KNOWLEDGE.md", False)]
    assert list_directory(root, root / "wiki") == [("page.md", False)]


def test_a_folder_swapped_for_a_symlink_out_of_the_pack_lists_nothing(tmp_path: Path) -> None:
    root, outside = _pack_with_outside(tmp_path)
    assert ("wiki", True) in list_directory(root, root)  # listed as a folder when the pack was expanded
    shutil.rmtree(root / "wiki")
    (root / "wiki").symlink_to(outside, target_is_directory=True)  # swapped before the user expands it
    assert list_directory(root, root / "wiki") == []
    assert ("wiki", False) in list_directory(root, root)  # the link itself is listed, as a link, not a folder


def test_a_path_outside_the_pack_lists_nothing(tmp_path: Path) -> None:
    root, outside = _pack_with_outside(tmp_path)
    assert list_directory(root, outside) == []
    assert list_directory(root, root / ".." / "outside") == []
