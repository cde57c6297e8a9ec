"""New files, renames and deletes inside a pack: right folder and skeleton, never over another file, never
out of the pack, deletes to the system trash (a temporary freedesktop trash here)."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pytest

from studio.core.authoring.files import FileOpError, create_file, create_folder, plan_rename, rename, trash
from studio.core.authoring.skeletons import KINDS, default_folder, new_file, skeleton_for_path, slugify
from studio.core.pack import load_pack

KNOWLEDGE = ("---\nname: acme\ndescription: Facts about Acme.\ntype: domain-reference\nprofile: hybrid\n"
             "status: ready\nmetadata:\n  primaryDocument: documents/brief.md\n---\n\n## Context map\n\n"
             "- `documents/brief.md`: the brief.\n- `wiki/index.md`: the wiki.\n")


@pytest.fixture
def pack(make_pack) -> Path:  # type: ignore[no-untyped-def]
    return make_pack("acme", KNOWLEDGE, {"documents/brief.md": "# Brief\n", "wiki/index.md": "# Wiki\n",
                                         "wiki/concepts/pricing.md": "# Pricing\n"})


@pytest.mark.parametrize(("kind", "context", "folder"), [
    ("wiki-page", None, "wiki"),
    ("wiki-page", "wiki/concepts", "wiki/concepts"),
    ("wiki-page", "wiki/concepts/pricing.md", "wiki/concepts"),
    ("wiki-page", "documents", "wiki"),
    ("document", None, "documents"),
    ("source", "sources/interviews", "sources/interviews"),
    ("split", None, "compiled/splits/brief"),
    ("split", "documents/other.md", "compiled/splits/other"),
    ("split", "compiled/splits/brief/faq.md", "compiled/splits/brief"),
])
def test_new_files_go_to_the_folder_of_their_kind(kind: str, context: str | None, folder: str) -> None:
    assert default_folder(kind, context, primary_document="documents/brief.md") == folder


def test_each_kind_gets_a_skeleton_that_keeps_the_pack_clean(pack: Path) -> None:
    for kind in KINDS:
        folder = default_folder(kind, None, primary_document="documents/brief.md")
        planned = new_file(kind, f"New {kind} page: Café & co", folder, document="documents/brief.md")
        assert planned.path == f"{folder}/new-{kind}-page-cafe-co.md"
        created = create_file(pack, planned.path, planned.text)
        assert created.read_text("utf-8").startswith(f"# New {kind} page: Café & co\n")
    assert [d.code for d in load_pack(pack, content=True).diagnostics] == []


def test_slugs_are_safe_file_stems() -> None:
    assert slugify("../../etc/passwd") == "etc-passwd"
    assert slugify("   ") == "untitled"
    assert slugify("中文") == "untitled"
    assert len(slugify("a" * 500)) == 80


def test_a_file_is_never_created_over_another_or_outside_the_pack(pack: Path, tmp_path: Path) -> None:
    with pytest.raises(FileOpError, match="already exists"):
        create_file(pack, "wiki/index.md", "# Other\n")
    assert (pack / "wiki" / "index.md").read_text() == "# Wiki\n"
    with pytest.raises(FileOpError, match="only by case"):
        create_file(pack, "wiki/INDEX.md", "# Other\n")
    for bad in ("../escape.md", "/etc/x.md", "wiki/../../x.md", "", "wiki/\x1b.md", "KNOWLEDGE.md",
                "wiki/KNOWLEDGE.md", "wiki/.hidden.md"):
        with pytest.raises(FileOpError):
            create_file(pack, bad, "x")
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, pack / "linked")
    with pytest.raises(FileOpError, match="outside the pack"):
        create_file(pack, "linked/x.md", "x")
    assert list(outside.iterdir()) == []


def test_nfc_and_nfd_spellings_of_one_name_collide(pack: Path) -> None:
    create_file(pack, "wiki/caf\u00e9.md", "# Café\n")
    with pytest.raises(FileOpError, match="Unicode form"):
        create_file(pack, "wiki/cafe\u0301.md", "# Café again\n")


def test_create_folder_for_a_context_map_folder(pack: Path) -> None:
    assert create_folder(pack, "sources/").is_dir()
    with pytest.raises(FileOpError):
        create_folder(pack, "sources")


def test_rename_lists_references_and_never_overwrites(pack: Path) -> None:
    plan = plan_rename(pack, pack / "documents" / "brief.md", "product-brief.md")
    assert [line for line, _ in plan.references] == [8, 13]
    assert rename(plan) == pack / "documents" / "product-brief.md"
    assert not (pack / "documents" / "brief.md").exists()
    with pytest.raises(FileOpError, match="already exists"):
        plan_rename(pack, pack / "wiki" / "index.md", "concepts")
    with pytest.raises(FileOpError, match="entry file"):
        plan_rename(pack, pack / "KNOWLEDGE.md", "README.md")
    for bad in ("", ".", "..", "a/b", ".hidden", "KNOWLEDGE.md", "x\x00y"):
        with pytest.raises(FileOpError):
            plan_rename(pack, pack / "wiki" / "index.md", bad)


def test_a_case_only_rename_is_allowed(pack: Path) -> None:
    target = rename(plan_rename(pack, pack / "wiki" / "index.md", "Index.md"))
    assert sorted(os.listdir(pack / "wiki")) == ["Index.md", "concepts"]
    assert target.read_text() == "# Wiki\n"


def test_a_rename_refuses_when_the_target_appeared_meanwhile(pack: Path) -> None:
    plan = plan_rename(pack, pack / "wiki" / "index.md", "start.md")
    (pack / "wiki" / "start.md").write_text("someone else's\n")
    with pytest.raises(FileOpError, match="already exists"):
        rename(plan)
    assert (pack / "wiki" / "start.md").read_text() == "someone else's\n"
    assert (pack / "wiki" / "index.md").exists()


def test_renaming_the_pack_folder_checks_the_name_rules(pack: Path) -> None:
    with pytest.raises(FileOpError):
        plan_rename(pack, pack, "Not Valid")
    (pack.parent / "Taken").mkdir()
    with pytest.raises(FileOpError, match="only by case"):
        plan_rename(pack, pack, "taken")
    plan = plan_rename(pack, pack, "acme-renamed")
    assert plan.is_pack and rename(plan) == pack.parent / "acme-renamed"


def test_delete_moves_files_and_folders_to_the_trash(pack: Path, trash_home: Path) -> None:
    trash(pack, pack / "wiki" / "concepts" / "pricing.md")
    trash(pack, pack / "documents")
    assert not (pack / "documents").exists()
    assert sorted(p.name for p in (trash_home / "files").iterdir()) == ["documents", "pricing.md"]
    assert (trash_home / "files" / "pricing.md").read_text() == "# Pricing\n"
    assert len(list((trash_home / "info").glob("*.trashinfo"))) == 2


def test_delete_refuses_the_entry_file_and_paths_outside(pack: Path, trash_home: Path, tmp_path: Path) -> None:
    with pytest.raises(FileOpError, match="entry file"):
        trash(pack, pack / "KNOWLEDGE.md")
    (tmp_path / "else.md").write_text("x")
    with pytest.raises(FileOpError, match="not inside"):
        trash(pack, tmp_path / "else.md")
    with pytest.raises(FileOpError, match="no longer exists"):
        trash(pack, pack / "gone.md")
    assert (pack / "KNOWLEDGE.md").exists() and (tmp_path / "else.md").exists()
    assert not trash_home.exists()


def test_context_map_skeletons_by_folder() -> None:
    assert skeleton_for_path("compiled/splits/brief/faq.md", ).startswith("# Faq\n")  # type: ignore[union-attr]
    assert "documents/brief.md" in (skeleton_for_path("compiled/splits/brief/faq.md") or "")
    assert skeleton_for_path("indexes/source-map.json") is None
    assert (skeleton_for_path("wiki/concepts/launch-timeline.md") or "").startswith("# Launch timeline\n")


def _swap_for_link(folder: Path, outside: Path) -> None:
    """What a hostile process does between the check and the move: the folder becomes a link leading out."""
    folder.rename(folder.with_name(folder.name + "-moved-aside"))
    folder.symlink_to(outside, target_is_directory=True)


@pytest.mark.parametrize("moment", ["after the checks", "while the trash is found"])
def test_delete_moves_what_was_checked_even_if_a_folder_becomes_a_link(
        pack: Path, trash_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, moment: str) -> None:
    """Issue #35 item 5: a swap between the check and the move never sends a file outside the pack to the trash."""
    import studio.core.authoring.files as files_module
    import studio.core.authoring.freedesktop_trash as trash_module

    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "pricing.md").write_text("precious, not the pack's\n")
    folder = pack / "wiki" / "concepts"
    if moment == "after the checks":
        real_lexists = os.path.lexists

        def swapping_lexists(path: object) -> bool:
            found = real_lexists(path)  # type: ignore[arg-type]
            _swap_for_link(folder, outside)
            return found

        monkeypatch.setattr(files_module.os.path, "lexists", swapping_lexists)
    else:
        real_trash_for = trash_module._trash_for

        def swapping_trash_for(device: int, original: Path) -> Path:
            _swap_for_link(folder, outside)
            return real_trash_for(device, original)

        monkeypatch.setattr(trash_module, "_trash_for", swapping_trash_for)
    with contextlib.suppress(FileOpError):  # refusing is fine; moving the outside file is not
        trash(pack, folder / "pricing.md")
    monkeypatch.undo()
    assert (outside / "pricing.md").read_text() == "precious, not the pack's\n"
    trashed = trash_home / "files" / "pricing.md"
    assert not trashed.exists() or trashed.read_text() == "# Pricing\n"
