"""The Qt models: structure checked by qtmodeltester, then what a user would see in the views."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QModelIndex, Qt

from studio.core.diagnostics import Severity
from studio.core.model import Scope, Verdict
from studio.core.pack import load_pack
from studio.ui.models.diagnostics_table import DiagnosticsFilterProxy, DiagnosticsTableModel, counts_text
from studio.ui.models.pack_tree import PLACEHOLDER, PackTreeModel, Role, exclusion_reason, group_key
from studio.ui.pacing import Pace

GOOD = "---\nname: {name}\ndescription: A pack for tests.\ntype: domain-reference\nstatus: ready\n---\n# Guide\n"


def _rows(model: PackTreeModel, parent: QModelIndex) -> list[str]:
    return [model.index(r, 0, parent).data() for r in range(model.rowCount(parent))]


def test_pack_tree_groups_packs_by_verdict(qtmodeltester, make_pack, tmp_path: Path) -> None:
    good = load_pack(make_pack("alpha", GOOD.format(name="alpha"), {"compiled/briefing.md": "# B\n"}))
    broken = load_pack(make_pack("beta", GOOD.format(name="beta").replace("status: ready", "status: bogus")))
    shadowed = load_pack(make_pack("gamma", GOOD.format(name="gamma")), Scope.USER).with_verdict(
        Verdict(shadowed_by=tmp_path / "elsewhere"))
    model = PackTreeModel()
    model.add_packs([good, broken, shadowed])
    qtmodeltester.check(model)

    groups = _rows(model, QModelIndex())
    assert "Explicit (1)" in groups and "Quarantined (1)" in groups and "Shadowed (1)" in groups
    assert group_key(broken) == "quarantined"
    assert "status" in exclusion_reason(broken)
    assert exclusion_reason(shadowed) == f"shadowed by {tmp_path / 'elsewhere'}"
    pack_index = model.index_for_pack(good.root)
    assert pack_index.data(Role.PACK) is good
    assert "alpha" in pack_index.data(Qt.ItemDataRole.ToolTipRole)


def test_pack_tree_lists_files_lazily(qtbot, qtmodeltester, make_pack) -> None:
    root = make_pack("alpha", GOOD.format(name="alpha"),
                     {"compiled/briefing.md": "# B\n", "compiled/splits/doc/facts.md": "x", "wiki/index.md": "y"})
    model = PackTreeModel()
    model.add_packs([load_pack(root)])
    pack_index = model.index_for_pack(root)
    assert model.hasChildren(pack_index)  # the view draws an expander before anything is listed
    assert _rows(model, pack_index) == [PLACEHOLDER]
    with qtbot.waitSignal(model.rowsInserted, timeout=5000):
        assert model.list_children(pack_index)
    assert _rows(model, pack_index) == ["compiled", "wiki", "KNOWLEDGE.md"]
    assert not model.list_children(pack_index)  # listed once
    compiled = model.index(0, 0, pack_index)
    with qtbot.waitSignal(model.rowsInserted, timeout=5000):
        model.list_children(compiled)
    assert _rows(model, compiled) == ["splits", "briefing.md"]
    assert model.index(1, 0, compiled).data(Role.PATH) == str(root / "compiled" / "briefing.md")
    qtmodeltester.check(model)


def test_replacing_a_pack_moves_it_between_groups(make_pack) -> None:
    root = make_pack("alpha", GOOD.format(name="alpha"))
    model = PackTreeModel()
    model.add_packs([load_pack(root)])
    (root / "KNOWLEDGE.md").write_text(GOOD.format(name="alpha").replace("ready", "bogus"))
    model.replace_pack(load_pack(root))
    assert _rows(model, QModelIndex())[0] == "Explicit (0)"
    assert model.index_for_pack(root).parent().data() == "Quarantined (1)"


def test_diagnostics_table_filters_and_counts(qtmodeltester, make_pack) -> None:
    broken = load_pack(make_pack("beta", GOOD.format(name="beta").replace("status: ready", "status: bogus")))
    model = DiagnosticsTableModel()
    model.set_pack(str(broken.root), broken.name, broken.diagnostics)
    qtmodeltester.check(model)
    proxy = DiagnosticsFilterProxy()
    proxy.setSourceModel(model)
    qtmodeltester.check(proxy)
    codes = [proxy.index(r, 1).data() for r in range(proxy.rowCount())]
    assert "invalid-status" in codes
    assert proxy.index(codes.index("invalid-status"), 2).data() == "beta"
    proxy.set_severity(Severity.ERROR, False)
    assert "invalid-status" not in [proxy.index(r, 1).data() for r in range(proxy.rowCount())]
    proxy.set_severity(Severity.ERROR, True)
    proxy.set_needle("no-such-text")
    assert proxy.rowCount() == 0
    assert counts_text(model.counts()).startswith(f"{model.counts().errors} error")


def test_replacing_one_packs_rows_keeps_the_others(make_pack) -> None:
    a = load_pack(make_pack("a", GOOD.format(name="a").replace("ready", "bogus")))
    b = load_pack(make_pack("b", GOOD.format(name="b").replace("ready", "bogus")))
    model = DiagnosticsTableModel()
    model.set_packs([(str(a.root), a.name, a.diagnostics), (str(b.root), b.name, b.diagnostics)])
    before = model.rowCount()
    model.set_pack(str(a.root), a.name, [])
    assert model.rowCount() == before - len(a.diagnostics)
    assert {model.index(r, 2).data() for r in range(model.rowCount())} == {"b"}


def test_changes_group_tells_which_packs_a_replace_would_move(make_pack, tmp_path: Path) -> None:
    pack = load_pack(make_pack("alpha", GOOD.format(name="alpha")))
    model = PackTreeModel()
    model.add_packs([pack])
    assert not model.changes_group(pack)
    pack = pack.with_verdict(Verdict(shadowed_by=tmp_path / "winner"))  # settling found a namesake that wins
    assert model.changes_group(pack)
    model.replace_pack(pack)
    assert not model.changes_group(pack)
    assert model.index_for_pack(pack.root).parent().data() == "Shadowed (1)"
    other = load_pack(make_pack("beta", GOOD.format(name="beta")))
    assert model.changes_group(other)  # not in the tree yet: replacing adds it


def test_refilling_the_tree_leaves_no_stale_item_wrappers(qtbot, make_pack) -> None:  # type: ignore[no-untyped-def]
    """Each re-opening of a workspace empties the tree and fills it again. Rows cloned from a prototype left a
    PySide wrapper behind for every deleted row (memory that grew with each re-opening, and a freed address
    that a new row could be mistaken for: a crash); rows made by the constructor leave none."""
    import gc

    from PySide6.QtGui import QStandardItem

    from studio.ui.let_go import held

    packs = [load_pack(make_pack(f"p{i}", GOOD.format(name=f"p{i}"))) for i in range(30)]
    model = PackTreeModel()

    def wrappers() -> int:
        qtbot.waitUntil(lambda: held() == 0)  # what the tree let go of is released over a few turns
        gc.collect()
        return sum(1 for o in gc.get_objects() if isinstance(o, QStandardItem))

    model.add_packs(packs)
    empty_before = None
    for _ in range(3):
        model.clear()
        empty = wrappers()
        empty_before = empty if empty_before is None else empty_before
        assert empty == empty_before  # nothing left over from the rows just removed
        model.add_packs(packs)
    assert len(model.pack_items) == 30


def test_a_large_tree_is_emptied_over_several_turns_and_new_packs_show_at_once(
        qtbot, monkeypatch, make_pack) -> None:  # type: ignore[no-untyped-def]
    from studio.ui.models import pack_tree

    monkeypatch.setattr(pack_tree, "SLICED_CLEAR_LIMIT", 5)  # these 30 packs count as a large workspace
    old = [load_pack(make_pack(f"old{i}", GOOD.format(name=f"old{i}"))) for i in range(30)]
    model = PackTreeModel()
    model._removal.pace = Pace.fixed(4)
    model.add_packs(old)
    model.clear()
    assert model.emptying and model.index_for_pack(old[0].root) == QModelIndex()  # no handle to an old row
    new = [load_pack(make_pack(f"new{i}", GOOD.format(name=f"new{i}"))) for i in range(3)]
    model.add_packs(new)
    renamed = load_pack(make_pack("new1", GOOD.format(name="new1").replace("status: ready", "status: draft")))
    model.replace_pack(renamed)  # a later copy of a pack replaces it
    # The new workspace is in the tree while the old rows are still going (they left the model with their groups).
    group = model.groups[new[0].scope.value]
    assert model.emptying and [group.child(r).text() for r in range(group.rowCount())] == ["new0", "new1", "new2"]
    qtbot.waitUntil(lambda: not model.emptying)
    group = model.groups[new[0].scope.value]
    assert sorted(group.child(r).text() for r in range(group.rowCount())) == ["new0", "new1", "new2"]
    assert model.index_for_pack(renamed.root).data(Role.PACK) is renamed
    assert group.text().endswith("(3)")


def test_clearing_again_while_the_tree_empties_drops_the_packs_that_were_waiting(
        qtbot, monkeypatch, make_pack) -> None:  # type: ignore[no-untyped-def]
    """A rescan started while the last one's rows are still going: packs of the cancelled scan never appear."""
    from studio.ui.models import pack_tree

    monkeypatch.setattr(pack_tree, "SLICED_CLEAR_LIMIT", 5)
    model = PackTreeModel()
    model._removal.pace = Pace.fixed(4)
    model.add_packs([load_pack(make_pack(f"old{i}", GOOD.format(name=f"old{i}"))) for i in range(30)])
    model.clear()
    model.add_packs([load_pack(make_pack("cancelled", GOOD.format(name="cancelled")))])
    model.clear()  # a second rescan before the first one's packs were shown
    assert model.emptying
    latest = load_pack(make_pack("latest", GOOD.format(name="latest")))
    model.add_packs([latest])
    qtbot.waitUntil(lambda: not model.emptying)
    group = model.groups[latest.scope.value]
    assert [group.child(r).text() for r in range(group.rowCount())] == ["latest"]
