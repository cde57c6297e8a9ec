"""A warm workspace is shown whole from the result cache, then confirmed in the background (issue #28, item 4).

The window opens a workspace once (cold: the scan stores every result), then the workspace changes on disk (a pack
edited, one deleted, one added) and the window opens it again. Every pack found that the cache knows must be in the
tree at once, before the scan has confirmed anything; when the scan ends, the window must show what a cold load
shows: the edited pack as it is now, the new one there. A scan cancelled before it confirmed what the cache showed
leaves the packs it loaded, as a cancelled cold scan does.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from studio.core import result_cache
from studio.core.model import Pack
from studio.core.workspace import WorkspaceOptions, open_workspace
from studio.ui.main_window import MainWindow
from studio.ui.models.pack_tree import Role

PACK = "---\nname: {name}\ndescription: A pack for tests.\ntype: domain-reference\nstatus: {status}\n---\n# G\n"
PACKS = 40


def _tree(window: MainWindow) -> dict[str, str | None]:
    """Pack name -> the status its row shows, read from the tree model as a view would."""
    model = window.tree_model
    shown: dict[str, str | None] = {}
    for g in range(model.rowCount()):
        group = model.index(g, 0)
        for r in range(model.rowCount(group)):
            pack = model.index(r, 0, group).data(Role.PACK)
            assert isinstance(pack, Pack)
            shown[pack.name] = pack.status
    return shown


def _cold(root: Path) -> dict[str, str | None]:
    return {p.name: p.status for p in open_workspace(WorkspaceOptions(explicit=[root], builtin=False)).packs}


@pytest.fixture
def opened_once(window: MainWindow, make_pack, open_and_wait, tmp_path: Path,  # type: ignore[no-untyped-def]
                monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder of ``PACKS`` packs, opened once in ``window`` (cold: every result goes into its cache)."""
    # Results are stored even for files written a moment ago (the cache normally waits 2 s to trust a timestamp).
    monkeypatch.setattr(result_cache, "RACY_NS", 0)
    root = tmp_path / "ws"
    for i in range(PACKS):
        make_pack(f"p{i:02d}", PACK.format(name=f"p{i:02d}", status="ready"), parent=root)
    open_and_wait(window, [root])
    assert len(_tree(window)) == PACKS
    return root


@pytest.mark.slow
def test_a_warm_reopen_shows_every_cached_pack_before_the_scan_confirms_them(
        open_and_wait, window: MainWindow, make_pack, opened_once: Path) -> None:  # type: ignore[no-untyped-def]
    root = opened_once
    (root / "p01" / "KNOWLEDGE.md").write_text(PACK.format(name="p01", status="draft"))
    shutil.rmtree(root / "p02")
    make_pack("new", PACK.format(name="new", status="ready"), parent=root)

    events: list[str] = []
    at_cache: dict[str, object] = {}

    def cache_shown(count: int) -> None:
        events.append("from cache")
        at_cache.update(count=count, tree=_tree(window), scanning=window.session.scanning)

    window.session.shown_from_cache.connect(cache_shown)
    # Connected after the window's own handler: the status line says the shown packs are being confirmed.
    window.session.shown_from_cache.connect(
        lambda _count: at_cache.update(status=window.status.progress_label.text()))
    window.session.finished.connect(lambda _cancelled: events.append("finished"))
    open_and_wait(window, [root])

    assert events == ["from cache", "finished"]
    assert "shown from the cache; confirming" in str(at_cache["status"])
    # Right after the cached list was applied: every pack found that the cache knew is in the tree, as the cache had
    # it (the edited one as it was; the new one, which it never saw, not yet), and the scan had not finished
    # confirming them.
    assert at_cache["count"] == PACKS - 1 and at_cache["scanning"] is True
    tree = at_cache["tree"]
    assert isinstance(tree, dict) and len(tree) == PACKS - 1
    assert tree["p01"] == "ready" and "p02" not in tree and "new" not in tree
    # Confirmed: only the differences were applied, and the window shows what a cold load shows.
    assert _tree(window) == _cold(root)
    assert _tree(window)["p01"] == "draft" and "p02" not in _tree(window) and "new" in _tree(window)
    assert {p.name for p in window.session.packs.values()} == set(_cold(root))


def test_a_first_opening_shows_nothing_from_an_empty_cache(qtbot, open_and_wait, window: MainWindow, make_pack,
                                                           tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    for i in range(3):
        make_pack(f"p{i}", PACK.format(name=f"p{i}", status="ready"), parent=tmp_path / "ws")
    shown: list[int] = []
    window.session.shown_from_cache.connect(shown.append)
    open_and_wait(window, [tmp_path / "ws"])
    assert shown == [] and len(_tree(window)) == 3


@pytest.mark.slow
def test_packs_shown_from_the_cache_that_the_scan_never_confirmed_leave(
        qtbot, window: MainWindow, opened_once: Path) -> None:  # type: ignore[no-untyped-def]
    root = opened_once
    shown: list[int] = []
    window.session.shown_from_cache.connect(shown.append)
    window.session.shown_from_cache.connect(lambda _count: window.session.cancel())  # the user's Cancel, at once
    with qtbot.waitSignal(window.session.finished, timeout=20_000) as finished:
        window.open_paths([root])
    assert shown == [PACKS] and finished.args == [True]
    # Whatever the cancelled scan confirmed stays; the rest leaves the tree, the Problems table and the workspace.
    # (How much it confirmed before the cancel reached it varies from run to run: from none to all of them.)
    kept = {p.name for p in window.session.packs.values()}
    assert set(_tree(window)) == kept
    assert window.session.workspace is not None and {p.name for p in window.session.workspace.packs} == kept
    listed = {window.diag_model.index(r, 2).data() for r in range(window.diag_model.rowCount())}
    assert listed <= kept | {"(workspace)"}
