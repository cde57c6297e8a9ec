"""The issue's journey with the real widgets: an empty folder becomes a clean pack (wizard), gets a wiki page
and a split (Workspace tree), is broken by hand and repaired with quick fixes (editor), and validates clean."""

from __future__ import annotations

from pathlib import Path

from studio.core.pack import load_pack
from studio.ui.document import open_document
from studio.ui.models.pack_tree import PackTreeModel
from studio.ui.widgets.editor_area import EditorArea
from studio.ui.widgets.new_pack_dialog import NewPackDialog
from studio.ui.widgets.workspace_panel import WorkspacePanel


def test_from_an_empty_folder_to_a_clean_pack_and_back_from_broken(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    into = tmp_path / "empty"
    into.mkdir()
    wizard = NewPackDialog(into)
    qtbot.addWidget(wizard)
    wizard.select_template("research-wiki")
    wizard.name.setText("tea-research")
    wizard.profile.setCurrentText("hybrid")
    with qtbot.waitSignal(wizard.pack_created, timeout=10_000) as created:
        wizard.create_now()
    root: Path = created.args[0]
    pack = load_pack(root, content=True)
    assert [d.code for d in pack.diagnostics] == ["status-draft"]

    model = PackTreeModel()
    model.add_packs([pack])
    tree = WorkspacePanel(model)
    qtbot.addWidget(tree)
    answers = iter(["Oolong processing", "Key findings"])
    tree.file_actions.ask_name = lambda *_: next(answers)  # type: ignore[assignment]
    page = tree.file_actions.new_file(pack, "wiki-page", root / "wiki")
    split = tree.file_actions.new_file(pack, "split", root / "documents" / "synthesis.md")
    assert page == root / "wiki" / "oolong-processing.md"
    assert split == root / "compiled" / "splits" / "synthesis" / "key-findings.md"
    assert [d.code for d in load_pack(root, content=True).diagnostics] == ["status-draft"]

    text = (root / "KNOWLEDGE.md").read_text("utf-8")
    broken = text.replace("status: draft", "status: Draft").replace("trust: unreviewed", "trust: unreveiwed")
    (root / "KNOWLEDGE.md").write_text(broken.replace("profile: hybrid\n", ""), "utf-8")
    area = EditorArea()
    qtbot.addWidget(area)
    area.show()
    tab = area.add(open_document(root / "KNOWLEDGE.md", root), load_pack(root))
    assert tab.quick_fix is not None
    for _round in range(6):  # apply the first fix on each line with a finding, as a user would
        with qtbot.waitSignal(tab.live_validated, timeout=10_000) as checked:
            tab.validate_now()
        lines = sorted({d.line for d in checked.args[0].diagnostics if d.code != "status-draft"})
        if not lines:
            break
        fixes = tab.quick_fix.fixes_at(lines[0])
        assert fixes, checked.args[0].diagnostics
        assert tab.quick_fix.apply(fixes[0])
    tab.save()
    assert [d.code for d in load_pack(root, content=True).diagnostics] == ["status-draft"]
    assert "profile: wiki-first" in (root / "KNOWLEDGE.md").read_text("utf-8"), "the implied profile, declared"
