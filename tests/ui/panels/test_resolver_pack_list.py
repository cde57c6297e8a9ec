"""The simulator's pack list: tick packs, pick their activation, confirm disputed ones, at any workspace size."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from panels_support import set_status
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QComboBox, QStyle, QStyleOptionViewItem

from studio.core.model import Pack
from studio.core.pack import load_pack
from studio.ui import workers
from studio.ui.models.pack_activation import COL_ACTIVATION, COL_CONFIRM, COL_PACK, PackActivationModel
from studio.ui.panels.resolver_inputs import ResolverInputs
from studio.ui.panels.resolver_panel import ResolverPanel


def _inputs(qtbot) -> ResolverInputs:  # type: ignore[no-untyped-def]
    inputs = ResolverInputs()
    qtbot.addWidget(inputs)
    inputs.resize(900, 400)
    inputs.show()
    qtbot.waitExposed(inputs)
    return inputs


def _choosers(inputs: ResolverInputs) -> list[QComboBox]:
    return [c for c in inputs.pack_list.viewport().findChildren(QComboBox) if c.isVisible()]


def _renamed(pack: Pack, name: str) -> Pack:
    """The same pack under another name (a large workspace without writing 10,000 folders)."""
    assert pack.knowledge is not None and pack.knowledge.frontmatter is not None
    old = pack.knowledge.frontmatter
    frontmatter = dataclasses.replace(old, data={**old.data, "name": name})
    return dataclasses.replace(pack, knowledge=dataclasses.replace(pack.knowledge, frontmatter=frontmatter))


def _click_check_box(qtbot, inputs: ResolverInputs, row: int, column: int) -> None:  # type: ignore[no-untyped-def]
    """A mouse click on the check box drawn in a cell, where the user would click it."""
    view = inputs.pack_list
    index = inputs.pack_model.index(row, column)
    option = QStyleOptionViewItem()
    option.initFrom(view)
    option.rect = view.visualRect(index)
    option.features |= QStyleOptionViewItem.ViewItemFeature.HasCheckIndicator
    box = view.style().subElementRect(QStyle.SubElement.SE_ItemViewItemCheckIndicator, option, view)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=box.center())


def test_the_model_passes_the_model_tester(qtmodeltester, examples_copy: Path) -> None:  # type: ignore[no-untyped-def]
    model = PackActivationModel()
    disputed = set_status(examples_copy / "orbit-launch-notes", "disputed")
    model.set_packs([load_pack(examples_copy / "northwind-espresso"), disputed], {"northwind-espresso"})
    qtmodeltester.check(model)


def test_clicking_a_pack_activates_it_with_a_chooser_and_clicking_again_drops_both(qtbot, examples_copy: Path) -> None:  # type: ignore[no-untyped-def]
    inputs = _inputs(qtbot)
    packs = [load_pack(examples_copy / name) for name in ("northwind-espresso", "orbit-launch-notes")]
    inputs.set_packs(packs)
    assert [p.name for p in inputs.request().packs] == ["northwind-espresso"], "the first ready pack starts ticked"
    assert len(_choosers(inputs)) == 1

    with qtbot.waitSignal(inputs.changed):
        _click_check_box(qtbot, inputs, 1, COL_PACK)
    request = inputs.request()
    assert [p.name for p in request.packs] == ["northwind-espresso", "orbit-launch-notes"]
    assert request.activation == {"northwind-espresso": "explicit", "orbit-launch-notes": "explicit"}
    assert len(_choosers(inputs)) == 2

    chooser = inputs.pack_list.indexWidget(inputs.pack_model.index(1, COL_ACTIVATION))
    assert isinstance(chooser, QComboBox)
    with qtbot.waitSignal(inputs.changed):
        chooser.setCurrentText("resolver-driven")
    assert inputs.request().activation["orbit-launch-notes"] == "resolver-driven"

    _click_check_box(qtbot, inputs, 0, COL_PACK)
    qtbot.waitUntil(lambda: len(_choosers(inputs)) == 1)
    assert [p.name for p in inputs.request().packs] == ["orbit-launch-notes"]


def test_a_disputed_pack_is_confirmed_only_by_its_own_tick(qtbot, examples_copy: Path) -> None:  # type: ignore[no-untyped-def]
    inputs = _inputs(qtbot)
    disputed = set_status(examples_copy / "orbit-launch-notes", "disputed")
    ready = load_pack(examples_copy / "northwind-espresso")
    inputs.set_packs([ready, disputed], checked={"orbit-launch-notes"})
    model = inputs.pack_model
    assert model.index(1, COL_CONFIRM).data() == "I confirm using it"
    assert model.index(0, COL_CONFIRM).data() is None, "a ready pack has nothing to confirm"
    assert not model.flags(model.index(0, COL_CONFIRM)) & Qt.ItemFlag.ItemIsUserCheckable
    assert inputs.request().confirmed == set()
    _click_check_box(qtbot, inputs, 1, COL_CONFIRM)
    assert inputs.request().confirmed == {"orbit-launch-notes"}


def test_ten_thousand_packs_are_listed_without_a_widget_or_item_each(qtbot, examples_copy: Path) -> None:  # type: ignore[no-untyped-def]
    inputs = _inputs(qtbot)
    base = load_pack(examples_copy / "northwind-espresso")
    packs = [_renamed(base, f"pack-{i:05d}") for i in range(10_000)]
    inputs.set_packs(packs, checked={"pack-00007", "pack-09999"})
    assert inputs.pack_model.rowCount() == 10_000
    assert len(inputs.pack_list.findChildren(QComboBox)) == 2, "a chooser for each activated pack only"
    assert [p.name for p in inputs.request().packs] == ["pack-00007", "pack-09999"]
    inputs.pack_list.scrollToBottom()
    last = inputs.pack_list.visualRect(inputs.pack_model.index(9_999, COL_PACK))
    assert inputs.pack_list.indexAt(QPoint(last.x() + 2, last.center().y())).row() == 9_999
    # Listing the same packs again keeps what the user picked for those still there.
    inputs.set_activation("pack-09999", "implicit")
    inputs.set_packs(packs[5000:], checked={"pack-09999"})
    assert inputs.request().activation == {"pack-09999": "implicit"}


def test_a_large_workspace_is_offered_from_a_worker_and_only_the_latest_follow_counts(
        qtbot, monkeypatch, examples_copy: Path) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(workers, "IN_PLACE_LIMIT", 1)  # two packs count as a large workspace here
    panel = ResolverPanel()
    qtbot.addWidget(panel)
    espresso, orbit, lin = (load_pack(examples_copy / n) for n in ("northwind-espresso", "orbit-launch-notes",
                                                                   "lin-yue-persona"))
    panel.follow([espresso, orbit], orbit)
    panel.follow([espresso, lin], lin)  # overtakes the first before its answer is shown
    qtbot.waitUntil(lambda: [p.name for p in panel.inputs.packs] == ["northwind-espresso", "lin-yue-persona"],
                    timeout=10000)
    qtbot.wait(200)
    assert [p.name for p in panel.inputs.packs] == ["northwind-espresso", "lin-yue-persona"]
    assert [p.name for p in panel.inputs.request().packs] == ["lin-yue-persona"], "the pack in view is activated"
    panel.shutdown()
