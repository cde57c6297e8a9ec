"""RunsPanel and EvidencePanel driven like a curator would: filter, open records, select claims."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from studio.core.pack import load_pack
from studio.ui.models.evidence import CLAIM_ROLE, ClaimTableModel, is_broken
from studio.ui.models.runs import RunsTableModel
from studio.ui.panels.evidence_panel import NEVER_RUNS
from studio.ui.panels.runs_panel import RunsPanel


def _panel(qtbot, root: Path) -> RunsPanel:
    panel = RunsPanel()
    qtbot.addWidget(panel)
    with qtbot.waitSignal(panel.loaded, timeout=10000):
        panel.set_pack(load_pack(root))
    return panel


def test_models_pass_the_model_tester(qtbot, qtmodeltester, examples_copy: Path) -> None:
    panel = _panel(qtbot, examples_copy / "northwind-espresso")
    assert isinstance(panel.model, RunsTableModel) and panel.model.rowCount() == 4
    qtmodeltester.check(panel.model)
    qtmodeltester.check(panel.proxy)
    assert isinstance(panel.evidence.claims, ClaimTableModel)
    qtmodeltester.check(panel.evidence.claims)


def test_timeline_filters_by_kind_and_status(qtbot, examples_copy: Path) -> None:
    panel = _panel(qtbot, examples_copy / "northwind-espresso")
    assert "4 run records" in panel.title.text()
    panel.set_kind_filter("compile-run")
    assert [r.kind.value for r in panel.visible_records()] == ["compile-run"]
    panel.set_kind_filter("")
    statuses = {r.status for r in panel.visible_records()}
    assert len(statuses) >= 2
    wanted = sorted(s for s in statuses if s)[0]
    panel.set_status_filter(wanted)
    assert panel.visible_records() and all(r.status == wanted for r in panel.visible_records())


def test_broken_json_record_shows_its_diagnostic(qtbot, examples_copy: Path) -> None:
    root = examples_copy / "northwind-espresso"
    (root / "runs" / "context-2026-10-20T08-00-00Z.json").write_text('{"run_id": "x",\n  "query": oops}\n')
    panel = _panel(qtbot, root)
    assert "1 with problems" in panel.title.text()
    assert panel.select_record("runs/context-2026-10-20T08-00-00Z.json")
    assert "oops" in panel.record_view.shown_text
    shown = panel.record_diagnostics.diagnostics
    assert [d.code for d in shown] == ["run-malformed-json"]
    assert shown[0].line == 2
    item = panel.record_diagnostics.topLevelItem(0)
    with qtbot.waitSignal(panel.open_file_requested) as opened:
        panel.record_diagnostics.itemClicked.emit(item, 0)
    assert opened.args == [root / "runs/context-2026-10-20T08-00-00Z.json", 2]


def test_statistics_count_selections_and_list_never_selected(qtbot, examples_copy: Path) -> None:
    panel = _panel(qtbot, examples_copy / "northwind-espresso")
    chart = panel.stats_view.selection_chart
    chart.resize(chart.sizeHint())
    assert not chart.grab().toImage().isNull()
    bars = {b.label: b.total for b in chart.bars}
    assert bars["compiled/briefing.md"] >= 2
    assert panel.stats_view.compile_chart.bars, "the compile run is charted"
    never = [panel.stats_view.never_selected.item(i).text() for i in range(panel.stats_view.never_selected.count())]
    assert "documents/product-brief.md" in never and "compiled/briefing.md" not in never


def test_selecting_a_claim_shows_its_exact_excerpt_beside_the_compiled_text(qtbot, examples_copy: Path) -> None:
    root = examples_copy / "northwind-espresso"
    panel = _panel(qtbot, root)
    evidence = panel.evidence
    assert evidence.statement.text() == NEVER_RUNS
    assert evidence.select_claim("nw-dual-boiler")
    line_9 = (root / "sources/engineering-spec-sheet.md").read_text(encoding="utf-8").splitlines()[8]
    source_text = evidence.source_view.toPlainText()
    assert "line 9]" in source_text and line_9 in source_text
    assert "compiled/facts.md" in evidence.compiled_view.toPlainText()


def test_broken_anchor_is_highlighted(qtbot, examples_copy: Path) -> None:
    root = examples_copy / "northwind-espresso"
    source_map = root / "indexes/source-map.json"
    source_map.write_text(source_map.read_text(encoding="utf-8").replace('"#L9"', '"#L9999"', 1), encoding="utf-8")
    panel = _panel(qtbot, root)
    model = panel.evidence.claims
    rows = [model.index(r, 0).data(CLAIM_ROLE) for r in range(model.rowCount())]
    broken = [e for e in rows if is_broken(e)]
    assert "nw-dual-boiler" in [e.claim.claim_id for e in broken]
    row = next(r for r, e in enumerate(rows) if e.claim.claim_id == "nw-dual-boiler")
    assert model.index(row, 0).data(Qt.ItemDataRole.BackgroundRole) is not None
    assert panel.evidence.select_claim("nw-dual-boiler")
    assert "out-of-range" in panel.evidence.source_view.toPlainText()


def test_pack_without_runs_is_empty_not_an_error(qtbot, make_pack) -> None:
    root = make_pack("bare", "---\nname: bare\ndescription: No runs here at all.\ntype: domain-reference\n"
                             "status: ready\n---\n# Bare\n")
    panel = _panel(qtbot, root)
    assert panel.model.rowCount() == 0
    assert "0 run records" in panel.title.text()
    assert "No indexes/source-map.json" in panel.evidence.map_state.text()
