"""The three-layer simulation shows a hostile pack's titles, paths and snippets as typed.

A heading or a file name is the author's text: each row's tooltip carried it raw, so ``<b>...<img src=...>``
rendered as rich text and a bidi override reversed the tooltip.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QTreeWidget
from shown_as_read import shown

from studio.core.pack import load_pack
from studio.ui.panels.layers_view import LayersView

MARKUP = "<b>Widget</b><img src=x.png>"


def _rows(tree: QTreeWidget) -> list[tuple[str, str]]:
    items = [tree.topLevelItem(row) for row in range(tree.topLevelItemCount())]
    return [(item.text(column), item.toolTip(column)) for item in items for column in range(item.columnCount())]


def test_markup_and_a_bidi_override_in_titles_and_paths_show_as_typed(qtbot, make_pack, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = make_pack("p", "---\nname: p\ndescription: Widget facts\ntype: domain-reference\nstatus: ready\n---\n"
                          "# P\n\nRead compiled/\u202ewidget.md\n",
                     {"compiled/\u202ewidget.md": f"# {MARKUP} weight\n\nThe widget weighs 2 kg.\n"})
    view = LayersView(tmp_path / "cache", in_child_process=False)
    qtbot.addWidget(view)
    with qtbot.waitSignal(view.result_shown, timeout=60_000):
        view.simulate("widget weight", [load_pack(root)], 4000)
    rows = [row for tree in (view.l0, view.l1, view.l2, view.picks) for row in _rows(tree)]
    assert any(MARKUP in text for text, _tip in rows), rows
    for text, tip in rows:
        assert "\u202e" not in text and "\u202e" not in tip, (text, tip)
        if MARKUP in text:
            assert MARKUP in shown(tip), tip
    view.wait()
