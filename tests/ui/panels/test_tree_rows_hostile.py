"""The trees of the three-layer simulation, the feedback history and the findings show a hostile pack's titles, paths,
snippets, queries and quoted values as typed.

A heading, a file name or a recorded query is the author's text: each row's tooltip carried it raw, so
``<b>...<img src=...>`` rendered as rich text and a bidi override reversed the tooltip.
"""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtWidgets import QTreeWidget
from shown_as_read import shown

from studio.core.feedback import record_feedback
from studio.core.pack import load_pack
from studio.ui.panels.layers_view import LayersView
from studio.ui.panels.record_view import DiagnosticsList
from studio.ui.panels.runs_panel import RunsPanel

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


def test_a_feedback_query_with_markup_and_a_bidi_override_shows_as_typed(qtbot, examples_copy: Path) -> None:  # type: ignore[no-untyped-def]
    root = examples_copy / "northwind-espresso"
    query = f"{MARKUP} \u202eweight " + "q" * 9_000
    record_feedback(root, "compiled/facts.md", "helpful", query)
    panel = RunsPanel()
    qtbot.addWidget(panel)
    with qtbot.waitSignal(panel.loaded, timeout=10000):
        panel.set_pack(load_pack(root))
    rows = _rows(panel.feedback_view.history)
    assert rows
    for text, tip in rows:
        assert "\u202e" not in text and "\u202e" not in tip and len(text) < 1000 and len(tip) < 5000, (text, tip)
    assert any(MARKUP in shown(tip) for _text, tip in rows)


def test_a_finding_that_quotes_markup_shows_it_as_typed_in_its_tooltip(qtbot, make_pack) -> None:  # type: ignore[no-untyped-def]
    root = make_pack("p", f"---\nname: p\ndescription: d\ntype: domain-reference\nstatus: {json.dumps(MARKUP)}\n"
                          "---\n# P\n")
    findings = [d for d in load_pack(root).findings if MARKUP in d.message]
    assert findings  # the invalid status is quoted in its finding
    view = DiagnosticsList()
    qtbot.addWidget(view)
    view.set_diagnostics(findings)
    tips = [view.topLevelItem(row).toolTip(3) for row in range(view.topLevelItemCount())]
    assert tips and all(MARKUP in shown(tip) for tip in tips), tips
