"""Authoring in the real window: a new pack joins the workspace and opens; files made or trashed in the tree follow."""

from __future__ import annotations

from pathlib import Path

from studio.ui.main_window import MainWindow
from studio.ui.widgets.new_pack_dialog import NewPackDialog

TEXT = "---\nname: {name}\ndescription: A pack for tests.\ntype: domain-reference\nstatus: ready\n" \
       "profile: wiki-first\n---\n# Guide\n"


def test_a_new_pack_joins_the_open_workspace_and_its_guide_opens(qtbot, open_and_wait, window: MainWindow,
                                                                 make_pack, tmp_path: Path) -> None:
    folder = tmp_path / "packs"
    make_pack("existing", TEXT.format(name="existing"), {"wiki/index.md": "# I\n"}, parent=folder)
    open_and_wait(window, [folder])
    default = window.authoring.new_pack_default()  # the CLI's rule: the first folder opened is the project
    assert default.folder == folder.resolve() / ".agents" / "knowledge"
    known = [(p.name, p.root) for p in window.session.packs.values()]
    dialog = NewPackDialog(default.folder, known=known, into_reason=default.reason)
    assert "project" in dialog.folder_note.text()
    qtbot.addWidget(dialog)
    dialog.pack_created.connect(window.authoring.pack_created)
    dialog.name.setText("fresh-notes")
    qtbot.waitUntil(lambda: dialog.create_button.isEnabled(), timeout=5000)
    with qtbot.waitSignal(window.session.packs_added, timeout=10_000):
        dialog.create_button.click()
    root = (default.folder / "fresh-notes").resolve()
    assert root in window.session.packs and window.session.workspace.by_root(root) is not None  # type: ignore[union-attr]
    assert window.tree_model.index_for_pack(root).isValid()
    qtbot.waitUntil(lambda: window.editors.tab_for(root / "KNOWLEDGE.md") is not None, timeout=5000)
    assert not any(d.severity.value == "error" for d in window.session.packs[root].findings)


def test_trashing_a_pack_frees_its_namesake(qtbot, open_and_wait, window: MainWindow, make_pack,
                                            tmp_path: Path) -> None:
    first = make_pack("a", TEXT.format(name="same"), parent=tmp_path / "one").resolve()
    second = make_pack("b", TEXT.format(name="same"), parent=tmp_path / "two").resolve()
    open_and_wait(window, [tmp_path / "one", tmp_path / "two"])
    assert window.session.packs[second].shadowed_by == first
    window.authoring.file_deleted(first)  # what the tree's Delete reports once the folder is in the trash
    assert first not in window.session.packs and not window.tree_model.index_for_pack(first).isValid()
    assert window.session.packs[second].shadowed_by is None
    assert window.tree_model.index_for_pack(second).parent().data().startswith("Explicit")
    assert window.diag_model.counts().by_code.get("name-collision") is None


def test_a_file_made_in_the_tree_opens_and_its_pack_reloads(qtbot, open_and_wait, window: MainWindow, make_pack,
                                                            tmp_path: Path) -> None:
    root = make_pack("notes", TEXT.format(name="notes"), {"wiki/index.md": "# I\n"}, parent=tmp_path).resolve()
    open_and_wait(window, [tmp_path])
    page = root / "wiki" / "glossary.md"
    page.write_text("# Glossary\n", encoding="utf-8")
    window.authoring.file_created(page)
    tab = window.editors.current_tab()
    assert tab is not None and tab.path == page
