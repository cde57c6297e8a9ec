"""The Workspace dock as a user works it: groups that hold packs, the filter box, expanding a pack."""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path

from PySide6.QtCore import QModelIndex, Qt, QThreadPool
from PySide6.QtTest import QTest

from studio.core.model import Pack, Verdict
from studio.core.pack import load_pack
from studio.ui import workers
from studio.ui.models.pack_tree import PLACEHOLDER, PackTreeModel, Role
from studio.ui.pacing import Pace
from studio.ui.widgets.workspace_panel import AUTO_EXPAND_LIMIT, WorkspacePanel

GOOD = "---\nname: {name}\ndescription: {description}\ntype: domain-reference\nstatus: ready\n---\n# Guide\n"


def _visible(panel: WorkspacePanel, parent: QModelIndex | None = None) -> list[str]:
    """The rows the tree shows under ``parent`` (through the filter proxy or not, hidden rows left out)."""
    parent = parent or QModelIndex()
    shown = panel.tree.model()
    return [shown.index(r, 0, parent).data() for r in range(shown.rowCount(parent))
            if not panel.tree.isRowHidden(r, parent)]


def _panel(qtbot, packs: list[Pack]) -> WorkspacePanel:  # type: ignore[no-untyped-def]
    model = PackTreeModel()
    model.add_packs(packs)
    panel = WorkspacePanel(model)
    qtbot.addWidget(panel)
    panel.resize(420, 400)
    panel.show()
    return panel


def _pack(make_pack, name: str, description: str = "A pack for tests.", files: dict[str, str] | None = None) -> Pack:  # type: ignore[no-untyped-def]
    return load_pack(make_pack(name, GOOD.format(name=name, description=description), files or {}))


def test_only_groups_that_hold_packs_are_shown(qtbot, make_pack) -> None:  # type: ignore[no-untyped-def]
    panel = _panel(qtbot, [_pack(make_pack, "alpha"), _pack(make_pack, "beta")])
    assert _visible(panel) == ["Explicit (2)"]


def test_the_filter_box_narrows_packs_and_hides_groups_without_a_match(qtbot, qtmodeltester, make_pack,
                                                                      ) -> None:  # type: ignore[no-untyped-def]
    alpha = _pack(make_pack, "alpha", "Espresso machine maintenance.")
    beta = _pack(make_pack, "beta")
    broken = load_pack(make_pack("gamma", GOOD.format(name="gamma", description="x").replace("ready", "bogus")))
    panel = _panel(qtbot, [alpha, beta, broken])
    assert _visible(panel) == ["Explicit (2)", "Quarantined (1)"]
    qtbot.keyClicks(panel.filter, "ESPRESSO")  # case does not matter; the description matches
    explicit = panel.tree.model().index(0, 0, QModelIndex())
    assert _visible(panel) == ["Explicit (1 of 2)"]
    assert panel.tree.isExpanded(explicit)  # the match is shown, not a folded group title
    assert _visible(panel, explicit) == ["alpha"]
    qtmodeltester.check(panel.proxy)
    panel.filter.setText("a.*")  # typed text is plain text, not a pattern
    assert _visible(panel) == []
    panel.filter.clear()
    assert _visible(panel) == ["Explicit (2)", "Quarantined (1)"]


def test_a_typo_in_the_filter_does_not_fold_the_tree(qtbot, make_pack) -> None:  # type: ignore[no-untyped-def]
    pack = _pack(make_pack, "alpha", files={"documents/guide.md": "# G\n"})
    other = _pack(make_pack, "beta")
    panel = _panel(qtbot, [pack, other])
    explicit = panel.tree.model().index(0, 0, QModelIndex())
    panel.tree.expand(explicit)
    pack_index = panel.view_index(panel.model.index_for_pack(pack.root))
    with qtbot.waitSignal(panel.model.rowsInserted, timeout=5000):
        panel.tree.expand(pack_index)
    documents = panel.tree.model().index(0, 0, pack_index)
    with qtbot.waitSignal(panel.model.rowsInserted, timeout=5000):
        panel.tree.expand(documents)
    qtbot.keyClicks(panel.filter, "alpx")  # nothing matches: every row goes
    assert _visible(panel) == []
    for _ in range(4):
        qtbot.keyClick(panel.filter, Qt.Key.Key_Backspace)
    explicit = panel.tree.model().index(0, 0, QModelIndex())
    pack_index = panel.view_index(panel.model.index_for_pack(pack.root))
    assert panel.tree.isExpanded(explicit) and panel.tree.isExpanded(pack_index)
    assert panel.tree.isExpanded(panel.tree.model().index(0, 0, pack_index))  # documents/ too


