"""Quick Open popup: typing narrows, keys and clicks open the right thing, matches are highlighted, no escapes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QMainWindow, QTextEdit

from studio.core.model import Pack, Scope
from studio.core.pack import load_pack
from studio.core.quick_open import Entry, EntryKind, Index, match
from studio.ui.models.quick_open import MATCH_ROLE, QuickOpenModel
from studio.ui.widgets.quick_open_delegate import QuickOpenDelegate, split_runs
from studio.ui.widgets.quick_open_popup import QuickOpen

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"
COPIED = ("northwind-espresso", "orbit-launch-notes", "lin-yue-persona")


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """Three bundled packs copied into the test's folder, plus a file outside every pack."""
    ws = tmp_path / "ws"
    for name in COPIED:
        shutil.copytree(EXAMPLES / name, ws / name)
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret-plans.md").write_text("not pack knowledge", encoding="utf-8")
    return ws


def load(ws: Path) -> list[Pack]:
    return [load_pack(ws / name, Scope.EXPLICIT) for name in COPIED]


@pytest.fixture
def window(qtbot) -> QMainWindow:  # type: ignore[no-untyped-def]
    win = QMainWindow()
    win.setCentralWidget(QTextEdit())
    win.resize(1000, 700)
    qtbot.addWidget(win)
    win.show()
    return win


@pytest.fixture
def quick(qtbot, window: QMainWindow, workspace: Path) -> QuickOpen:  # type: ignore[no-untyped-def]
    """The popup over the copied packs, shown, its file listing done."""
    popup = QuickOpen(window)
    popup.set_packs(load(workspace))
    popup.popup()
    qtbot.waitUntil(lambda: not popup.indexing, timeout=10_000)
    return popup


def shown(popup: QuickOpen) -> list[str]:
    return [popup.model.index(row, 0).data() for row in range(popup.model.rowCount())]


