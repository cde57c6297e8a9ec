"""VisibilityView on a real collision: three published copies of acme-product-brief in three scopes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtGui import QFont, QFontMetrics

from studio.core.model import Scope
from studio.core.visibility import Policy
from studio.core.workspace import Workspace, WorkspaceOptions, open_workspace
from studio.ui.panels.visibility_view import COPY_ROLE, VisibilityView

DATA = Path(__file__).resolve().parents[2] / "data" / "visibility"
NAME = "acme-product-brief"


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    for source, folder in (("acme-v0.4.0", tmp_path / "proj" / ".agents" / "knowledge"),
                           ("acme-v0.7.2", tmp_path / "home" / ".agents" / "knowledge"),
                           ("acme-v0.7.1", tmp_path / "org")):
        shutil.copytree(DATA / source, folder / NAME)
    return open_workspace(WorkspaceOptions(project=tmp_path / "proj", home=tmp_path / "home",
                                           org_roots=[tmp_path / "org"], builtin=False))


def _contexts(view: VisibilityView) -> list[list[str]]:
    return [[view.contexts.topLevelItem(i).text(c) for c in range(4)]
            for i in range(view.contexts.topLevelItemCount())]


def test_the_view_explains_the_collision(qtbot, workspace: Workspace) -> None:
    view = VisibilityView()
    qtbot.addWidget(view)
    view.show_workspace(workspace, NAME)
    assert view.title.text() == (f"{NAME}: 3 copies in 3 scope roots; this context loads project copy "
                                 f"(proj/.agents/knowledge/{NAME})")
    roots = [view.roots.topLevelItem(i) for i in range(view.roots.topLevelItemCount())]
    assert [r.text(1) for r in roots] == ["project", "user", "organization"]  # missing client folders left out
    winners = [r.child(0).text(0) for r in roots]
    assert winners == [f"\u2605 wins here: {NAME}  (loaded in this context)", f"\u2605 wins here: {NAME}",
                       f"\u2605 wins here: {NAME}"]
    rows = _contexts(view)
    assert rows[0][0] == "everything given" and rows[0][1] == f"project copy (proj/.agents/knowledge/{NAME})"
    assert rows[0][2].startswith("user copy") and rows[0][3] == "differs, lower trust wins"
    assert rows[1][0].startswith("outside this project") and rows[1][3] == ""
    why = view.why.toPlainText()
    assert why.startswith("Everything given: a client loads project copy")
    assert "Warning (V57)" in why and "Under user-first precedence" in why


def test_switching_policy_rerenders_without_recomputing(qtbot, workspace: Workspace) -> None:
    view = VisibilityView()
    qtbot.addWidget(view)
    report = view.show_workspace(workspace, NAME)
    with qtbot.waitSignal(view.policy_changed) as changed:
        view.radios[Policy.USER_FIRST].setChecked(True)
    assert changed.args == ["user-first"] and view.report is report
    rows = _contexts(view)
    assert rows[0][1].startswith("user copy") and rows[0][2].startswith("project copy")
    assert rows[0][3] == "differs"  # under user-first the trusted copy wins: no trust warning
    assert view.contexts.headerItem().text(1) == "Loads (User first)"
    assert "Under standard precedence it would load project copy" in view.why.toPlainText()


def test_double_click_opens_a_copy(qtbot, workspace: Workspace) -> None:
    view = VisibilityView()
    qtbot.addWidget(view)
    view.show_workspace(workspace, NAME)
    child = view.roots.topLevelItem(1).child(0)
    copy = child.data(0, COPY_ROLE)
    assert copy.scope is Scope.USER
    with qtbot.waitSignal(view.open_pack_requested) as opened:
        view.roots.itemDoubleClicked.emit(child, 0)
    assert opened.args == [copy.root / "KNOWLEDGE.md"]


def test_an_unknown_name_and_clearing(qtbot, workspace: Workspace) -> None:
    view = VisibilityView()
    qtbot.addWidget(view)
    view.show_workspace(workspace, "nothing-here")
    assert "0 copies" in view.title.text() and "loads nothing" in view.title.text()
    view.show_report(None)
    assert view.roots.topLevelItemCount() == 0 and view.title.text().startswith("Select a pack")


def test_in_a_narrow_dock_every_row_reads_whole_in_one_column(qtbot, workspace: Workspace) -> None:
    """At a dock's default width (~220 px) five columns were cut to a few letters each: the tables become one
    column whose rows are a few lines wrapped to the width, paths included, nothing elided."""
    view = VisibilityView()
    qtbot.addWidget(view)
    view.resize(220, 700)
    view.show()
    view.show_workspace(workspace, NAME)
    qtbot.waitUntil(lambda: view.narrow and view.roots.columnCount() == 1, timeout=2000)
    assert view.contexts.columnCount() == 1
    bold = QFont(view.roots.font())
    bold.setBold(True)
    for tree in (view.roots, view.contexts):
        item, texts = tree.topLevelItem(0), []
        while item is not None:
            depth = 0 if item.parent() is None else 1
            room = tree.viewport().width() - (depth + 1) * tree.indentation()
            for line in item.text(0).split("\n"):
                assert QFontMetrics(bold).horizontalAdvance(line) <= room, line
                assert "\u2026" not in line
            texts.append(item.text(0))
            item = tree.itemBelow(item)
        assert texts
    winner = "".join(view.roots.topLevelItem(0).child(0).text(0).split())  # the lines joined again
    assert winner.startswith(f"\u2605winshere:{NAME}(loadedinthiscontext)project")
    assert view.contexts.topLevelItem(0).text(0).startswith("everything given\nloads project copy")
    view.resize(900, 700)
    qtbot.waitUntil(lambda: not view.narrow, timeout=2000)
    assert _contexts(view)[0][0] == "everything given"  # wide again: the columns come back


def test_a_name_with_markup_reads_as_typed_in_the_title(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from shown_as_read import shown

    name = "<b>bold</b><img src=x.png>"
    folder = tmp_path / "org" / "p"
    folder.mkdir(parents=True)
    (folder / "KNOWLEDGE.md").write_text(f'---\nname: "{name}"\ndescription: d\ntype: domain-reference\n'
                                         "status: ready\n---\n# P\n", encoding="utf-8")
    workspace = open_workspace(WorkspaceOptions(project=tmp_path / "proj", home=tmp_path / "home",
                                                org_roots=[tmp_path / "org"], builtin=False))
    view = VisibilityView()
    qtbot.addWidget(view)
    view.show_workspace(workspace, name)
    assert shown(view.title.text(), view.title.textFormat()).startswith(f"{name}: 1 copy"), view.title.text()
