"""The authoring pieces as a user works them: the New Pack dialog, quick fixes in the editor and in Problems,
completion and hover in the frontmatter, and New file / Rename / Delete from the Workspace tree."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QDialogButtonBox

from studio.core.authoring.fix_types import FixKind
from studio.core.diagnostics import Diagnostic, Severity
from studio.core.pack import load_pack
from studio.ui.document import open_document
from studio.ui.models.diagnostics_table import DiagnosticsTableModel
from studio.ui.models.pack_tree import PackTreeModel
from studio.ui.widgets.code_editor import BULB_WIDTH
from studio.ui.widgets.editor_area import EditorArea
from studio.ui.widgets.editor_tab import EditorTab
from studio.ui.widgets.fix_preview import FixPreviewDialog
from studio.ui.widgets.new_pack_dialog import NewPackDialog
from studio.ui.widgets.problems_panel import ProblemsPanel
from studio.ui.widgets.workspace_panel import WorkspacePanel

BROKEN = Path(__file__).resolve().parents[1] / "data" / "authoring" / "broken"


def _case(case: str, tmp_path: Path) -> Path:
    return Path(shutil.copytree(BROKEN / case, tmp_path / case))


def _tab(qtbot, root: Path, rel: str = "KNOWLEDGE.md") -> tuple[EditorArea, EditorTab]:  # type: ignore[no-untyped-def]
    area = EditorArea()
    qtbot.addWidget(area)
    area.resize(900, 600)
    area.show()
    pack = load_pack(root)
    tab = area.add(open_document(root / rel, root), pack)
    return area, tab


# -- New Pack ------------------------------------------------------------------------------------------
def test_the_wizard_previews_checks_the_name_and_creates(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    into = tmp_path / ".agents" / "knowledge"
    dialog = NewPackDialog(into)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.select_template("brand-product")
    assert dialog.type.currentText() == "brand-product" and dialog.profile.currentText() == "document-first"
    dialog.name.setText("Acme Widget")
    assert "Only a-z" in dialog.name_status.text() and "acme-widget" in dialog.name_status.text()
    assert dialog.replan() is None and not dialog.create_button.isEnabled()
    dialog.name.setText("acme-widget")
    dialog.mode.setCurrentText("persona")
    plan = dialog.replan()
    assert plan is not None and dialog.create_button.isEnabled()
    assert "product-brief.md" in dialog.tree_view.toPlainText()
    assert "boundaries.md" in dialog.tree_view.toPlainText()
    assert dialog.knowledge_view.toPlainText().startswith("---\nname: acme-widget\n")
    assert not into.exists(), "the preview writes nothing"
    with qtbot.waitSignal(dialog.pack_created, timeout=10_000) as created:
        dialog.create_button.click()
    root = into / "acme-widget"
    assert created.args == [root]
    assert [d.code for d in load_pack(root, content=True).diagnostics] == ["status-draft"]


def test_the_wizard_refuses_an_existing_or_case_colliding_folder(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "Notes").mkdir()
    dialog = NewPackDialog(tmp_path, known=[("handbook", tmp_path / "elsewhere" / "handbook")])
    qtbot.addWidget(dialog)
    for name, words in (("notes", "only by case"), ("handbook", "already the name of the pack")):
        dialog.name.setText(name)
        assert dialog.replan() is None
        assert words in dialog.status.text() and not dialog.create_button.isEnabled()
    assert [p.name for p in tmp_path.iterdir()] == ["Notes"]


# -- quick fixes in the editor ------------------------------------------------------------------------
def test_ctrl_dot_lists_fixes_and_apply_is_one_undoable_edit(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = _case("status-typo", tmp_path)
    _area, tab = _tab(qtbot, root)
    on_disk = (root / "KNOWLEDGE.md").read_bytes()
    original = tab.text()
    tab.editor.go_to(6, 9)
    assert 6 in tab.editor.fix_lines
    menu = tab.show_quick_fixes()
    assert menu is not None and [a.text() for a in menu.actions()] == ["Change status to 'ready'"]
    menu.actions()[0].trigger()
    dialog = tab.quick_fix.dialog  # type: ignore[union-attr]
    assert isinstance(dialog, FixPreviewDialog)
    assert "-status: redy\n+status: ready\n" in dialog.view.toPlainText()
    dialog.apply_button.click()
    assert tab.text() == original.replace("status: redy", "status: ready")
    assert tab.dirty and (root / "KNOWLEDGE.md").read_bytes() == on_disk, "nothing is saved by a fix"
    tab.editor.undo()
    assert tab.text() == original


def test_the_gutter_bulb_opens_the_fixes(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = _case("trust-typo", tmp_path)
    _area, tab = _tab(qtbot, root)
    tab.editor.go_to(7, 1)
    top = tab.editor.cursorRect().center().y()
    with qtbot.waitSignal(tab.editor.bulb_clicked) as clicked:
        qtbot.mouseClick(tab.editor.gutter, Qt.MouseButton.LeftButton, pos=QPoint(BULB_WIDTH // 2, top))
    assert clicked.args == [7]
    assert tab.quick_fix.menu is not None  # type: ignore[union-attr]


def test_a_placeholder_is_inserted_selected_for_typing(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = _case("missing-status", tmp_path)
    _area, tab = _tab(qtbot, root)
    fixes = tab.quick_fix.fixes_at(1)  # type: ignore[union-attr]
    assert [f.kind for f in fixes] == [FixKind.PLACEHOLDER]
    assert tab.quick_fix.apply(fixes[0])  # type: ignore[union-attr]
    assert tab.editor.textCursor().selectedText() == "draft"
    qtbot.keyClicks(tab.editor, "ready")
    assert "\nstatus: ready\n" in tab.text()


def test_a_fix_is_refused_when_the_buffer_changed(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = _case("status-typo", tmp_path)
    _area, tab = _tab(qtbot, root)
    fix = tab.quick_fix.fixes_at(6)[0]  # type: ignore[union-attr]
    tab.editor.appendPlainText("typed meanwhile")
    with qtbot.waitSignal(tab.message) as said:
        assert not tab.quick_fix.apply(fix)  # type: ignore[union-attr]
    assert "changed since the fix was prepared" in said.args[0]
    assert "status: redy" in tab.text()


def test_file_fixes_create_the_missing_file_and_rename_the_folder(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = _case("context-map-missing", tmp_path)
    area, tab = _tab(qtbot, root)
    create = tab.quick_fix.fixes_at(22)[0]  # type: ignore[union-attr]
    with qtbot.waitSignal(area.file_created) as created:
        assert tab.quick_fix.apply(create)  # type: ignore[union-attr]
    assert created.args == [root / "compiled" / "facts.md"]
    assert load_pack(root, content=True).diagnostics == ()

    root = _case("name-mismatch", tmp_path)
    area, tab = _tab(qtbot, root)
    rename = next(f for f in tab.quick_fix.fixes_at(2) if f.kind is FixKind.RENAME_FOLDER)  # type: ignore[union-attr]
    with qtbot.waitSignal(area.pack_folder_renamed) as renamed:
        tab.quick_fix.apply(rename)  # type: ignore[union-attr]
    new_root = tmp_path / "acme-widget"
    assert renamed.args == [root, new_root]
    assert tab.path == new_root / "KNOWLEDGE.md" and tab.document_state.pack_root == new_root
    assert load_pack(new_root).diagnostics == ()


def test_format_frontmatter_is_undoable_and_saves_lf(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = _case("status-case", tmp_path)
    data = (root / "KNOWLEDGE.md").read_bytes().replace(b"  mode: data", b"      mode: data")
    (root / "KNOWLEDGE.md").write_bytes(data)
    _area, tab = _tab(qtbot, root)
    before = tab.text()
    changes = tab.format_frontmatter()
    assert changes == ("frontmatter indented with two spaces per level", "line endings will be saved as LF")
    assert "\nruntime:\n  mode: data\n" in tab.text()
    tab.editor.undo()
    assert tab.text() == before
    tab.editor.redo()
    tab.save()
    assert b"\r\n" not in (root / "KNOWLEDGE.md").read_bytes()


# -- completion and hover -------------------------------------------------------------------------------
def test_completion_offers_values_and_inserts_the_chosen_one(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = _case("status-typo", tmp_path)
    _area, tab = _tab(qtbot, root)
    editor = tab.editor
    editor.go_to(6, 13)  # after "status: redy"
    cursor = editor.textCursor()
    cursor.movePosition(cursor.MoveOperation.EndOfBlock)
    for _ in range(4):
        cursor.deletePreviousChar()
    editor.setTextCursor(cursor)
    qtbot.keyClicks(editor, "re")
    assist = tab.assist
    assert assist is not None
    popup = assist.completer.popup()
    qtbot.waitUntil(popup.isVisible, timeout=3000)
    shown = [assist.completer.completionModel().index(r, 0).data(Qt.ItemDataRole.UserRole + 1)
             for r in range(assist.completer.completionCount())]
    assert shown == ["ready", "needs-review"]
    qtbot.keyClick(popup, Qt.Key.Key_Return)
    assert "\nstatus: ready\n" in tab.text() and not popup.isVisible()


def test_ctrl_space_offers_keys_and_hover_explains_them(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = _case("clean", tmp_path)
    _area, tab = _tab(qtbot, root)
    editor, assist = tab.editor, tab.assist
    assert assist is not None
    editor.go_to(10, 1)  # "  mode: data"
    cursor = editor.textCursor()
    cursor.movePosition(cursor.MoveOperation.EndOfBlock)
    cursor.insertText("\n")
    editor.setTextCursor(cursor)
    assert assist.trigger(explicit=True)
    labels = [assist.model.item(r).data(Qt.ItemDataRole.UserRole + 1) for r in range(assist.model.rowCount())]
    assert "metadata" in labels and "language" in labels and "status" not in labels
    assert assist.hover(6, 2) == ("status", assist.hover(6, 2)[1])  # type: ignore[index]
    assert "loading gate" in assist.hover(6, 2)[1]  # type: ignore[index]


# -- Problems --------------------------------------------------------------------------------------------
def test_problems_offers_quick_fix_only_where_one_exists(qtbot) -> None:  # type: ignore[no-untyped-def]
    panel = ProblemsPanel(DiagnosticsTableModel())
    qtbot.addWidget(panel)
    fixable = Diagnostic("invalid-status", Severity.ERROR, "bad", line=6, column=9, pack="/p")
    other = Diagnostic("scripts-in-pack", Severity.WARNING, "scripts", file="scripts", pack="/p")
    menu = panel.menu_for(fixable)
    assert [a.text() for a in menu.actions()] == ["Quick fix…", "Go to problem"]
    with qtbot.waitSignal(panel.quick_fix_requested) as asked:
        menu.actions()[0].trigger()
    assert asked.args == [fixable]
    assert not panel.menu_for(other).actions()[0].isEnabled()


# -- Workspace tree: new file, rename, delete -------------------------------------------------------------
@pytest.fixture
def workspace(qtbot, tmp_path: Path, trash_home: Path):  # type: ignore[no-untyped-def]
    root = _case("clean", tmp_path)
    (root / "wiki" / "concepts").mkdir(parents=True)
    (root / "wiki" / "concepts" / "terms.md").write_text("# Terms\n")
    pack = load_pack(root)
    model = PackTreeModel()
    model.add_packs([pack])
    panel = WorkspacePanel(model)
    qtbot.addWidget(panel)
    panel.show()
    answers: dict[str, object] = {}
    panel.file_actions.ask_name = lambda title, label, text, check: answers.pop("name", None)  # type: ignore[assignment]
    panel.file_actions.confirm = lambda title, text: bool(answers.pop("confirm", False))  # type: ignore[assignment]
    panel.file_actions.warn = lambda text: answers.__setitem__("warned", text)  # type: ignore[assignment]
    return panel, pack, answers


def test_the_tree_menu_creates_a_wiki_page_and_a_split(qtbot, workspace) -> None:  # type: ignore[no-untyped-def]
    panel, pack, answers = workspace
    index = panel.view_index(panel.model.index_for_pack(pack.root))
    menu = panel.menu_at(index)
    assert menu is not None
    assert [a.text() for a in menu.actions()[0].menu().actions()] == ["Wiki page…", "Document…", "Split…",
                                                                     "Source…"]
    answers["name"] = "Launch timeline"
    with qtbot.waitSignal(panel.file_actions.file_created) as created:
        panel.file_actions.new_file(pack, "wiki-page", pack.root / "wiki" / "concepts" / "terms.md")
    assert created.args == [pack.root / "wiki" / "concepts" / "launch-timeline.md"]
    answers["name"] = "FAQ"
    split = panel.file_actions.new_file(pack, "split", pack.root / "documents")
    assert split == pack.root / "compiled" / "splits" / "main" / "faq.md"
    assert panel.file_actions.new_file(pack, "source", None) is None, "cancelled: nothing created"
    assert load_pack(pack.root, content=True).diagnostics == ()


def test_rename_asks_then_renames_and_delete_goes_to_the_trash(qtbot, workspace, trash_home: Path) -> None:  # type: ignore[no-untyped-def]
    panel, pack, answers = workspace
    old = pack.root / "compiled" / "briefing.md"
    answers["name"] = "overview.md"
    assert panel.file_actions.rename(pack, old) is None, "not confirmed: nothing renamed"
    assert old.exists()
    answers.update(name="overview.md", confirm=True)
    with qtbot.waitSignal(panel.file_actions.renamed) as renamed:
        panel.file_actions.rename(pack, old)
    assert renamed.args == [old, old.with_name("overview.md"), False]
    terms = pack.root / "wiki" / "concepts" / "terms.md"
    answers["confirm"] = True
    with qtbot.waitSignal(panel.file_actions.deleted):
        assert panel.file_actions.delete(pack, terms)
    assert not terms.exists()
    assert (trash_home / "files" / "terms.md").read_text() == "# Terms\n"
    knowledge_menu = panel.file_actions.menu_for(pack, pack.root / "KNOWLEDGE.md")
    assert [a.isEnabled() for a in knowledge_menu.actions()[2:]] == [False, False]


def test_open_tabs_follow_a_rename(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = _case("clean", tmp_path)
    area, tab = _tab(qtbot, root, "compiled/briefing.md")
    tab.editor.appendPlainText("unsaved line")
    (root / "compiled").rename(root / "views")
    assert area.follow_rename(root / "compiled", root / "views") == [tab]
    assert tab.path == root / "views" / "briefing.md" and area.tabToolTip(0) == str(tab.path)
    tab.save()
    assert "unsaved line" in (root / "views" / "briefing.md").read_text()
    assert not (root / "compiled").exists()


def test_the_name_dialog_checks_as_you_type(qtbot) -> None:  # type: ignore[no-untyped-def]
    from studio.ui.widgets.pack_file_actions import NameDialog

    dialog = NameDialog("Rename", "New name:", "briefing.md",
                        lambda text: (None if text.endswith(".md") else "Keep the .md", f"Renames to {text}"))
    qtbot.addWidget(dialog)
    assert dialog.edit.selectedText() == "briefing"
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert ok.isEnabled()
    dialog.edit.setText("briefing.txt")
    assert not ok.isEnabled() and "Keep the .md" in dialog.status.text()


def test_a_save_changes_only_the_typed_bytes(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Issue #35 item 7: a BOM, mixed line endings, a lone CR, U+2028 and a no-break space all survive a save in
    the real editor; one blank typed at the end of a JSON suite is the only change and the suite stays JSON."""
    import json

    from PySide6.QtGui import QTextCursor

    root = _case("status-case", tmp_path)
    suite = root / "evals" / "answer-quality.json"
    suite.parent.mkdir(exist_ok=True)
    original = ('\ufeff{"evals": [\r\n  {"id": "line\u2028sep", "prompt": "no\u00a0break"},\n'
                '  {"id": "b", "prompt": "p"}\r\n]\r}').encode()
    suite.write_bytes(original)
    _area, tab = _tab(qtbot, root, "evals/answer-quality.json")
    cursor = tab.editor.textCursor()
    cursor.movePosition(QTextCursor.MoveOperation.End)
    tab.editor.setTextCursor(cursor)
    qtbot.keyClick(tab.editor, Qt.Key.Key_Space)
    tab.save()
    saved = suite.read_bytes()
    assert saved == original + b" "
    assert json.loads(saved.decode("utf-8-sig"))["evals"][0]["id"] == "line\u2028sep"
