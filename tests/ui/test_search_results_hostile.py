"""Find in Workspace shows what a search found in a hostile pack as inert, bounded text.

The results tree shows a pack's name, a file's path and a section heading from the pack: a bidi override in a
file name must not reverse the row, markup in it must not turn the pack row's tooltip into rich text, and a pack
name of a megabyte must not reach the view whole.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QModelIndex, Qt
from shown_as_read import shown

from studio.core.search import SearchIndex
from studio.ui.models.search_results import SearchResultsModel

MARKUP = "<b>bold</b><img src=x.png>"


def test_hostile_names_paths_and_headings_show_escaped_and_short(qapp, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = tmp_path / MARKUP.replace("/", "")
    (root / "compiled").mkdir(parents=True)
    name = "n" * 1_000_000
    (root / "KNOWLEDGE.md").write_text(f"---\nname: {name}\ndescription: d\ntype: domain-reference\n"
                                       "status: ready\n---\n# P\n", encoding="utf-8")
    (root / "compiled" / "evil\u202egpj.md").write_text("# Head \u202eing\n\nThe widget weighs 2 kg.\n",
                                                        encoding="utf-8")
    index = SearchIndex.open(tmp_path / "cache")
    try:
        index.refresh([str(root)])
        hits = index.search("widget", roots=[str(root)]).hits
    finally:
        index.close()
    assert hits
    model = SearchResultsModel()
    model.set_hits(hits)
    pack_row = model.index(0, 0)
    assert len(pack_row.data()) < 1000
    assert str(root) in shown(pack_row.data(Qt.ItemDataRole.ToolTipRole))
    cells = [model.index(0, column, pack_row).data() for column in range(4)]
    tip = shown(model.index(0, 0, pack_row).data(Qt.ItemDataRole.ToolTipRole))
    for text in (*cells, tip):
        assert "\u202e" not in text, text
    assert cells[0].startswith("compiled/evil\\u202egpj.md:") and str(root) in tip
    assert model.index(0, 0, QModelIndex()).isValid()
