"""DiagnosticsTableModel: every diagnostic of the workspace as table rows, plus a severity/text filter proxy.

The model sorts and filters its own rows. A QSortFilterProxyModel would sort by calling the Python
``data()`` twice per comparison, which takes a tenth of a second for a large workspace every time a scan
batch arrives or the user clicks a column; a Python key sort over precomputed keys takes about a
millisecond. Filtering in a proxy was the same story: on every batch's layout change the proxy re-filtered
all rows through a Python ``filterAcceptsRow`` (6-8 ms per batch at a thousand findings, growing with the
workspace); a list comprehension here takes well under a millisecond. The proxy in this module only
passes the filter settings and sort requests on.

Same-name packs never look alike here: the Pack column shows each pack's distinguishing label
(``studio.core.labels``: scope, then the shortest telling parent path, ``brief — explicit, v0.4.0/``) and the Path
column the pack's folder as far as it tells copies apart, then the file (``v0.4.0/brief/KNOWLEDGE.md``). Labels
are worked out per name group as packs arrive, so a new namesake relabels only the rows of that name.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QIdentityProxyModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)

from studio.core.diagnostics import Diagnostic, DiagnosticCounts, Severity
from studio.core.labels import LabelInput, PackLabel, group_labels
from studio.core.model import Pack
from studio.core.terminal import printable
from studio.ui.icons import severity_icon
from studio.ui.let_go import let_go

ModelIndex = QModelIndex | QPersistentModelIndex
_NO_PARENT = QModelIndex()  # shared default: Qt treats an invalid index as "the root"
COLUMNS = ("Severity", "Code", "Pack", "Path", "Line", "Message", "Behavior")
PATH_COLUMN = COLUMNS.index("Path")
DIAGNOSTIC_ROLE = Qt.ItemDataRole.UserRole + 10
SORT_ROLE = Qt.ItemDataRole.UserRole + 11
UNSORTED = -1
"""Sort column meaning "in the order the packs arrived" (as Qt's models use -1)."""


@dataclass(frozen=True, slots=True)
class _Row:
    """One table row with its cells, sort keys and filter text worked out once (views ask thousands of times)."""

    diagnostic: Diagnostic
    root: str
    cells: tuple[Any, ...]
    keys: tuple[Any, ...]
    arrival: tuple[int, int]
    """(when its pack first arrived, position among the pack's findings): the order ties keep."""
    haystack: str
    """Lower-case text the filter box searches."""

    @classmethod
    def of(cls, d: Diagnostic, root: str, label: str, folder: str, arrival: tuple[int, int]) -> _Row:
        """``label``: the pack's label text; ``folder``: what goes before the file in the Path column."""
        path = f"{folder}/{d.file}" if folder and not d.file.startswith("/") else d.file
        # Messages quote pack text (names, paths, values): shown through the one escaping layer.
        cells = (d.severity.value, d.code, label, printable(path), d.line, printable(d.message), d.behavior.value)
        keys = (d.severity.rank, d.code, label, path, d.line, d.message, d.behavior.gravity)
        haystack = f"{d.code} {d.message} {path} {label}".lower()
        return cls(d, root, cells, keys, arrival, haystack)

    def matches(self, severities: set[Severity], needle: str) -> bool:
        return self.diagnostic.severity in severities and needle in self.haystack


@dataclass(slots=True)
class _Block:
    """The findings of one pack as last set, and when the pack first arrived."""

    name: str
    diagnostics: tuple[Diagnostic, ...]
    arrival: int
    counts: DiagnosticCounts = field(default_factory=DiagnosticCounts)
    scope: str = ""
    label: PackLabel | None = None


class DiagnosticsTableModel(QAbstractTableModel):
    """All findings, kept sorted by the chosen column; a batch of pack updates is one layout change.

    A scan delivers packs in batches and a reload replaces one pack's findings. Either way the rows are
    re-sorted in Python and the views are told once (layoutChanged), with the selection carried over to
    where its rows went, instead of once per inserted or removed run of rows.
    """

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._blocks: dict[str, _Block] = {}
        self._all: list[_Row] = []
        """Every finding, sorted."""
        self._rows: list[_Row] = []
        """The findings the filter lets through, in the same order: the table's rows."""
        self.severities = {Severity.ERROR, Severity.WARNING, Severity.INFO}
        self.needle = ""
        self._arrivals = itertools.count()
        self._totals = DiagnosticCounts()
        self._named: dict[str, set[str]] = {}
        """Pack roots by name: the groups whose labels a change can move."""
        self.sort_column = UNSORTED
        self.sort_order = Qt.SortOrder.AscendingOrder

    def clear(self) -> None:
        self.beginResetModel()
        # 13,500 rows and 10,000 packs' blocks at 10,000 packs: released over the next turns, not here.
        let_go(self._all)
        let_go(self._blocks.values())
        self._blocks = {}
        self._named = {}
        self._all = []
        self._rows = []
        self._totals = DiagnosticCounts()
        self.endResetModel()

    def set_pack(self, pack_root: str, pack_name: str, diagnostics: Sequence[Diagnostic], scope: str = "") -> None:
        """Replace the rows of one pack (or workspace-level findings with ``pack_root=""``)."""
        self.set_packs([(pack_root, pack_name, diagnostics, scope)])

    def show_packs(self, packs: Iterable[Pack], workspace: Sequence[Diagnostic] | None = None) -> None:
        """``set_packs`` for settled packs: each pack's findings, labelled with its scope; with ``workspace``, the
        workspace-level findings too (in the same update: each update re-sorts the whole table)."""
        items: list[PackItem] = [("", "(workspace)", workspace, "")] if workspace is not None else []
        self.set_packs(items + [(str(p.root), p.name, p.findings, p.scope.value) for p in packs])

    def set_packs(self, items: Sequence[PackItem]) -> None:
        """Add or replace the rows of several packs; unchanged packs are left alone.

        Each item is ``(root, name, findings)`` or ``(root, name, findings, scope)``; the scope goes into the
        label of a pack whose name another pack shares (without it, the label tells copies apart by path alone).
        """
        changed: dict[str, _Block] = {}
        replaced: set[str] = set()
        """Packs that had rows before this update (their old rows go)."""
        names: set[str] = set()
        for item in items:
            root, name, found = item[0], item[1], item[2]
            diags = tuple(found)
            old = self._blocks.get(root)
            scope = item[3] if len(item) > 3 else (old.scope if old is not None else "")
            if old is not None and old.name == name and old.diagnostics == diags and old.scope == scope:
                continue  # re-settled but unchanged: the common case after a scan
            arrival = old.arrival if old is not None else next(self._arrivals)
            block = _Block(name, diags, arrival, DiagnosticCounts.of(diags), scope, old.label if old else None)
            self._blocks[root] = block
            if old is not None:
                replaced.add(root)
                _tally(self._totals, old.counts, -1)
                if old.name != name:
                    self._named.get(old.name, set()).discard(root)
                    names.add(old.name)
            _tally(self._totals, block.counts, +1)
            if root:
                self._named.setdefault(name, set()).add(root)
                names.add(name)
            changed[root] = block
        for root in self._relabel(names):
            changed.setdefault(root, self._blocks[root])
            replaced.add(root)  # relabelled: its rows are made again with the new label
        if not changed:
            return
        fresh: list[_Row] = []
        for root, block in changed.items():
            # Worked out once per pack, not per finding: a scan brings thousands of rows a second.
            label = block.label or PackLabel(block.name)
            text, folder = label.text, (label.folder or root.rsplit("/", 1)[-1]) if root else ""
            fresh.extend(_Row.of(d, root, text, folder, (block.arrival, i)) for i, d in enumerate(block.diagnostics))
        self._merge(set(changed) & replaced, fresh)

    def _relabel(self, names: set[str]) -> list[str]:
        """Work out the labels of every pack named in ``names``; returns the roots whose label changed."""
        moved: list[str] = []
        for name in names:
            roots = self._named.get(name)
            if not roots:
                self._named.pop(name, None)
                continue
            members = [LabelInput(name, self._blocks[r].scope, Path(r)) for r in roots]
            for path, label in group_labels(members).items():
                block = self._blocks[str(path)]
                if block.label != label:
                    block.label = label
                    moved.append(str(path))
        return moved

    def label(self, pack_root: str) -> PackLabel | None:
        """The distinguishing label the table shows for the pack at ``pack_root``."""
        block = self._blocks.get(pack_root)
        return block.label if block is not None else None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort by a column (``UNSORTED`` for arrival order); ties stay in arrival order either way."""
        self.sort_column, self.sort_order = column, order
        self._relayout(list(self._all))

    def set_filter(self, severities: set[Severity] | None = None, needle: str | None = None) -> None:
        """Show only findings of these severities whose text contains ``needle`` (any case)."""
        if severities is not None:
            self.severities = set(severities)
        if needle is not None:
            self.needle = needle.strip().lower()
        self._relayout(list(self._all), resort=False)

    def _sorted(self, rows: list[_Row]) -> list[_Row]:
        rows.sort(key=_ARRIVAL)
        column = self.sort_column
        if 0 <= column < len(COLUMNS):
            # Python's sort is stable also with reverse=True, so ties keep arrival order when descending.
            rows.sort(key=lambda r: r.keys[column], reverse=self.sort_order == Qt.SortOrder.DescendingOrder)
        return rows

    def _merge(self, gone: set[str], fresh: list[_Row]) -> None:
        """Take out the rows of the packs in ``gone`` and put ``fresh`` rows in their sorted places.

        The work is proportional to the change, not to the table: at 10,000 packs the table holds over
        13,000 findings, and re-sorting all of them for every batch of a scan (three times a second) took
        20-50 ms of the window's time each. A few fresh rows are placed by binary search; a batch as large as
        a good part of the table is cheaper sorted together with it (Python's sort merges the two runs).
        """
        fresh = self._sorted(fresh)
        kept = [r for r in self._all if r.root not in gone] if gone else list(self._all)
        rows = self._sorted(kept + fresh) if len(fresh) * MERGE_BY_SORT > len(kept) else self._inserted(kept, fresh)
        if not self.filtered:
            self._show(rows, rows)
            return
        severities, needle = self.severities, self.needle
        shown = [r for r in self._rows if r.root not in gone] if gone else list(self._rows)
        matching = [r for r in fresh if r.matches(severities, needle)]
        if len(matching) * MERGE_BY_SORT > len(shown):
            shown = [r for r in rows if r.matches(severities, needle)]
        else:
            shown = self._inserted(shown, matching)
        self._show(rows, shown)

    def _inserted(self, rows: list[_Row], fresh: list[_Row]) -> list[_Row]:
        """``rows`` (sorted) with each of ``fresh`` inserted where the sort order puts it (after its equals)."""
        column = self.sort_column
        descending = self.sort_order == Qt.SortOrder.DescendingOrder
        for row in fresh:
            rows.insert(_place(rows, row, column if 0 <= column < len(COLUMNS) else -1, descending), row)
        return rows

    def _relayout(self, rows: list[_Row], resort: bool = True) -> None:
        """Show ``rows`` (sorted here, then filtered) in place of the current ones (a new sort or filter)."""
        self._all = self._sorted(rows) if resort else rows
        if not self.filtered:
            self._show(self._all, self._all)
            return
        severities, needle = self.severities, self.needle
        self._show(self._all, [r for r in self._all if r.matches(severities, needle)])

    def _show(self, every: list[_Row], shown: list[_Row]) -> None:
        """Make ``every`` the findings and ``shown`` the table's rows, moving persistent indexes along.

        Row counts may change inside a layout change, as in QSortFilterProxyModel.invalidate(). A
        persistent index (the selection, the current row) follows its row; if the row's pack was
        replaced, it follows an equal finding of the same pack, else it becomes invalid.
        """
        self._all = every
        self.layoutAboutToBeChanged.emit()
        persistent = self.persistentIndexList()
        column = self.sort_column if 0 <= self.sort_column < len(COLUMNS) else -1
        targets = _new_rows_of(persistent, self._rows, shown, column,
                               self.sort_order == Qt.SortOrder.DescendingOrder)
        self._rows = shown
        moved = [self.index(row, index.column()) if row >= 0 else QModelIndex()
                 for index, row in zip(persistent, targets, strict=True)]
        self.changePersistentIndexList(persistent, moved)
        self.layoutChanged.emit()

    def diagnostic(self, row: int) -> Diagnostic:
        return self._rows[row].diagnostic

    def total(self) -> int:
        """Every finding, shown or not."""
        return len(self._all)

    @property
    def filtered(self) -> bool:
        """True while the filter hides some severity or asks for some text."""
        return len(self.severities) != len(Severity) or bool(self.needle)

    def filter_words(self) -> str:
        """What the filter hides, in words: ``warnings and info hidden, text "foo"`` (empty when unfiltered)."""
        hidden = [label for severity, label in ((Severity.ERROR, "errors"), (Severity.WARNING, "warnings"),
                                                (Severity.INFO, "info")) if severity not in self.severities]
        parts = [f"{' and '.join(hidden)} hidden"] if hidden else []
        if self.needle:
            parts.append(f"text \u201c{self.needle}\u201d")
        return ", ".join(parts)

    def counts(self) -> DiagnosticCounts:
        """Totals over every row (kept up to date as packs change, not recounted)."""
        t = self._totals
        return DiagnosticCounts(t.errors, t.warnings, t.infos, dict(t.by_code))

    def rowCount(self, parent: ModelIndex = _NO_PARENT) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: ModelIndex = _NO_PARENT) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        horizontal = orientation == Qt.Orientation.Horizontal
        if horizontal and role == Qt.ItemDataRole.DisplayRole and 0 <= section < len(COLUMNS):
            return COLUMNS[section]
        return None

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        diag, col = row.diagnostic, index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return row.cells[col]
        if role == SORT_ROLE:
            return row.keys[col]
        if role == Qt.ItemDataRole.DecorationRole and col == 0:
            return severity_icon(diag.severity.value)
        if role == Qt.ItemDataRole.ToolTipRole and col == PATH_COLUMN:
            return _absolute(diag, row.root)
        if role == Qt.ItemDataRole.ToolTipRole:
            hint = f"\nHint: {printable(diag.hint)}" if diag.hint else ""
            rule = f" [{diag.rule}]" if diag.rule else ""
            return f"{diag.code}{rule}: {printable(diag.message)}{hint}"
        if role == DIAGNOSTIC_ROLE:
            return diag
        return None


MERGE_BY_SORT = 8
"""A batch of fresh rows over an eighth of the table is sorted together with it instead of inserted one by one."""
_ARRIVAL = operator.attrgetter("arrival")


def _place(rows: list[_Row], row: _Row, column: int, descending: bool) -> int:
    """Where ``row`` goes in ``rows``, sorted by ``column`` (-1: arrival only), ties in arrival order."""
    arrival = row.arrival
    key: Any = row.keys[column] if column >= 0 else None  # a key of any type; None for every row by arrival
    lo, hi = 0, len(rows)
    while lo < hi:
        mid = (lo + hi) // 2
        other = rows[mid]
        other_key: Any = other.keys[column] if column >= 0 else None
        if other_key == key:  # also every row when sorted by arrival only
            goes_after = other.arrival < arrival
        elif descending:
            goes_after = other_key > key
        else:
            goes_after = other_key < key
        if goes_after:
            lo = mid + 1
        else:
            hi = mid
    return lo


PackItem = tuple[str, str, Sequence[Diagnostic]] | tuple[str, str, Sequence[Diagnostic], str]


def _absolute(d: Diagnostic, root: str) -> str:
    return d.file if not root or d.file.startswith("/") else str(Path(root) / d.file)


def _tally(totals: DiagnosticCounts, counts: DiagnosticCounts, sign: int) -> None:
    """Add (``sign=1``) or take away (``-1``) one pack's counts from the running totals."""
    totals.errors += sign * counts.errors
    totals.warnings += sign * counts.warnings
    totals.infos += sign * counts.infos
    for code, n in counts.by_code.items():
        left = totals.by_code.get(code, 0) + sign * n
        if left:
            totals.by_code[code] = left
        else:
            totals.by_code.pop(code, None)


def _new_rows_of(persistent: list[QModelIndex], old: list[_Row], new: list[_Row], column: int,
                 descending: bool) -> list[int]:
    """Where each persistent index's row went (-1 when it is gone).

    ``new`` is in the table's order, in which every row has a place of its own (ties go by arrival), so a row
    still there is found by binary search: a dictionary of the whole table, made for every update while a
    row was selected, took milliseconds at 13,000 findings.
    """
    by_finding: dict[tuple[str, Diagnostic], int] = {}
    targets = []
    for index in persistent:
        row = old[index.row()] if 0 <= index.row() < len(old) else None
        target = -1
        if row is not None:
            at = _place(new, row, column, descending)
            if at < len(new) and new[at] is row:
                target = at
            else:  # only when a selected row's pack was replaced: an equal finding of the same pack
                if not by_finding:
                    by_finding = {(r.root, r.diagnostic): i for i, r in enumerate(new)}
                target = by_finding.get((row.root, row.diagnostic), -1)
        targets.append(target)
    return targets


class DiagnosticsFilterProxy(QIdentityProxyModel):
    """The Problems table's view of the model: passes filter settings and sort requests on to it.

    The model does the filtering and sorting itself (see the module docstring); an identity proxy maps
    rows one to one, so a batch of findings never makes it call Python per row.
    """

    def _model(self) -> DiagnosticsTableModel | None:
        model = self.sourceModel()
        return model if isinstance(model, DiagnosticsTableModel) else None

    @property
    def severities(self) -> set[Severity]:
        model = self._model()
        return set(model.severities) if model else set()

    @property
    def needle(self) -> str:
        model = self._model()
        return model.needle if model else ""

    def set_severity(self, severity: Severity, shown: bool) -> None:
        model = self._model()
        if model is not None:
            severities = set(model.severities)
            (severities.add if shown else severities.discard)(severity)
            model.set_filter(severities=severities)

    def set_needle(self, text: str) -> None:
        model = self._model()
        if model is not None:
            model.set_filter(needle=text)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        model = self._model()
        if model is not None:
            model.sort(column, order)


def counts_text(counts: DiagnosticCounts) -> str:
    """``3 errors, 5 warnings, 2 info`` (singular when one)."""
    return counts.phrase()
