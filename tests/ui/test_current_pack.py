"""One current pack: the tree's selection, the Inspector, the previews, the job panels and the active editor agree.

Every way of bringing a file to the front (F8, a Problems double-click, Review's open, Quick open, a tab switch,
a Find in Workspace hit, a panel's "open file") makes the tree select that file's pack; and a pack that moves to
another group of the tree after a fix stays selected, in its new place.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from studio.core.model import Pack
from studio.ui.main_window import MainWindow
from studio.ui.models.diagnostics_table import DIAGNOSTIC_ROLE
from studio.ui.models.pack_tree import Role

GOOD = "---\nname: {name}\ndescription: Facts about {name}.\ntype: domain-reference\nstatus: ready\n---\n# {name}\n"
REVIEW = ("---\nname: {name}\ndescription: Facts about {name}.\ntype: domain-reference\nstatus: needs-review\n---\n"
          "# {name}\n")
QUARANTINED = "---\nname: {name}\ndescription: Facts about {name}.\ntype: bogus-kind\nstatus: ready\n---\n# {name}\n"


def _tree_pack(window: MainWindow) -> Path | None:
    pack = window.workspace_panel.tree.currentIndex().data(Role.PACK)
    return pack.root if isinstance(pack, Pack) else None


def _agree(qtbot, window: MainWindow, root: Path) -> None:  # type: ignore[no-untyped-def]
    """The tree, the Inspector, the previews, the job panels and the active editor all show the pack at ``root``."""
    def agreed() -> bool:
        tab = window.editors.current_tab()
        return (_tree_pack(window) == root and window.inspector.pack is not None and window.inspector.pack.root == root
                and window.previews.pack is not None and window.previews.pack.root == root
                and window.modes._selected is not None and window.modes._selected.root == root
                and tab is not None and tab.document_state.pack_root == root)
    qtbot.waitUntil(agreed, timeout=5000)


@pytest.fixture
def three(make_pack, tmp_path: Path) -> dict[str, Path]:  # type: ignore[no-untyped-def]
    ws = tmp_path / "ws"
    return {
        "alpha": make_pack("alpha", REVIEW.format(name="alpha"), {"compiled/facts.md": "# Alpha facts\n"}, parent=ws),
        "beta": make_pack("beta", REVIEW.format(name="beta"), {"compiled/facts.md": "# Beta facts\n"}, parent=ws),
        "gamma": make_pack("gamma", GOOD.format(name="gamma"), parent=ws),
    }


def _open(qtbot, open_and_wait, window: MainWindow, three: dict[str, Path]) -> None:  # type: ignore[no-untyped-def]
    open_and_wait(window, [next(iter(three.values())).parent])
    # The curator is looking at gamma (picked in the tree) while alpha's guide is open.
    window.open_file(three["alpha"] / "KNOWLEDGE.md", 1)
    window.workspace_panel.select_pack(three["gamma"])
    qtbot.waitUntil(lambda: window.inspector.pack is not None and window.inspector.pack.root == three["gamma"],
                    timeout=5000)


def _step_onto(window: MainWindow, root: Path) -> None:
    """F8 from the row before the first problem of the pack at ``root``."""
    proxy = window.problems.proxy
    rows = [proxy.index(r, 0).data(DIAGNOSTIC_ROLE) for r in range(proxy.rowCount())]
    first = next(i for i, d in enumerate(rows) if d.pack == str(root))
    window.problems.table.setCurrentIndex(proxy.index((first - 1) % len(rows), 0))
    window.window_actions.next_problem.trigger()


def _by_f8(window: MainWindow, three: dict[str, Path]) -> None:
    _step_onto(window, three["beta"])


def _by_problems_double_click(window: MainWindow, three: dict[str, Path]) -> None:
    proxy = window.problems.proxy
    row = next(r for r in range(proxy.rowCount()) if proxy.index(r, 0).data(DIAGNOSTIC_ROLE).pack == str(three["beta"]))
    rect = window.problems.table.visualRect(proxy.index(row, 1))
    QTest.mouseClick(window.problems.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    QTest.mouseDClick(window.problems.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def _by_review_open(window: MainWindow, three: dict[str, Path]) -> None:
    window.modes.panel("Review").open_file_requested.emit(three["beta"] / "KNOWLEDGE.md", 1)


def _by_quick_open_file(window: MainWindow, three: dict[str, Path]) -> None:
    window.quick_open.file_chosen.emit(three["beta"] / "compiled" / "facts.md")


def _by_quick_open_pack(window: MainWindow, three: dict[str, Path]) -> None:
    window.quick_open.pack_chosen.emit(three["beta"])


def _by_tab_switch(window: MainWindow, three: dict[str, Path]) -> None:
    tab = window.open_file(three["beta"] / "compiled" / "facts.md", 1)
    window.open_file(three["alpha"] / "KNOWLEDGE.md", 1)
    assert tab is not None
    window.editors.setCurrentWidget(tab)


def _by_find_in_workspace(window: MainWindow, three: dict[str, Path]) -> None:
    window.find_panel.open_location.emit(three["beta"] / "compiled" / "facts.md", 1)


def _by_evals_open(window: MainWindow, three: dict[str, Path]) -> None:
    window.switch_mode("Evals")
    window.modes.panel("Evals").open_file_requested.emit(three["beta"] / "KNOWLEDGE.md", 1)


def _by_resolve_open(window: MainWindow, three: dict[str, Path]) -> None:
    window.switch_mode("Resolve")
    window.modes.panel("Resolve").open_file_requested.emit(three["beta"] / "compiled" / "facts.md", 1)


@pytest.mark.parametrize("bring_to_front", [
    _by_f8, _by_problems_double_click, _by_review_open, _by_quick_open_file, _by_quick_open_pack, _by_tab_switch,
    _by_find_in_workspace, _by_evals_open, _by_resolve_open,
], ids=lambda f: f.__name__.removeprefix("_by_"))
def test_every_way_to_bring_a_file_to_the_front_makes_every_view_show_its_pack(
        qtbot, open_and_wait, window: MainWindow, three: dict[str, Path],
        bring_to_front: Callable[[MainWindow, dict[str, Path]], None]) -> None:
    _open(qtbot, open_and_wait, window, three)
    bring_to_front(window, three)
    assert window.modes.current == "Author"
    _agree(qtbot, window, three["beta"])


def test_f8_within_the_file_in_front_brings_back_its_pack_after_another_was_picked(
        qtbot, open_and_wait, window: MainWindow, three: dict[str, Path]) -> None:
    """The editor already shows alpha's file: stepping to a problem in it moves the tree back from gamma."""
    _open(qtbot, open_and_wait, window, three)
    _step_onto(window, three["alpha"])
    _agree(qtbot, window, three["alpha"])


