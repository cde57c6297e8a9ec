"""Find in Workspace, the search service and the Layers view, offscreen with real files and a real index."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from studio.core.model import Pack
from studio.core.resolver import ResolveRequest, resolve
from studio.core.search import RefreshReport, SearchHit
from studio.core.workspace import WorkspaceOptions, open_workspace
from studio.ui.models.search_results import HIT_ROLE, SearchResultsModel
from studio.ui.panels.layers_view import LayersView
from studio.ui.search_service import SearchService
from studio.ui.widgets.find_in_workspace import FindInWorkspacePanel, runs

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


@pytest.fixture(scope="module")
def packs() -> list[Pack]:
    return open_workspace(WorkspaceOptions(explicit=[EXAMPLES], builtin=False)).packs


@pytest.fixture
def service(qtbot, tmp_path: Path, packs: list[Pack]) -> Iterator[SearchService]:  # type: ignore[no-untyped-def]
    svc = SearchService(tmp_path / "cache", in_child_process=False)
    with qtbot.waitSignal(svc.index_ready, timeout=30_000):
        svc.refresh([p.root for p in packs])
    yield svc
    svc.close()


@pytest.fixture
def panel(qtbot, service: SearchService, packs: list[Pack]) -> FindInWorkspacePanel:  # type: ignore[no-untyped-def]
    widget = FindInWorkspacePanel(service)
    qtbot.addWidget(widget)
    widget.set_packs(packs)
    widget.resize(900, 500)
    widget.show()
    return widget


def _search(qtbot, panel: FindInWorkspacePanel, text: str) -> None:  # type: ignore[no-untyped-def]
    panel.query.setText(text)
    with qtbot.waitSignal(panel.service.results, timeout=10_000):
        panel.search_now()
    qtbot.waitUntil(lambda: panel.result is not None and panel.result.query == text, timeout=5_000)


def test_results_model_passes_the_model_tester(qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    model = SearchResultsModel()
    hits = [SearchHit("a", "/r/a", "wiki/x.md", 3, "Head", "wiki", 2.5, "the snippet", ((4, 11),)),
            SearchHit("b", "/r/b", "wiki/y.md", 1, None, "wiki", 1.5, "other"),
            SearchHit("a", "/r/a", "wiki/z.md", 9, "Z", "compiled", 1.0, "zed")]
    model.set_hits(hits)
    qtmodeltester.check(model)
    assert (model.pack_count(), model.hit_count()) == (2, 3)
    first_pack = model.index(0, 0)
    assert model.data(first_pack) == "a  (2)"
    assert model.data(model.index(1, 0, first_pack)) == "wiki/z.md:9"


def test_snippet_runs_follow_the_highlights() -> None:
    assert runs("the refund window", ((4, 10), (11, 17))) == [("the ", False), ("refund", True), (" ", False),
                                                              ("window", True)]
    assert runs("abc", ((1, 99),)) == [("a", False), ("bc", True)]


def test_search_groups_results_by_pack_and_opens_the_line(qtbot, panel: FindInWorkspacePanel) -> None:  # type: ignore[no-untyped-def]
    _search(qtbot, panel, "refund window")
    model = panel.model
    assert model.pack_count() == 1 and model.hit_count() >= 5
    assert "results in 1 pack" in panel.status.text()
    group = model.index(0, 0)
    first = model.index(0, 0, group)
    hit = model.data(first, HIT_ROLE)
    assert isinstance(hit, SearchHit)
    rect = panel.tree.visualRect(first)
    with qtbot.waitSignal(panel.open_location, timeout=2_000) as opened:
        qtbot.mouseClick(panel.tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert opened.args == [Path(hit.root) / hit.path, hit.line]


def test_chinese_search_and_the_pack_filter(qtbot, panel: FindInWorkspacePanel) -> None:  # type: ignore[no-untyped-def]
    _search(qtbot, panel, "语气")
    assert panel.model.hit_count() >= 3
    panel.pack_filter.setCurrentIndex(panel.pack_filter.findText("northwind-espresso"))
    qtbot.waitUntil(lambda: panel.result is not None and panel.result.hits == [], timeout=5_000)
    assert panel.status.text() == "No results."


def test_only_the_latest_query_is_shown(qtbot, panel: FindInWorkspacePanel) -> None:  # type: ignore[no-untyped-def]
    panel.query.setText("refund")
    panel.search_now()
    panel.query.setText("DSCR")
    last = panel.search_now()
    qtbot.waitUntil(lambda: panel.result is not None and panel.result.query == "DSCR", timeout=10_000)
    panel.service.reader.waitForDone(5_000)
    qtbot.wait(50)
    assert panel.latest == last
    assert {h.pack for h in panel.result.hits} == {"atlas-lending-policy"}


def test_an_unsearchable_query_says_so(qtbot, panel: FindInWorkspacePanel) -> None:  # type: ignore[no-untyped-def]
    _search(qtbot, panel, '"((')
    assert panel.model.hit_count() == 0
    assert "letters or digits" in panel.status.text()


def test_service_builds_in_a_child_process_and_follows_a_change(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pack = tmp_path / "packs" / "solo"
    (pack / "wiki").mkdir(parents=True)
    (pack / "KNOWLEDGE.md").write_text("---\nname: solo\ndescription: x\ntype: domain-reference\nstatus: ready\n"
                                       "---\n# Solo\n", encoding="utf-8")
    page = pack / "wiki" / "page.md"
    page.write_text("# Page\n\nbefore\n", encoding="utf-8")
    svc = SearchService(tmp_path / "cache", in_child_process=True)
    progress: list[tuple[int, int]] = []
    svc.indexing.connect(lambda done, total: progress.append((done, total)))
    try:
        with qtbot.waitSignal(svc.index_ready, timeout=60_000) as ready:
            svc.refresh([pack])
        assert isinstance(ready.args[0], RefreshReport) and ready.args[0].indexed == 2
        assert progress and progress[-1] == (2, 2)
        page.write_text("# Page\n\nafterwards something new\n", encoding="utf-8")
        with qtbot.waitSignal(svc.index_ready, timeout=10_000):
            svc.update_paths([page])
        with qtbot.waitSignal(svc.results, timeout=10_000) as answer:
            svc.search("afterwards")
        assert [h.path for h in answer.args[1].hits] == ["wiki/page.md"]
    finally:
        svc.close()


def test_layers_view_shows_the_path_beside_the_resolver(qtbot, tmp_path: Path, packs: list[Pack]) -> None:  # type: ignore[no-untyped-def]
    view = LayersView(tmp_path / "cache", in_child_process=False)
    qtbot.addWidget(view)
    view.resize(1100, 700)
    task = "How long is the refund window for annual plans?"
    resolved = resolve(ResolveRequest(task=task, packs=[p for p in packs if p.loads], budget=6000))
    with qtbot.waitSignal(view.result_shown, timeout=60_000):
        view.simulate_for(resolved)
    result = view.result
    assert result is not None and result.decision == "search"
    assert view.decision.text().strip() == "Search (L1), then L2"
    assert view.l1.topLevelItemCount() == len(result.l1.hits) > 0  # type: ignore[union-attr]
    assert view.picks.topLevelItemCount() == sum(len(p.selected) for p in resolved.packs)
    assert view.layers_bar.used == result.total_tokens and view.resolver_bar.used == resolved.tokens_used
    item = view.l1.topLevelItem(0)
    with qtbot.waitSignal(view.open_location, timeout=2_000) as opened:
        view.l1.itemDoubleClicked.emit(item, 0)
    first = result.l1.hits[0]  # type: ignore[union-attr]
    assert opened.args == [Path(first.root) / first.path, first.line]
    with qtbot.waitSignal(view.result_shown, timeout=60_000):
        view.simulate("quantum teleportation", packs, 4000)
    assert view.decision.text().strip() == "Knowledge gap"
    assert "quantum, teleportation" in view.gaps.text()
    view.wait()


def test_the_chosen_pack_stays_chosen_when_the_workspace_is_set_again(panel: FindInWorkspacePanel,  # type: ignore[no-untyped-def]
                                                                      packs: list[Pack]) -> None:
    chosen = sorted(packs, key=lambda p: (p.name, str(p.root)))[2]
    panel.pack_filter.setCurrentIndex(panel.pack_filter.findText(chosen.name))
    assert panel.roots() == [str(chosen.root)]
    panel.set_packs(list(reversed(packs)))  # a rescan hands the packs over again, in another order
    assert panel.pack_filter.currentText() == chosen.name
    assert panel.roots() == [str(chosen.root)]
    assert panel.pack_filter.count() == len(packs) + 1
    panel.set_packs([p for p in packs if p.root != chosen.root])  # the pack left the workspace
    assert panel.pack_filter.currentIndex() == 0 and panel.pack_filter.currentText() == "All packs"


def test_a_large_workspace_gets_its_pack_choices_from_a_worker_and_keeps_the_chosen_one(
        qtbot, monkeypatch, panel: FindInWorkspacePanel, packs: list[Pack]) -> None:  # type: ignore[no-untyped-def]
    from studio.ui import workers

    chosen = packs[1]
    panel.pack_filter.setCurrentIndex(panel.pack_filter.findText(chosen.name))
    monkeypatch.setattr(workers, "IN_PLACE_LIMIT", 1)  # these few packs count as a large workspace
    with qtbot.waitSignal(panel.pack_choices.rows_set, timeout=5000):
        panel.set_packs(list(reversed(packs)))
    assert panel.pack_filter.count() == len(packs) + 1
    assert panel.pack_filter.currentText() == chosen.name and panel.roots() == [str(chosen.root)]
    with qtbot.waitSignal(panel.pack_choices.rows_set, timeout=5000):
        panel.set_packs(packs[:1] + packs[2:])  # the chosen pack left the workspace
    assert panel.pack_filter.currentText() == "All packs"


def test_pack_choices_model_passes_the_model_tester(qtmodeltester, packs: list[Pack]) -> None:  # type: ignore[no-untyped-def]
    from studio.ui.models.pack_choices import PackChoicesModel

    model = PackChoicesModel()
    model.set_packs(packs)
    qtmodeltester.check(model)
    assert model.rowCount() == len(packs) + 1
