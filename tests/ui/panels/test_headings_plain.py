"""A pack's name, description or folder shows as typed in the panels' headings and the window's tooltips: Qt reads a
label's or tooltip's text as HTML when it looks like HTML (``<b>``, ``<img src=...>``), so a heading or tooltip that
is not plain text renders a pack's markup; and a tooltip of a megabyte stalls the window."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QStatusBar
from shown_as_read import shown

from studio.core.pack import load_pack
from studio.ui.models.pack_tree import PackTreeModel
from studio.ui.panels.claims_view import ClaimsView
from studio.ui.panels.coverage_view import CoverageView
from studio.ui.panels.review_panel import ReviewPanel
from studio.ui.panels.runs_panel import RunsPanel
from studio.ui.status_line import StatusLine


def test_a_pack_named_with_markup_shows_its_name_as_typed_in_the_panel_headings(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    name = "<b>bold</b><img src=x.png>"
    root = tmp_path / "p"
    root.mkdir()
    (root / "KNOWLEDGE.md").write_text(f"---\nname: {json.dumps(name)}\ndescription: d\n---\n# P\n",
                                       encoding="utf-8")
    pack = load_pack(root)
    runs = RunsPanel()
    qtbot.addWidget(runs)
    with qtbot.waitSignal(runs.loaded, timeout=10000):
        runs.set_pack(pack)
    claims = ClaimsView()
    qtbot.addWidget(claims)
    with qtbot.waitSignal(claims.loaded, timeout=10000):
        claims.set_pack(pack)
    for label in (runs.title, claims.heading):
        assert name in shown(label.text(), label.textFormat()), label.text()


def test_the_workspace_tree_and_the_status_bar_tooltips_show_markup_as_typed_and_bounded(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    markup = "<b>bold</b><img src=x.png>"
    root = tmp_path / "p"
    root.mkdir()
    (root / "KNOWLEDGE.md").write_text(f"---\nname: p\ndescription: {json.dumps(markup + ' ' + 'word ' * 200_000)}\n"
                                       "type: domain-reference\nstatus: ready\n---\n# P\n", encoding="utf-8")
    model = PackTreeModel()
    model.add_packs([load_pack(root)])
    tip = model.index_for_pack(root).data(Qt.ItemDataRole.ToolTipRole)
    assert markup in shown(tip) and len(tip) < 5000  # a 1 MB tooltip takes most of a second to show
    bar = QStatusBar()
    qtbot.addWidget(bar)
    status = StatusLine(bar)
    status.set_workspace(f"{markup}, other")
    assert shown(status.workspace_label.toolTip()) == f"{markup}, other"


def test_a_megabyte_pack_name_with_a_bidi_override_reaches_a_heading_short_and_escaped(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = tmp_path / "p"
    root.mkdir()
    name = "\u202e" + "n" * 1_000_000
    (root / "KNOWLEDGE.md").write_text(f"---\nname: {name}\ndescription: d\n---\n# P\n", encoding="utf-8")
    runs = RunsPanel()
    qtbot.addWidget(runs)
    with qtbot.waitSignal(runs.loaded, timeout=10000):
        runs.set_pack(load_pack(root))
    shown = runs.title.text()
    # Whole, the name took 0.55 s to lay out and 0.37 s at each resize of the panel.
    assert len(shown) < 1000 and "\u202e" not in shown and shown.startswith("\\u202ennn")


def test_the_review_heading_shows_a_megabyte_trust_value_cut_and_escaped(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = tmp_path / "p"
    root.mkdir()
    trust = "\u202e" + "t" * 1_000_000
    (root / "KNOWLEDGE.md").write_text(f"---\nname: p\ndescription: d\ntype: domain-reference\nstatus: disputed\n"
                                       f"trust: {trust}\n---\n# P\n", encoding="utf-8")
    panel = ReviewPanel([load_pack(root)])
    qtbot.addWidget(panel)
    qtbot.waitUntil(lambda: panel.queued_names() == ["p"], timeout=10000)
    with qtbot.waitSignal(panel.reasons_loaded, timeout=10000):
        assert panel.select_pack("p")
    heading = panel.heading.text()
    assert len(heading) < 1000 and "\u202e" not in heading and "\\u202ettt" in heading
    for row in range(panel.reason_list.count()):
        item = panel.reason_list.item(row)
        assert len(item.text()) < 1000 and len(item.toolTip()) < 5000


def test_the_coverage_summary_names_a_megabyte_pack_name_short_and_escaped(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = tmp_path / "p"
    root.mkdir()
    name = "\u202e" + "n" * 1_000_000
    (root / "KNOWLEDGE.md").write_text(f"---\nname: {name}\ndescription: d\ntype: domain-reference\nstatus: ready\n"
                                       "---\n# P\n", encoding="utf-8")
    view = CoverageView()
    qtbot.addWidget(view)
    view.show()
    view.set_pack(load_pack(root))
    pending = shown(view.summary.text(), view.summary.textFormat())
    with qtbot.waitSignal(view.measured, timeout=30000):
        pass
    for text in (pending, shown(view.summary.text(), view.summary.textFormat())):
        assert len(text) < 2000 and "\u202e" not in text and "\\u202ennn" in text, text[:300]