def test_model_passes_the_model_tester(qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    root = Path("/ws/acme")
    entries = [Entry.for_pack("acme", root), Entry.for_file("acme", root, "documents/faq.md")]
    model = QuickOpenModel()
    model.set_results(match("a", entries))
    qtmodeltester.check(model)
    assert model.rowCount() == 2
    assert model.index(1, 0).data(Qt.ItemDataRole.ToolTipRole) == str(root / "documents" / "faq.md")
    assert model.index(0, 0).data(MATCH_ROLE).entry.kind is EntryKind.PACK
    model.set_results([])
    qtmodeltester.check(model)


def test_empty_query_lists_the_packs(quick: QuickOpen) -> None:
    assert shown(quick) == sorted(COPIED)
    assert quick.status.text().startswith("3 packs, ")


def test_typing_narrows_the_list(qtbot, quick: QuickOpen) -> None:  # type: ignore[no-untyped-def]
    qtbot.keyClicks(quick.field, "fa")
    broad = shown(quick)
    qtbot.keyClicks(quick.field, "q")
    narrow = shown(quick)
    assert 0 < len(narrow) < len(broad)
    assert narrow[0] == "northwind-espresso/compiled/splits/product-brief/faq.md"
    assert set(narrow) <= set(broad)


def test_enter_opens_the_selected_file(qtbot, quick: QuickOpen, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    qtbot.keyClicks(quick.field, "nw facts")
    assert shown(quick)[0] == "northwind-espresso/compiled/facts.md"
    with qtbot.assertNotEmitted(quick.pack_chosen), qtbot.waitSignal(quick.file_chosen) as chosen:
        qtbot.keyClick(quick.field, Qt.Key.Key_Return)
    assert chosen.args == [workspace / "northwind-espresso" / "compiled" / "facts.md"]
    assert not quick.isVisible()


def test_arrows_move_and_enter_opens_a_pack(qtbot, quick: QuickOpen, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    qtbot.keyClicks(quick.field, "orbit")
    rows = shown(quick)
    assert rows[0] == "orbit-launch-notes"  # the pack above its own files
    qtbot.keyClick(quick.field, Qt.Key.Key_Down)
    qtbot.keyClick(quick.field, Qt.Key.Key_Down)
    qtbot.keyClick(quick.field, Qt.Key.Key_Up)
    assert quick.current_match() is not None and quick.current_match().entry.text == rows[1]  # type: ignore[union-attr]
    qtbot.keyClick(quick.field, Qt.Key.Key_Up)
    qtbot.keyClick(quick.field, Qt.Key.Key_Up)  # stays on the first row
    with qtbot.waitSignal(quick.pack_chosen) as chosen:
        qtbot.keyClick(quick.field, Qt.Key.Key_Enter)
    assert chosen.args == [workspace / "orbit-launch-notes"]


def test_escape_closes_without_choosing(qtbot, quick: QuickOpen) -> None:  # type: ignore[no-untyped-def]
    qtbot.keyClicks(quick.field, "brief")
    with qtbot.assertNotEmitted(quick.file_chosen), qtbot.assertNotEmitted(quick.pack_chosen):
        qtbot.keyClick(quick.field, Qt.Key.Key_Escape)
    assert not quick.isVisible()
    quick.popup()  # opens again with the last query, selected so typing replaces it
    assert quick.field.selectedText() == "brief"


def test_clicking_a_row_opens_it(qtbot, quick: QuickOpen, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    qtbot.keyClicks(quick.field, "boundaries")
    rows = shown(quick)
    target = rows.index("orbit-launch-notes/compiled/boundaries.md")
    rect = quick.view.visualRect(quick.model.index(target, 0))
    with qtbot.waitSignal(quick.file_chosen) as chosen:
        qtbot.mouseClick(quick.view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert chosen.args == [workspace / "orbit-launch-notes" / "compiled" / "boundaries.md"]


def test_no_match_says_so(qtbot, quick: QuickOpen) -> None:  # type: ignore[no-untyped-def]
    qtbot.keyClicks(quick.field, "zzqx")
    assert shown(quick) == []
    assert quick.status.text() == "No pack or file matches “zzqx”"
    with qtbot.assertNotEmitted(quick.file_chosen):
        qtbot.keyClick(quick.field, Qt.Key.Key_Return)


def test_symlinks_out_of_a_pack_are_not_listed(qtbot, window: QMainWindow, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    outside = workspace.parent / "outside"
    (workspace / "orbit-launch-notes" / "wiki" / "secret-plans.md").symlink_to(outside / "secret-plans.md")
    (workspace / "orbit-launch-notes" / "elsewhere").symlink_to(outside, target_is_directory=True)
    popup = QuickOpen(window)
    popup.set_packs(load(workspace))
    popup.popup()
    qtbot.waitUntil(lambda: not popup.indexing, timeout=10_000)
    qtbot.keyClicks(popup.field, "secret-plans")
    assert not any("secret-plans" in row for row in shown(popup))
    assert not any("secret" in e.text or "elsewhere" in e.text for e in popup.index)


def test_matched_characters_are_highlighted(qtbot, quick: QuickOpen) -> None:  # type: ignore[no-untyped-def]
    assert split_runs("facts.md", 10, {10, 11, 12, 13, 14}) == [("facts", True), (".md", False)]
    assert split_runs("a-b", 0, {1}) == [("a", False), ("-", True), ("b", False)]

    def accent_pixels() -> int:
        delegate = quick.view.itemDelegate()
        assert isinstance(delegate, QuickOpenDelegate)
        image: QImage = quick.view.viewport().grab().toImage()
        accent = delegate.accent
        left = quick.view.iconSize().width() + 30  # past the icon, which may share the accent's hue
        return sum(1 for y in range(0, image.height(), 2) for x in range(left, image.width(), 2)
                   if _close(image.pixelColor(x, y), accent))

    assert accent_pixels() == 0  # the empty query matches nothing in particular
    qtbot.keyClicks(quick.field, "brief")
    quick.view.setCurrentIndex(quick.model.index(-1, 0))  # the selected row draws matches in its own colour
    assert accent_pixels() > 20
    found = quick.model.index(0, 0).data(MATCH_ROLE)
    assert "".join(found.entry.text[p] for p in found.positions).lower() == "brief"


def _close(a: QColor, b: QColor) -> bool:
    return abs(a.red() - b.red()) + abs(a.green() - b.green()) + abs(a.blue() - b.blue()) < 60


def test_searches_in_a_worker_keep_only_the_latest_answer(qtbot, quick: QuickOpen) -> None:  # type: ignore[no-untyped-def]
    quick.sync_limit = 0  # as with a large workspace: every search goes to the worker
    answered: list[str] = []
    quick.results_shown.connect(answered.append)
    with qtbot.waitSignal(quick.results_shown, check_params_cb=lambda q: q == "brief", timeout=10_000):
        qtbot.keyClicks(quick.field, "brief")
    qtbot.waitUntil(lambda: not quick._searching)
    assert answered[-1] == "brief"
    assert shown(quick)[0].endswith("briefing.md")
    for row in range(quick.model.rowCount()):
        found = quick.model.index(row, 0).data(MATCH_ROLE)
        assert "".join(found.entry.key[p] for p in found.positions) == "brief"
    with qtbot.waitSignal(quick.results_shown, check_params_cb=lambda q: q == "briefx", timeout=10_000):
        qtbot.keyClicks(quick.field, "x")
    qtbot.waitUntil(lambda: not quick._searching)
    # Backspace to a query already answered: its cached answer shows at once, without a worker.
    qtbot.keyClick(quick.field, Qt.Key.Key_Backspace)
    assert answered[-1] == "brief" and not quick._searching


def test_changed_and_removed_packs_update_the_index(qtbot, quick: QuickOpen, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    (workspace / "lin-yue-persona" / "documents" / "new-topic.md").write_text("x", encoding="utf-8")
    packs = load(workspace)
    with qtbot.assertNotEmitted(quick.index_ready):
        quick.update_pack(quick._packs[workspace / "orbit-launch-notes"])  # the same object: nothing to do
    assert not quick.indexing
    with qtbot.waitSignal(quick.index_ready, timeout=10_000):
        quick.update_pack(packs[2])  # a reloaded pack: listed again, in a worker, since the popup is showing
    qtbot.keyClicks(quick.field, "newtopic")
    assert shown(quick) == ["lin-yue-persona/documents/new-topic.md"]
    quick.set_packs([p for p in packs if p.root.name != "lin-yue-persona"])  # gone at once, no worker needed
    assert shown(quick) == []
    assert all(e.root.name != "lin-yue-persona" for e in quick.index)
    qtbot.waitUntil(lambda: not quick.indexing)


def test_hidden_popup_waits_and_pack_names_come_first(qtbot, window: QMainWindow, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    popup = QuickOpen(window)
    with qtbot.assertNotEmitted(popup.index_ready):
        popup.set_packs(load(workspace))  # hidden: nothing is listed or indexed yet
    assert len(popup.index) == 0 and not popup.indexing
    popup.popup()
    assert popup.indexing
    assert [e.kind for e in popup.index] == [EntryKind.PACK] * 3  # names are searchable while files are listed
    qtbot.keyClicks(popup.field, "orbit")
    assert shown(popup) == ["orbit-launch-notes"]
    with qtbot.waitSignal(popup.results_shown, timeout=10_000):  # the listing lands; the query runs again
        qtbot.waitUntil(lambda: not popup.indexing, timeout=10_000)
    assert isinstance(popup.index, Index) and len(popup.index) > 30
    assert shown(popup)[0] == "orbit-launch-notes" and len(shown(popup)) > 1


def test_popup_sits_at_the_top_centre_of_the_window(quick: QuickOpen, window: QMainWindow) -> None:
    window_centre = window.mapToGlobal(QPoint(window.width() // 2, 0)).x()
    popup_centre = quick.geometry().center().x()
    assert abs(popup_centre - window_centre) <= 2
    central_top = window.centralWidget().mapToGlobal(QPoint(0, 0)).y()
    assert central_top <= quick.geometry().top() <= central_top + 20
    assert quick.width() <= window.width()


def test_a_hidden_popup_lets_go_of_a_closed_workspace_and_opens_on_the_newest(qtbot, window: QMainWindow,
                                                                          workspace: Path) -> None:  # type: ignore[no-untyped-def]
    popup = QuickOpen(window)
    first = load(workspace)
    popup.set_packs(first)
    popup.popup()
    qtbot.waitUntil(lambda: not popup.indexing, timeout=10_000)
    popup.hide()
    popup.set_packs([])  # a new scan starts: the last workspace's packs are not kept alive by the popup
    assert popup._packs == {}
    again = load(workspace)
    popup.set_packs(again[:1])
    popup.popup()
    qtbot.waitUntil(lambda: not popup.indexing, timeout=10_000)
    assert [e.root for e in popup.index if e.kind == EntryKind.PACK] == [again[0].root]
