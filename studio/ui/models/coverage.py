"""CoverageMatrixModel: a pack's known tasks as rows (gaps first) against the files that answer them as columns.

A cell holds a dot when that file answers that task, and a ring when a gap's resolve picked that file but it
lacks some of the task's terms (where a curator would add the missing facts). The columns are the files some
task was answered by, most used first, then the files no task ever selected (their column is empty by
definition, which is the point: they are what nothing asks for). Columns are capped, so a pack with thousands
of files stays a readable table.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from studio.core.coverage import CoverageReport, CoverageTask, GapCluster
from studio.core.terminal import printable
from studio.ui.models.item_table import ItemTableModel

FIXED_COLUMNS = ("", "Task", "From", "Asked")
MAX_FILE_COLUMNS = 40
"""More file columns than this are not shown (the detail pane still lists every file of a task)."""
TASK_ROLE = Qt.ItemDataRole.UserRole + 60
GAP_COLOR = QColor("#c62828")
ANSWERED_COLOR = QColor("#2e7d32")
NEVER_COLOR = QColor("#8a8a8a")
DOT = "\u25cf"
RING = "\u25cb"
"""A file a gap's resolve picked that does not answer it (it lacks some of the task's terms)."""
PARTIAL_COLOR = QColor("#b26a00")


def ordered_tasks(report: CoverageReport, clusters: list[GapCluster]) -> list[CoverageTask]:
    """Gaps first, grouped by cluster (largest first, each cluster's members together), then answered tasks."""
    seen: set[str] = set()
    out: list[CoverageTask] = []
    for cluster in clusters:
        for task in cluster.tasks:
            if task.id not in seen:
                seen.add(task.id)
                out.append(task)
    out.extend(t for t in report.tasks if not t.answered and t.id not in seen)
    out.extend(sorted((t for t in report.tasks if t.answered), key=lambda t: (-t.count, t.text)))
    return out


def file_columns(report: CoverageReport, limit: int = MAX_FILE_COLUMNS) -> tuple[list[str], int]:
    """The files shown as columns, and how many files were left out by ``limit``."""
    used = Counter(path for t in report.tasks for path in t.by)
    ranked = [path for path, _n in sorted(used.items(), key=lambda kv: (-kv[1], kv[0]))]
    ranked += [p for p in report.never_selected if p not in used]
    return ranked[:limit], max(0, len(ranked) - limit)


class CoverageMatrixModel(ItemTableModel[CoverageTask]):
    """Rows are tasks; the first four columns describe the task, the rest are files."""

    item_role = TASK_ROLE

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.files: list[str] = []
        self.never: frozenset[str] = frozenset()
        self.hidden_files = 0

    def set_report(self, report: CoverageReport | None, clusters: list[GapCluster]) -> None:
        self.beginResetModel()
        if report is None:
            self.items, self.files, self.never, self.hidden_files = [], [], frozenset(), 0
        else:
            self.items = ordered_tasks(report, clusters)
            self.files, self.hidden_files = file_columns(report)
            self.never = frozenset(report.never_selected)
        self.columns = FIXED_COLUMNS + tuple(self.files)
        self.endResetModel()

    def row_of(self, task_id: str) -> int:
        return next((i for i, t in enumerate(self.items) if t.id == task_id), -1)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        file_index = section - len(FIXED_COLUMNS)
        if orientation != Qt.Orientation.Horizontal or file_index < 0 or file_index >= len(self.files):
            return super().headerData(section, orientation, role)
        path = self.files[file_index]
        if role == Qt.ItemDataRole.DisplayRole:
            return path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        if role == Qt.ItemDataRole.ToolTipRole:
            return path + ("\nno task selects this file" if path in self.never else "")
        if role == Qt.ItemDataRole.ForegroundRole and path in self.never:
            return NEVER_COLOR
        return None

    def cell(self, task: CoverageTask, column: int, role: int) -> Any:
        if column >= len(FIXED_COLUMNS):
            answers = self.files[column - len(FIXED_COLUMNS)] in task.by
            if role == Qt.ItemDataRole.DisplayRole:
                return "" if not answers else DOT if task.answered else RING
            if role == Qt.ItemDataRole.TextAlignmentRole:
                return Qt.AlignmentFlag.AlignCenter
            if role == Qt.ItemDataRole.ForegroundRole:
                return ANSWERED_COLOR if task.answered else PARTIAL_COLOR
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return ("gap" if not task.answered else "ok", printable(task.text), task.source, task.count)[column]
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{printable(task.text)}\n{printable(task.why)}"
        if role == Qt.ItemDataRole.ForegroundRole and column == 0:
            return ANSWERED_COLOR if task.answered else GAP_COLOR
        return None

    def flags(self, index: QModelIndex | QPersistentModelIndex) -> Qt.ItemFlag:
        if not self.valid(index):
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
