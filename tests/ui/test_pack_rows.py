"""Pack rows in the Workspace tree are painted from a cache: it must never show stale badges."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QImage

from studio.core.diagnostics import Severity
from studio.core.labels import pack_labels
from studio.core.model import Verdict
from studio.core.pack import load_pack
from studio.core.shadowing import NAME_COLLISION
from studio.ui.models.pack_tree import PackTreeModel, Role
from studio.ui.widgets.pack_row_delegate import tags_that_fit
from studio.ui.widgets.workspace_panel import WorkspacePanel

GOOD = "---\nname: alpha\ndescription: A pack for tests.\ntype: domain-reference\nstatus: ready\n---\n# Guide\n"


def _row_image(panel: WorkspacePanel, root: Path) -> QImage:
    index = panel.view_index(panel.model.index_for_pack(root))
    return panel.tree.viewport().grab(panel.tree.visualRect(index)).toImage()


def test_a_settled_pack_shows_its_new_error_count(qtbot, make_pack) -> None:
    pack = load_pack(make_pack("alpha", GOOD))
    model = PackTreeModel()
    model.add_packs([pack])
    panel = WorkspacePanel(model)
    qtbot.addWidget(panel)
    panel.resize(420, 300)
    panel.show()
    panel.tree.expandAll()
    qtbot.waitExposed(panel)
    before = _row_image(panel, pack.root)
    clean = panel.tree.itemDelegate()._look(pack).badges  # type: ignore[attr-defined]
    assert not any(icon == "error" for _text, icon in clean)

    # Settling a scan gives the pack a verdict with a finding of its own (a name collision, say).
    pack = pack.with_verdict(Verdict(findings=(NAME_COLLISION("taken", pack=str(pack.root), severity=Severity.ERROR),)))
    model.replace_pack(pack)
    badges = panel.tree.itemDelegate()._look(pack).badges  # type: ignore[attr-defined]
    assert ("1", "error") in badges
    assert _row_image(panel, pack.root) != before  # the row was repainted with the badge


def test_in_a_narrow_dock_the_profile_tag_gives_way_before_the_trust_glyph() -> None:
    # name 90 + chip 60: trust (10) and profile (60) both fit in 260 px, only trust in 200, neither in 160
    assert tags_that_fit(260, 90, 60, [10, 60]) == 2
    assert tags_that_fit(200, 90, 60, [10, 60]) == 1
    assert tags_that_fit(160, 90, 60, [10, 60]) == 0


def test_finding_counts_stay_inside_a_narrow_row(qtbot, make_pack) -> None:
    pack = load_pack(make_pack("a-pack-with-a-rather-long-name", GOOD.replace("name: alpha",
                                                                              "name: a-pack-with-a-rather-long-name")))
    pack = pack.with_verdict(Verdict(findings=(NAME_COLLISION("taken", pack=str(pack.root), severity=Severity.ERROR),)))
    model = PackTreeModel()
    model.add_packs([pack])
    panel = WorkspacePanel(model)
    qtbot.addWidget(panel)
    panel.resize(330, 200)  # the dock's minimum width
    panel.show()
    panel.tree.expandAll()
    qtbot.waitExposed(panel)
    image = _row_image(panel, pack.root)
    # The error icon is red: some strongly red pixel must be painted in the row's last 60 pixels.
    reds = [image.pixelColor(x, y) for x in range(image.width() - 60, image.width()) for y in range(image.height())]
    assert any(c.red() > 180 and c.green() < 110 and c.blue() < 110 for c in reds)


def test_the_tree_lists_packs_in_the_same_order_whatever_order_the_scan_delivered_them(make_pack) -> None:
    names = ["delta", "bravo", "alpha", "charlie", "echo", "alpha"]
    packs = [load_pack(make_pack(f"{name}-{i}", GOOD.replace("name: alpha", f"name: {name}")))
             for i, name in enumerate(names)]

    def order(batches: list[list[int]]) -> list[tuple[str, str]]:
        model = PackTreeModel()
        for batch in batches:
            model.add_packs([packs[i] for i in batch])
        group = next(g for g in model.groups.values() if g.rowCount())
        return [(group.child(r).text(), str(group.child(r).data(Role.PATH)))
                for r in range(group.rowCount())]

    first = order([[0, 1], [2, 3, 4, 5]])
    assert first == order([[5], [4, 3], [2, 1, 0]]) == order([[3, 1, 5, 0, 2, 4]])
    assert [name for name, _ in first] == ["alpha", "alpha", "bravo", "charlie", "delta", "echo"]


def test_a_copys_counts_stay_inside_a_narrow_row_beside_its_folder_suffix(qtbot, make_pack) -> None:
    # Copies of one name show a folder suffix; the name held at its minimum beside a full suffix pushed the
    # warning count past the row's edge (the real packs at 1280 px: "acme...rief exa....0/ (x)1 /!\" and no 1).
    name = "acme-product-brief"
    packs = []
    for folder in ("examples-complete-pack-v0.7.2", "quickstart-v0.4.0"):
        root = make_pack(f"{folder}/{name}", GOOD.replace("name: alpha", f"name: {name}"))
        packs.append(load_pack(root))
    findings = (NAME_COLLISION("taken", pack=str(packs[0].root), severity=Severity.ERROR),
                NAME_COLLISION("odd", pack=str(packs[0].root), severity=Severity.WARNING))
    packs[0] = packs[0].with_verdict(Verdict(findings=findings))
    model = PackTreeModel()
    model.add_packs(packs)
    model.set_labels({Path(root): label for root, label in pack_labels(packs).items()})
    panel = WorkspacePanel(model)
    qtbot.addWidget(panel)
    panel.resize(200, 200)  # a dock narrowed by hand (at 1280x720 the real packs' rows were this tight)
    panel.show()
    panel.tree.expandAll()
    qtbot.waitExposed(panel)
    assert panel.model.index_for_pack(packs[0].root).data(Role.WHERE)  # the row carries a suffix
    image = _row_image(panel, packs[0].root)
    # The warning count's amber icon is painted inside the row, in its last 45 pixels (the name gives way).
    tail = [image.pixelColor(x, y) for x in range(image.width() - 45, image.width()) for y in range(image.height())]
    assert any(c.red() > 200 and 120 < c.green() < 220 and c.blue() < 90 for c in tail)