def test_the_bulb_shows_only_where_a_fix_applies(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = _case("status-typo", tmp_path)
    text = (root / "KNOWLEDGE.md").read_text(encoding="utf-8")
    # 'colour' is an unknown key like 'versoin', but nothing near it is a key: no fix applies there.
    (root / "KNOWLEDGE.md").write_text(text.replace("status: redy\n", "status: redy\ncolour: red\n"),
                                       encoding="utf-8")
    _area, tab = _tab(qtbot, root)
    assert {d.code for d in tab.editor.diagnostics if d.line == 7} == {"unknown-key"}
    qtbot.waitUntil(lambda: 7 not in tab.editor.fix_lines, timeout=5000)
    assert 6 in tab.editor.fix_lines, "the misspelled status keeps its bulb"
    tab.editor.go_to(7, 1)
    tab.validate_now()  # a new verdict for the same text: the bulb does not come back meanwhile
    qtbot.wait(10)
    assert 7 not in tab.editor.fix_lines


def test_the_first_fix_is_preselected_and_return_applies_it(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = _case("status-typo", tmp_path)
    _area, tab = _tab(qtbot, root)
    original = tab.text()
    tab.editor.go_to(6, 9)
    menu = tab.show_quick_fixes()
    assert menu is not None and menu.activeAction() is menu.actions()[0]
    menu.activeAction().trigger()
    dialog = tab.quick_fix.dialog  # type: ignore[union-attr]
    assert isinstance(dialog, FixPreviewDialog)
    qtbot.waitUntil(dialog.isVisible, timeout=3000)
    dialog.activateWindow()
    qtbot.waitUntil(lambda: dialog.focusWidget() is dialog.apply_button, timeout=3000)
    qtbot.keyClick(dialog.focusWidget(), Qt.Key.Key_Return)
    assert tab.text() == original.replace("status: redy", "status: ready")


def test_return_after_a_nested_key_keeps_its_indentation(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = _case("clean", tmp_path)
    _area, tab = _tab(qtbot, root)
    lines = tab.text().split("\n")
    mode = lines.index("  mode: data") + 1
    tab.editor.go_to(mode, len("  mode: data") + 1)
    qtbot.keyClick(tab.editor, Qt.Key.Key_Return)
    assert tab.text().split("\n")[mode] == "  ", "the new line stays inside runtime:"
    runtime = lines.index("runtime:") + 1
    tab.editor.undo()
    assert tab.text().split("\n") == lines, "Return and its indentation are one undo step"
    tab.editor.go_to(runtime, len("runtime:") + 1)
    qtbot.keyClick(tab.editor, Qt.Key.Key_Return)
    assert tab.text().split("\n")[runtime] == "  ", "a key opening a block indents the next line"
    body = len(lines) - 1
    tab.editor.go_to(body, 1)
    qtbot.keyClick(tab.editor, Qt.Key.Key_Return)
    assert "\n  \n" not in tab.text().split("---", 2)[2], "the Markdown body is left alone"