def test_a_matching_pack_keeps_its_files_and_file_names_do_not_match(qtbot, make_pack) -> None:  # type: ignore[no-untyped-def]
    pack = _pack(make_pack, "alpha", files={"documents/briefing.md": "# B\n"})
    other = _pack(make_pack, "beta", files={"documents/briefing.md": "# B\n"})
    panel = _panel(qtbot, [pack, other])
    panel.tree.expandToDepth(0)  # the group; each pack is expanded (and listed) below
    for each in (pack, other):
        with qtbot.waitSignal(panel.model.rowsInserted, timeout=5000):
            panel.tree.expand(panel.view_index(panel.model.index_for_pack(each.root)))
    panel.filter.setText("briefing")  # a file name: Quick open finds files, the tree filters packs
    assert _visible(panel) == []
    panel.filter.setText("alpha")
    pack_index = panel.view_index(panel.model.index_for_pack(pack.root))
    assert _visible(panel, pack_index) == ["documents", "KNOWLEDGE.md"]


def test_expanding_a_pack_lists_its_files_and_a_file_can_be_opened(qtbot, make_pack) -> None:  # type: ignore[no-untyped-def]
    pack = _pack(make_pack, "alpha", files={"documents/guide.md": "# G\n"})
    panel = _panel(qtbot, [pack])
    panel.tree.expandAll()  # the group; the pack's files are listed when the pack itself expands
    pack_index = panel.view_index(panel.model.index_for_pack(pack.root))
    assert _visible(panel, pack_index) == [PLACEHOLDER]
    with qtbot.waitSignal(panel.model.rowsInserted, timeout=5000):
        panel.tree.expand(pack_index)
    assert _visible(panel, pack_index) == ["documents", "KNOWLEDGE.md"]
    knowledge = panel.tree.model().index(1, 0, pack_index)
    with qtbot.waitSignal(panel.file_activated) as opened:
        panel.tree.activated.emit(knowledge)
    assert opened.args == [pack.root / "KNOWLEDGE.md"]
    with qtbot.waitSignal(panel.pack_selected) as selected:  # a click on a file row selects its pack
        QTest.mouseClick(panel.tree.viewport(), Qt.MouseButton.LeftButton,
                         pos=panel.tree.visualRect(knowledge).center())
    assert selected.args == [pack]


def test_an_empty_folder_loses_its_expander_once_listed(qtbot, make_pack) -> None:  # type: ignore[no-untyped-def]
    pack = _pack(make_pack, "alpha")
    (pack.root / "assets").mkdir()
    model = PackTreeModel()
    model.add_packs([pack])
    pack_index = model.index_for_pack(pack.root)
    with qtbot.waitSignal(model.rowsInserted, timeout=5000):
        model.list_children(pack_index)
    assets = model.index(0, 0, pack_index)
    assert assets.data() == "assets" and model.hasChildren(assets)
    with qtbot.waitSignal(model.rowsRemoved, timeout=5000):
        model.list_children(assets)
    assert not model.hasChildren(assets)


