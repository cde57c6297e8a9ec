"""The Problems table sorts in its own model: what a user sees must hold across incremental pack updates."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QItemSelectionModel, Qt

from studio.core.diagnostics import Diagnostic, DiagnosticCounts, Severity
from studio.ui.models import diagnostics_table
from studio.ui.models.diagnostics_table import (
    COLUMNS,
    DIAGNOSTIC_ROLE,
    DiagnosticsFilterProxy,
    DiagnosticsTableModel,
)

SEVERITY, CODE, PACK, PATH, LINE = (COLUMNS.index(c) for c in ("Severity", "Code", "Pack", "Path", "Line"))
ASC, DESC = Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder


def finding(code: str, severity: Severity = Severity.WARNING, file: str = "KNOWLEDGE.md", line: int = 1,
            pack: str = "/w/a") -> Diagnostic:
    return Diagnostic(code, severity, f"message of {code}", file=file, line=line, pack=pack)


def shown(proxy: DiagnosticsFilterProxy, column: int = CODE) -> list[object]:
    """One column of the rows in the order the table shows them."""
    return [proxy.index(r, column).data() for r in range(proxy.rowCount())]


def table(qtmodeltester) -> tuple[DiagnosticsTableModel, DiagnosticsFilterProxy]:  # type: ignore[no-untyped-def]
    model = DiagnosticsTableModel()
    qtmodeltester.check(model, force_py=True)  # stays attached: every later change is checked too
    proxy = DiagnosticsFilterProxy()
    proxy.setSourceModel(model)
    return model, proxy


def test_sorting_by_line_holds_after_packs_arrive_and_reload(qtmodeltester) -> None:
    model, proxy = table(qtmodeltester)
    proxy.sort(LINE, ASC)
    model.set_packs([("/w/a", "a", [finding("a9", line=9, pack="/w/a"), finding("a2", line=2, pack="/w/a")]),
                     ("/w/b", "b", [finding("b5", line=5, pack="/w/b")])])
    assert shown(proxy) == ["a2", "b5", "a9"]
    model.set_packs([("/w/c", "c", [finding("c1", line=1, pack="/w/c"), finding("c7", line=7, pack="/w/c")])])
    assert shown(proxy) == ["c1", "a2", "b5", "c7", "a9"]
    model.set_pack("/w/a", "a", [finding("a6", line=6, pack="/w/a")])  # a reload replaces a's rows
    assert shown(proxy) == ["c1", "b5", "a6", "c7"]
    assert shown(proxy, LINE) == [1, 5, 6, 7]
    proxy.sort(LINE, DESC)
    assert shown(proxy, LINE) == [7, 6, 5, 1]


def test_sorting_by_severity_puts_a_new_error_first_and_ties_keep_arrival_order(qtmodeltester) -> None:
    model, proxy = table(qtmodeltester)
    proxy.sort(SEVERITY, ASC)
    model.set_pack("/w/a", "a", [finding("a-info", Severity.INFO, pack="/w/a"), finding("a-warn", pack="/w/a")])
    model.set_pack("/w/b", "b", [finding("b-warn", pack="/w/b")])
    assert shown(proxy) == ["a-warn", "b-warn", "a-info"]
    model.set_pack("/w/b", "b", [finding("b-warn", pack="/w/b"), finding("b-err", Severity.ERROR, pack="/w/b")])
    assert shown(proxy) == ["b-err", "a-warn", "b-warn", "a-info"]
    proxy.sort(SEVERITY, DESC)
    # Descending reverses the severities, not the order of equal ones (as Qt's stable sort does).
    assert shown(proxy) == ["a-info", "a-warn", "b-warn", "b-err"]


def test_sorting_by_file_and_pack_with_the_filter_on(qtmodeltester) -> None:
    model, proxy = table(qtmodeltester)
    model.set_packs([("/w/b", "beta", [finding("x1", file="wiki/z.md", pack="/w/b"),
                                       finding("x2", Severity.ERROR, file="compiled/a.md", pack="/w/b")]),
                     ("/w/a", "alpha", [finding("x3", file="KNOWLEDGE.md", pack="/w/a")])])
    assert shown(proxy) == ["x1", "x2", "x3"]  # unsorted: the order the packs arrived
    proxy.sort(PATH, ASC)
    assert shown(proxy, PATH) == ["a/KNOWLEDGE.md", "b/compiled/a.md", "b/wiki/z.md"]
    proxy.sort(PACK, ASC)
    assert shown(proxy, PACK) == ["alpha", "beta", "beta"]
    proxy.set_severity(Severity.ERROR, False)
    assert shown(proxy) == ["x3", "x1"]
    model.set_pack("/w/c", "gamma", [finding("x4", Severity.ERROR, pack="/w/c"), finding("x5", pack="/w/c")])
    assert shown(proxy) == ["x3", "x1", "x5"]  # the new error stays hidden, sorting still by pack
    proxy.set_needle("X5")
    assert shown(proxy) == ["x5"]


def test_the_selected_problem_stays_selected_when_rows_move(qtmodeltester) -> None:
    model, proxy = table(qtmodeltester)
    proxy.sort(LINE, ASC)
    model.set_pack("/w/a", "a", [finding("a3", line=3, pack="/w/a"), finding("a8", line=8, pack="/w/a")])
    selection = QItemSelectionModel(proxy)
    whole_row = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
    selection.setCurrentIndex(proxy.index(1, 0), whole_row)  # as the Problems table selects
    assert selection.currentIndex().data(DIAGNOSTIC_ROLE).code == "a8"

    model.set_pack("/w/b", "b", [finding("b1", line=1, pack="/w/b")])  # arrives above the selection
    assert selection.currentIndex().row() == 2
    proxy.sort(LINE, DESC)
    assert selection.currentIndex().row() == 0
    # A reload of the selected row's pack that keeps the finding keeps it selected...
    model.set_pack("/w/a", "a", [finding("a8", line=8, pack="/w/a"), finding("a5", line=5, pack="/w/a")])
    assert selection.currentIndex().data(DIAGNOSTIC_ROLE).code == "a8"
    assert [i.data(DIAGNOSTIC_ROLE).code for i in selection.selectedRows()] == ["a8"]
    # ...and one that fixes it leaves nothing selected rather than some other problem.
    model.set_pack("/w/a", "a", [finding("a5", line=5, pack="/w/a")])
    assert not selection.currentIndex().isValid()
    assert shown(proxy) == ["a5", "b1"]


def test_counts_follow_reloads_without_recounting(qtmodeltester) -> None:
    model, _proxy = table(qtmodeltester)
    model.set_packs([("/w/a", "a", [finding("dup", Severity.ERROR, pack="/w/a"), finding("w", pack="/w/a")]),
                     ("/w/b", "b", [finding("dup", Severity.ERROR, pack="/w/b")]),
                     ("", "(workspace)", [finding("ws", Severity.INFO, pack="")])])
    model.set_pack("/w/a", "a", [finding("w", pack="/w/a")])
    model.set_pack("/w/b", "b", [finding("dup", Severity.ERROR, pack="/w/b")])  # unchanged: nothing happens
    every = [model.index(r, 0).data(DIAGNOSTIC_ROLE) for r in range(model.rowCount())]
    expected = DiagnosticCounts.of(every)
    counts = model.counts()
    assert (counts.errors, counts.warnings, counts.infos) == (1, 1, 1)
    assert (counts.errors, counts.warnings, counts.infos, counts.by_code) == (
        expected.errors, expected.warnings, expected.infos, expected.by_code)
    model.set_pack("/w/b", "b", [])
    assert "dup" not in model.counts().by_code
    model.clear()
    assert model.rowCount() == 0 and model.counts().errors == 0


def test_filtering_keeps_the_selected_problem_and_the_totals(qtmodeltester) -> None:
    model, proxy = table(qtmodeltester)
    model.set_pack("/w/a", "a", [finding("a1", Severity.ERROR, pack="/w/a"), finding("a2", pack="/w/a"),
                                 finding("a3", Severity.INFO, pack="/w/a")])
    selection = QItemSelectionModel(proxy)
    selection.setCurrentIndex(proxy.index(1, 0), QItemSelectionModel.SelectionFlag.ClearAndSelect)
    proxy.set_severity(Severity.ERROR, False)
    assert shown(proxy) == ["a2", "a3"]
    assert selection.currentIndex().data(DIAGNOSTIC_ROLE).code == "a2"  # it moved up a row with its finding
    proxy.set_needle("A3")
    assert shown(proxy) == ["a3"] and not selection.currentIndex().isValid()  # hidden, so not selected
    assert (model.counts().errors, model.counts().warnings, model.counts().infos) == (1, 1, 1)
    proxy.set_needle("")
    proxy.set_severity(Severity.ERROR, True)
    assert shown(proxy) == ["a1", "a2", "a3"]


def test_same_name_packs_get_distinct_pack_and_path_cells(qtmodeltester) -> None:
    model, proxy = table(qtmodeltester)
    model.set_packs([("/w/v0.4.0/brief", "brief", [finding("x", pack="/w/v0.4.0/brief")], "explicit"),
                     ("/w/other", "other", [finding("y", pack="/w/other")], "explicit")])
    assert shown(proxy, PACK) == ["brief", "other"]  # alone, a name is its own label
    assert shown(proxy, PATH) == ["brief/KNOWLEDGE.md", "other/KNOWLEDGE.md"]
    # A namesake arrives: both copies of "brief" are relabelled, "other" is not touched.
    model.set_packs([("/w/v0.7.2/brief", "brief", [finding("z", pack="/w/v0.7.2/brief")], "explicit")])
    assert shown(proxy, PACK) == ["brief — explicit, v0.4.0/", "other", "brief — explicit, v0.7.2/"]
    assert shown(proxy, PATH) == ["v0.4.0/brief/KNOWLEDGE.md", "other/KNOWLEDGE.md", "v0.7.2/brief/KNOWLEDGE.md"]
    assert proxy.index(0, PATH).data(Qt.ItemDataRole.ToolTipRole) == "/w/v0.4.0/brief/KNOWLEDGE.md"
    proxy.set_needle("v0.4.0")  # the filter searches the labels and paths too
    assert shown(proxy) == ["x"]
    proxy.set_needle("")
    # Renaming one copy frees the other's label again.
    model.set_pack("/w/v0.7.2/brief", "brief-next", [finding("z", pack="/w/v0.7.2/brief")], "explicit")
    assert shown(proxy, PACK) == ["brief", "other", "brief-next"]


def test_filtered_counts_are_shown_and_total(qtmodeltester) -> None:
    model, proxy = table(qtmodeltester)
    model.set_pack("/w/a", "a", [finding("e", Severity.ERROR), finding("w1"), finding("w2")])
    assert (model.rowCount(), model.total(), model.filtered) == (3, 3, False)
    proxy.set_severity(Severity.WARNING, False)
    assert (model.rowCount(), model.total(), model.filtered) == (1, 3, True)
    assert model.filter_words() == "warnings hidden"


# -- incremental updates against a table built from scratch -------------------------------------------------------

_packs = st.sampled_from(["/w/a", "/w/b", "/w/c", "/w/d", "/x/a"])
_findings = st.lists(st.tuples(st.sampled_from(["c1", "c2", "c3"]), st.sampled_from(list(Severity)),
                               st.integers(1, 4), st.sampled_from(["KNOWLEDGE.md", "wiki/x.md"])), max_size=4)
_updates = st.lists(st.lists(st.tuples(_packs, _findings), min_size=1, max_size=4), min_size=1, max_size=8)


def _items(batch: list[tuple[str, list[tuple[str, Severity, int, str]]]]) -> list[tuple[str, str, list[Diagnostic]]]:
    return [(root, root.rsplit("/", 1)[-1], [finding(code, sev, file, line, root) for code, sev, line, file in found])
            for root, found in batch]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(updates=_updates, column=st.integers(-1, len(COLUMNS) - 1), descending=st.booleans(),
       hide_info=st.booleans(), needle=st.sampled_from(["", "c1", "wiki", "zzz"]),
       merge_by_sort=st.sampled_from([0, 8, 10**9]))
def test_rows_after_any_series_of_updates_are_the_rows_of_one_fresh_update(
        qapp, updates, column, descending, hide_info, needle, merge_by_sort) -> None:  # type: ignore[no-untyped-def]
    """A few fresh rows are put in place by binary search, a large batch by a sort: either way the table must show
    what a model given the final findings in one go shows (same rows, same order, same totals). ``merge_by_sort``
    0 places every batch by binary search, 10**9 sorts every one, 8 is the app's mix."""
    was = diagnostics_table.MERGE_BY_SORT
    diagnostics_table.MERGE_BY_SORT = merge_by_sort
    try:
        _check_incremental_against_fresh(updates, column, descending, hide_info, needle)
    finally:
        diagnostics_table.MERGE_BY_SORT = was


def _check_incremental_against_fresh(updates, column, descending, hide_info, needle) -> None:  # type: ignore[no-untyped-def]
    order = DESC if descending else ASC
    severities = {Severity.ERROR, Severity.WARNING} if hide_info else set(Severity)
    incremental = DiagnosticsTableModel()
    incremental.sort(column, order)
    incremental.set_filter(severities=severities, needle=needle)
    final: dict[str, tuple[str, str, list[Diagnostic]]] = {}
    for batch in updates:
        items = _items(batch)
        incremental.set_packs(items)
        final.update((item[0], item) for item in items)
    # The reference gets the packs in first-arrival order, so ties break the same way.
    arrival_order = list(dict.fromkeys(root for batch in updates for root, _ in batch))
    reference = DiagnosticsTableModel()
    reference.set_packs([final[root] for root in arrival_order])
    reference.sort(column, order)
    reference.set_filter(severities=severities, needle=needle)

    def rows(model: DiagnosticsTableModel) -> list[tuple[object, ...]]:
        return [tuple(model.index(r, c).data() for c in range(len(COLUMNS))) for r in range(model.rowCount())]

    assert rows(incremental) == rows(reference)
    assert incremental.total() == reference.total()
    assert incremental.counts() == reference.counts()
