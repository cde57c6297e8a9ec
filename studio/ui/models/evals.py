"""EvalCasesModel: eval cases under configuration A (and B) as table rows; a proxy filters failures, passes, changes.

Rows are ``CaseDelta`` values (``studio.core.evals.compare``); with no B the row's ``b`` is None and every case is
``unchanged``. The model only maps core values to roles: red for a failing result and for picked-vs-required
cells with a missed file, green for passes and improvements.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt
from PySide6.QtGui import QColor

from studio.core.evals.compare import CaseDelta
from studio.core.evals.model import ContextOutcome, DiscoveryOutcome
from studio.core.terminal import printable
from studio.ui.models.item_table import ItemTableModel

COLUMNS = ("Case", "A", "B", "Change", "Recall / score", "RR", "Picked vs required", "Prompt")
CASE_ROLE = Qt.ItemDataRole.UserRole + 40
FILTERS = ("all", "failures", "passes", "changed", "improved", "regressed")
FAIL_COLOR = QColor("#c62828")
PASS_COLOR = QColor("#2e7d32")
CHANGE_COLORS = {"improved": PASS_COLOR, "regressed": FAIL_COLOR, "changed": QColor("#b26a00")}


def result_text(outcome: DiscoveryOutcome | ContextOutcome | None) -> str:
    if outcome is None:
        return ""
    mark = "pass" if outcome.passed else "FAIL"
    if isinstance(outcome, DiscoveryOutcome):
        return f"{mark}: {outcome.actual}"
    return mark


def picked_vs_required(outcome: DiscoveryOutcome | ContextOutcome | None) -> str:
    """``2/3 · warranty.md ✓ · pricing.md ✗`` for a context case; the expectation for a discovery case."""
    if isinstance(outcome, DiscoveryOutcome):
        return f"expected {outcome.expected}"
    if not isinstance(outcome, ContextOutcome):
        return ""
    if not outcome.required_context:
        return f"{len(outcome.selected)} picked, none required"
    marks = [f"{_short(r)} {'✗' if r in outcome.missed else '✓'}" for r in dict.fromkeys(outcome.required_context)]
    found = len(dict.fromkeys(outcome.required_context)) - len(outcome.missed)
    return f"{found}/{len(dict.fromkeys(outcome.required_context))} · " + " · ".join(marks)


def _short(path: str) -> str:
    return path.rsplit("/", 1)[-1]


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _pair(a: float | None, b: float | None, has_b: bool) -> str:
    return f"{_number(a)} → {_number(b)}" if has_b else _number(a)


class EvalCasesModel(ItemTableModel[CaseDelta]):
    """One row per case; ``has_b`` says whether a second configuration was run."""

    columns = COLUMNS
    item_role = CASE_ROLE

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.has_b = False
        self.labels: tuple[str, str] = ("A", "B")
        """Names of the two result columns (``recorded``/``now`` when B is the last recorded run)."""
        self.descriptions: tuple[str, str] = ("", "")
        """What each result column ran (the configurations' labels), for the header tooltips."""

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            if section in (1, 2):
                return self.labels[section - 1]
            if section in (4, 5) and self.items:
                discovery = isinstance(self.items[0].a, DiscoveryOutcome)
                base = "RR" if section == 5 else "Score" if discovery else "Recall"
                # Compared, the cells read "a → b": the header says which run is which side (short, to fit).
                return f"{base} ({self.labels[0]}→{self.labels[1]})" if self.has_b else base
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.ToolTipRole and section in (1, 2):
            return self.descriptions[section - 1] or None
        return super().headerData(section, orientation, role)

    def set_cases(self, cases: list[CaseDelta], has_b: bool) -> None:
        self.has_b = has_b
        self.set_items(cases)
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(COLUMNS) - 1)

    def cell(self, case: CaseDelta, col: int, role: int) -> Any:
        shown = case.b if case.b is not None else case.a
        if role == Qt.ItemDataRole.DisplayRole:
            return printable(self._display(case, col))  # case ids, prompts and paths are the suite author's text
        if role == Qt.ItemDataRole.ForegroundRole:
            if col in (1, 2):
                outcome = case.a if col == 1 else case.b
                return None if outcome is None else (PASS_COLOR if outcome.passed else FAIL_COLOR)
            if col == 3:
                return CHANGE_COLORS.get(case.change)
            if col == 6 and isinstance(shown, ContextOutcome) and shown.missed:
                return FAIL_COLOR
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(case)
        return None

    def _display(self, case: CaseDelta, col: int) -> str:
        a, b = case.a, case.b
        shown = b if b is not None else a
        if col == 0:
            return case.id
        if col == 1:
            return result_text(a)
        if col == 2:
            return result_text(b) if self.has_b else ""
        if col == 3:
            return case.change if self.has_b else ""
        if col == 4:
            if isinstance(shown, DiscoveryOutcome):
                return _pair(getattr(a, "score", None), getattr(b, "score", None), self.has_b)
            return _pair(getattr(a, "context_recall", None), getattr(b, "context_recall", None), self.has_b)
        if col == 5:
            return _pair(getattr(a, "reciprocal_rank", None), getattr(b, "reciprocal_rank", None), self.has_b) if (
                isinstance(shown, ContextOutcome)) else ""
        if col == 6:
            return picked_vs_required(shown)
        return case.prompt.replace("\n", " ")

    def _tooltip(self, case: CaseDelta) -> str:
        lines = [case.prompt]
        for label, outcome in zip(self.labels, (case.a, case.b), strict=True):
            if isinstance(outcome, DiscoveryOutcome):
                lines.append(f"{label}: {outcome.actual} — {outcome.reason}")
            elif isinstance(outcome, ContextOutcome):
                picked = ", ".join(s.key for s in outcome.selected if s.path != "KNOWLEDGE.md")
                lines.append(f"{label}: picked {picked or 'nothing'}")
                if outcome.missed:
                    lines.append(f"{label}: missed {', '.join(outcome.missed)}")
        return "\n".join(lines)


class CaseFilterProxy(QSortFilterProxyModel):
    """Shows all cases, failures, passes (of B when compared, else A) or those that changed."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.mode = "all"

    def set_mode(self, mode: str) -> None:
        self.beginFilterChange()
        self.mode = mode if mode in FILTERS else "all"
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, source_row: int, source_parent: QModelIndex | QPersistentModelIndex) -> bool:
        if self.mode == "all":
            return True
        model = self.sourceModel()
        case = model.index(source_row, 0, source_parent).data(CASE_ROLE)
        if not isinstance(case, CaseDelta):
            return False
        shown = case.b if case.b is not None else case.a
        if self.mode == "failures":
            return shown is not None and not shown.passed
        if self.mode == "passes":
            return shown is not None and shown.passed
        if self.mode == "changed":
            return case.change != "unchanged"
        return case.change == self.mode