def test_a_pack_that_changes_group_keeps_its_listed_files(qtbot, make_pack, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pack = _pack(make_pack, "alpha")
    model = PackTreeModel()
    model.add_packs([pack])
    with qtbot.waitSignal(model.rowsInserted, timeout=5000):
        model.list_children(model.index_for_pack(pack.root))
    pack = pack.with_verdict(Verdict(shadowed_by=tmp_path / "winner"))
    model.replace_pack(pack)
    moved = model.index_for_pack(pack.root)
    assert moved.parent().data() == "Shadowed (1)"
    assert model.index(0, 0, QModelIndex()).data() == "Explicit (0)"
    assert [model.index(r, 0, moved).data() for r in range(model.rowCount(moved))] == ["KNOWLEDGE.md"]
    assert moved.data(Role.REASON) == f"shadowed by {tmp_path / 'winner'}"
    assert "Reason: shadowed by" in moved.data(Qt.ItemDataRole.ToolTipRole)


def test_a_listing_never_waits_behind_busy_workers(qtbot, make_pack) -> None:  # type: ignore[no-untyped-def]
    pack = _pack(make_pack, "alpha")
    gate = threading.Event()
    for _ in range(QThreadPool.globalInstance().maxThreadCount()):  # previews and checks in flight
        workers.submit(gate.wait, 10)
    try:
        model = PackTreeModel()
        model.add_packs([pack])
        pack_index = model.index_for_pack(pack.root)
        with qtbot.waitSignal(model.rowsInserted, timeout=3000):
            model.list_children(pack_index)
        assert model.index(0, 0, pack_index).data() == "KNOWLEDGE.md"
    finally:
        gate.set()


def test_a_pack_in_a_large_collapsed_group_is_selected_a_turn_after_its_group_opens(qtbot, make_pack) -> None:  # type: ignore[no-untyped-def]
    base = _pack(make_pack, "alpha")
    packs = [dataclasses.replace(base, root=base.root.parent / f"copy-{i:04d}") for i in range(AUTO_EXPAND_LIMIT + 1)]
    panel = _panel(qtbot, packs)
    group = panel.tree.model().index(0, 0, QModelIndex())
    assert not panel.tree.isExpanded(group)
    chosen: list[object] = []
    panel.pack_selected.connect(chosen.append)
    panel.select_pack(packs[200].root)
    assert panel.tree.isExpanded(group) and chosen == []  # this turn opens the group, and nothing else
    qtbot.waitUntil(lambda: chosen == [packs[200]], timeout=5000)
    assert panel.tree.currentIndex().data(Role.PACK) is packs[200]
    panel.select_pack(packs[3].root)  # the group is open now: at once
    assert chosen == [packs[200], packs[3]]


def test_the_tree_goes_through_the_filter_only_while_text_is_typed_and_the_selection_stays(qtbot, make_pack) -> None:  # type: ignore[no-untyped-def]
    alpha, beta = _pack(make_pack, "alpha"), _pack(make_pack, "beta")
    broken = load_pack(make_pack("gamma", GOOD.format(name="gamma", description="x").replace("ready", "bogus")))
    panel = _panel(qtbot, [alpha, beta, broken])
    assert panel.tree.model() is panel.model  # no proxy in between: a large group opens in a few ms
    panel.select_pack(beta.root)
    chosen: list[object] = []
    panel.pack_selected.connect(chosen.append)
    qtbot.keyClicks(panel.filter, "bet")
    assert panel.tree.model() is panel.proxy
    assert _visible(panel) == ["Explicit (1 of 2)"]
    assert panel.tree.currentIndex().data(Role.PACK) is beta
    panel.filter.clear()
    assert panel.tree.model() is panel.model and panel.proxy.sourceModel() is None
    assert panel.tree.currentIndex().data(Role.PACK) is beta
    assert _visible(panel) == ["Explicit (2)", "Quarantined (1)"]
    assert chosen == [], "the selection was put back on the pack, not chosen again"

    panel.model.remove_pack(broken.root)  # the last quarantined pack goes: its group row is hidden
    assert _visible(panel) == ["Explicit (2)"]
    panel.model.add_packs([broken])
    assert _visible(panel) == ["Explicit (2)", "Quarantined (1)"]


def test_a_large_group_folds_before_its_rows_go_and_a_small_workspace_keeps_its_groups(
        qtbot, make_pack, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import studio.ui.models.pack_tree as pack_tree

    base = _pack(make_pack, "alpha")
    packs = [dataclasses.replace(base, root=base.root.parent / f"copy-{i:04d}") for i in range(AUTO_EXPAND_LIMIT + 1)]
    panel = _panel(qtbot, packs)
    group = panel.tree.model().index(0, 0, QModelIndex())
    panel.tree.expand(group)
    # A workspace small enough to be emptied in one turn: the group stays as the user left it.
    panel.forget_rows()
    panel.model.clear()
    assert panel.tree.isExpanded(group)

    panel.model.add_packs(packs)
    monkeypatch.setattr(pack_tree, "SLICED_CLEAR_LIMIT", 100)  # as if this were 10,000 packs
    panel.model._removal.pace = Pace.fixed(50)
    assert panel.model.clears_in_slices
    panel.forget_rows()
    assert not panel.tree.isExpanded(group)  # folded before the first slice of rows leaves
    panel.model.clear()
    qtbot.waitUntil(lambda: not panel.model.emptying, timeout=5000)
    assert panel.model.rowCount(panel.model.index(0, 0)) == 0