def test_a_pack_that_moves_group_after_a_fix_stays_selected(qtbot, open_and_wait, window: MainWindow, make_pack,
                                                            tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    for name in ("alpha", "beta", "delta"):
        make_pack(name, GOOD.format(name=name), parent=ws)
    broken = make_pack("broken", QUARANTINED.format(name="broken"), parent=ws)
    open_and_wait(window, [ws])
    assert window.tree_model.pack_items[broken].parent().data(Role.GROUP) == "quarantined"
    tab = window.open_file(broken / "KNOWLEDGE.md", 1)
    assert tab is not None
    _agree(qtbot, window, broken)
    # The fix: an allowed type. The pack leaves Quarantined for Explicit; the row that now stands where it stood
    # must not become the current pack.
    text = tab.text()
    start = text.index("bogus-kind")
    cursor = tab.editor.textCursor()
    cursor.setPosition(start)
    cursor.setPosition(start + len("bogus-kind"), cursor.MoveMode.KeepAnchor)
    with qtbot.waitSignal(tab.live_validated, timeout=5000):
        cursor.insertText("domain-reference")
    qtbot.waitUntil(lambda: window.tree_model.pack_items[broken].parent().data(Role.GROUP) == "explicit",
                    timeout=5000)
    qtbot.wait(50)
    assert _tree_pack(window) == broken
    _agree(qtbot, window, broken)
    assert window.inspector.pack is not None and window.inspector.pack.loads


def test_a_filter_that_hides_the_current_pack_does_not_select_another(
        qtbot, open_and_wait, window: MainWindow, three: dict[str, Path]) -> None:
    _open(qtbot, open_and_wait, window, three)
    window.workspace_panel.filter.setText("alpha")  # gamma, the current pack, is hidden
    qtbot.wait(20)
    assert window.current_pack is not None and window.current_pack.root == three["gamma"]
    window.workspace_panel.filter.setText("")
    qtbot.waitUntil(lambda: _tree_pack(window) == three["gamma"], timeout=3000)
    assert window.inspector.pack is not None and window.inspector.pack.root == three["gamma"]


def test_the_review_queue_and_the_tree_select_the_same_pack(qtbot, open_and_wait, window: MainWindow,
                                                            three: dict[str, Path]) -> None:
    _open(qtbot, open_and_wait, window, three)
    review = window.modes.panel("Review")
    window.switch_mode("Review")
    # The current pack (gamma) waits for nothing: the queue shows its first pack, the tree stays on gamma.
    assert _tree_pack(window) == three["gamma"]
    # A click on a queued pack makes it the current pack everywhere.
    row = next(r for r, p in enumerate(review.queue.items) if p.root == three["beta"])  # type: ignore[attr-defined]
    table = review.table  # type: ignore[attr-defined]
    QTest.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualRect(table.model().index(row, 0))
                     .center())
    qtbot.waitUntil(lambda: _tree_pack(window) == three["beta"], timeout=5000)
    qtbot.waitUntil(lambda: window.inspector.pack is not None and window.inspector.pack.root == three["beta"],
                    timeout=5000)
    # Picking another queued pack in the tree selects it in the queue.
    window.workspace_panel.select_pack(three["alpha"])
    qtbot.waitUntil(lambda: review.pack is not None and review.pack.root == three["alpha"], timeout=5000)
