"""Two packs of one name in the window: told apart in the tree, Problems, tabs and headers; pin the copy that wins."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings

from studio.ui.main_window import MainWindow
from studio.ui.models.diagnostics_table import COLUMNS, DIAGNOSTIC_ROLE
from studio.ui.models.pack_tree import Role


def put(folder: Path, version: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "KNOWLEDGE.md").write_text(
        f"---\nname: brief\ndescription: Facts.\ntype: domain-reference\nstatus: ready\nprofile: wiki-first\n"
        f"version: {version}\n---\n# Guide\n", encoding="utf-8")
    (folder / "compiled").mkdir(exist_ok=True)
    (folder / "compiled" / "boundaries.md").write_text("# Boundaries\n", encoding="utf-8")
    return folder


def _row(window: MainWindow, root: Path):  # type: ignore[no-untyped-def]
    return window.tree_model.pack_items[root]


def test_same_name_packs_are_told_apart_everywhere(qtbot, open_and_wait, window: MainWindow, tmp_path: Path) -> None:
    old = put(tmp_path / "ws" / "v0.4.0" / "brief", "0.4.0")
    new = put(tmp_path / "ws" / "v0.7.2" / "brief", "0.7.2")
    open_and_wait(window, [tmp_path / "ws"])
    # The tree: the name, and the telling folder drawn muted after it; the tooltip has the label and the path.
    assert [_row(window, r).data(Role.WHERE) for r in (old, new)] == ["v0.4.0/", "v0.7.2/"]
    tip = _row(window, new).toolTip()
    assert "brief — explicit, v0.7.2/" in tip and str(new) in tip
    # Problems: the Pack and Path columns differ.
    proxy = window.problems.proxy
    pack_col, path_col = COLUMNS.index("Pack"), COLUMNS.index("Path")
    shown = {(proxy.index(r, pack_col).data(), proxy.index(r, path_col).data())
             for r in range(proxy.rowCount()) if proxy.index(r, 0).data(DIAGNOSTIC_ROLE).code == "name-collision"}
    assert shown == {("brief — explicit, v0.4.0/", "v0.4.0/brief/KNOWLEDGE.md"),
                     ("brief — explicit, v0.7.2/", "v0.7.2/brief/KNOWLEDGE.md")}
    # Tabs.
    window.open_file(old / "compiled" / "boundaries.md")
    window.open_file(new / "compiled" / "boundaries.md")
    titles = {window.editors.tabText(i).lstrip("● ") for i in range(window.editors.count())}
    assert titles == {"boundaries.md — v0.4.0/brief/compiled", "boundaries.md — v0.7.2/brief/compiled"}
    # Mode headers and the Inspector.
    window.switch_mode("Runs")
    qtbot.waitUntil(lambda: "brief — explicit, v0.7.2/" in window.modes.panel("Runs").title.text(), timeout=5000)
    window.switch_mode("Resolve")
    assert "brief — explicit, v0.7.2/" in window.modes.panel("Resolve").header.text()  # type: ignore[attr-defined]
    assert "shadowed" in window.modes.panel("Resolve").header.text()  # type: ignore[attr-defined]
    window.switch_mode("Evals")
    qtbot.waitUntil(lambda: "brief — explicit, v0.7.2/" in window.modes.panel("Evals").title.text(), timeout=5000)
    assert window.inspector.copies_box.isVisibleTo(window.inspector)
    assert "2 packs are named" in window.inspector.copies_note.text()


def test_a_namesake_arriving_or_leaving_relabels_the_tree(qtbot, open_and_wait, window: MainWindow,
                                                          tmp_path: Path) -> None:
    first = put(tmp_path / "ws" / "a" / "brief", "1.0.0")
    open_and_wait(window, [tmp_path / "ws"])
    assert not _row(window, first).data(Role.WHERE)
    second = put(tmp_path / "ws" / "b" / "brief", "2.0.0")
    with qtbot.waitSignal(window.session.packs_added, timeout=5000):
        window.session.add_pack(second)
    qtbot.waitUntil(lambda: _row(window, first).data(Role.WHERE) == "a/", timeout=5000)
    assert _row(window, second).data(Role.WHERE) == "b/"
    window.session.remove_pack(second)
    qtbot.waitUntil(lambda: not _row(window, first).data(Role.WHERE), timeout=5000)


def test_pinning_the_other_copy_from_the_inspector_holds_in_every_view_and_the_next_session(
        qtbot, open_and_wait, settings: QSettings, tmp_path: Path) -> None:
    old = put(tmp_path / "ws" / "v0.4.0" / "brief", "0.4.0")
    new = put(tmp_path / "ws" / "v0.7.2" / "brief", "0.7.2")
    window = MainWindow(settings)
    window.show()
    try:
        open_and_wait(window, [tmp_path / "ws"])
        # Without a pin the path that sorts first wins.
        assert _row(window, new).parent().data(Role.GROUP) == "shadowed"
        window.workspace_panel.select_pack(new)
        qtbot.waitUntil(lambda: window.inspector.pack is not None and window.inspector.pack.root == new, timeout=5000)
        window.inspector.compare_button.click()
        dialog = window.copies.dialog
        assert dialog is not None and dialog.isVisible()
        assert dialog.view.select_root(new)
        dialog.view.make_winner.click()
        # Every view shows the new winner.
        qtbot.waitUntil(lambda: _row(window, old).parent().data(Role.GROUP) == "shadowed", timeout=5000)
        assert _row(window, new).parent().data(Role.GROUP) == "explicit"
        assert window.session.packs[new].loads and not window.session.packs[old].loads
        assert [dialog.view.table.item(i, 0).text() for i in range(2)] == ["shadowed", "wins (pinned)"]
        proxy = window.problems.proxy
        losers = [proxy.index(r, 0).data(DIAGNOSTIC_ROLE) for r in range(proxy.rowCount())]
        assert {d.pack for d in losers if d.code == "name-collision" and "Shadowed" in d.message} == {str(old)}
        qtbot.waitUntil(lambda: window.inspector.pack is not None and window.inspector.pack.loads, timeout=5000)
        assert "wins" in window.inspector.copies_note.text()
        # Reopening the workspace keeps the pin.
        open_and_wait(window, [tmp_path / "ws"])
        assert window.session.packs[new].loads and _row(window, old).parent().data(Role.GROUP) == "shadowed"
    finally:
        window.session.cancel()
        window.close()
    again = MainWindow(settings)
    again.show()
    try:
        open_and_wait(again, [tmp_path / "ws"])
        assert again.session.packs[new].loads and not again.session.packs[old].loads
    finally:
        again.session.cancel()
        again.close()
