"""A warm opening's tree rows are made in the scan's worker thread (``RowsAhead``): the tree must read exactly as it
does when it makes each row itself, labels of shared names included, and never show a row made for a copy of a pack
that the scan has replaced since."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from PySide6.QtCore import QModelIndex, Qt

from studio.core.labels import LabelIndex
from studio.core.model import Pack
from studio.core.pack import load_pack
from studio.ui.models.pack_tree import ROWS_AHEAD, PackTreeModel, Role, tree_order

PACK = "---\nname: {name}\ndescription: A pack for tests.\ntype: domain-reference\nstatus: {status}\n---\n# G\n"
ROLES = (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole, *Role)


def _shown(model: PackTreeModel) -> list[tuple[Any, ...]]:
    """Every pack row as the views read it, group by group, in order (icons compared by presence)."""
    rows = []
    for g in range(model.rowCount()):
        group = model.index(g, 0)
        for r in range(model.rowCount(group)):
            index = model.index(r, 0, group)
            rows.append((group.data(), *(index.data(role) for role in ROLES),
                         index.data(Qt.ItemDataRole.DecorationRole) is not None,
                         model.rowCount(index), bool(index.flags() & Qt.ItemFlag.ItemIsSelectable)))
    return rows


def _fill(model: PackTreeModel, packs: list[Pack]) -> None:
    """As the window does: the names' labels first, then the rows."""
    labels = LabelIndex()
    changed = labels.update(packs)
    model.set_labels({Path(r): label for r in changed if (label := labels.label(r))})
    model.add_packs(sorted(packs, key=tree_order))


def _packs(make_pack, tmp_path: Path) -> list[Pack]:  # type: ignore[no-untyped-def]
    # Two packs share a name (their rows carry a label telling them apart), one has a name of its own, one is broken.
    return [load_pack(make_pack("shared", PACK.format(name="shared", status="ready"), parent=tmp_path / "a")),
            load_pack(make_pack("shared", PACK.format(name="shared", status="draft"), parent=tmp_path / "b")),
            load_pack(make_pack("alone", PACK.format(name="alone", status="ready"))),
            load_pack(make_pack("broken", PACK.format(name="broken", status="bogus")))]


def test_rows_made_in_another_thread_read_as_rows_the_tree_made(qtbot, make_pack, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    packs = _packs(make_pack, tmp_path)
    itself = PackTreeModel()
    _fill(itself, packs)

    ahead = PackTreeModel()
    worker = threading.Thread(target=ROWS_AHEAD.make, args=(packs, lambda: True))
    worker.start()
    worker.join()
    _fill(ahead, packs)

    assert _shown(ahead) == _shown(itself)
    assert len(_shown(ahead)) == 4
    assert any(row[1] == "shared" and row[-4] for row in _shown(ahead))  # the label's "where" of a shared name
    assert ROWS_AHEAD.take(packs[0]) is None  # each row made ahead is taken once


def test_a_row_made_for_a_copy_the_scan_replaced_is_not_shown(qtbot, make_pack, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = make_pack("alpha", PACK.format(name="alpha", status="ready"))
    stale = load_pack(root)
    ROWS_AHEAD.make([stale], lambda: True)
    (root / "KNOWLEDGE.md").write_text(PACK.format(name="alpha", status="draft"))
    fresh = load_pack(root)

    model = PackTreeModel()
    model.add_packs([fresh])
    index = model.index_for_pack(root)
    assert index.data(Role.PACK) is fresh
    assert "status: draft" in index.data(Qt.ItemDataRole.ToolTipRole)
    ROWS_AHEAD.clear()


def test_a_scan_that_is_no_longer_wanted_stops_making_rows(make_pack, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    packs = [load_pack(make_pack(f"p{i}", PACK.format(name=f"p{i}", status="ready"))) for i in range(5)]
    asked = []

    def wanted() -> bool:
        asked.append(True)
        return len(asked) == 1  # the first batch only: then the scan was replaced

    ROWS_AHEAD.make(packs, wanted, batch=2)
    model = PackTreeModel()
    model.add_packs(packs)  # the tree makes the rest itself
    assert [model.index_for_pack(p.root).data(Role.PACK) for p in packs] == packs
    assert ROWS_AHEAD.take(packs[4]) is None
    ROWS_AHEAD.clear()
    assert model.index_for_pack(packs[0].root).parent() != QModelIndex()
