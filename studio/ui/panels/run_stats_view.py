"""RunStatsView: the runs' statistics as painted bar charts, plus the file lists a curator acts on."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QGridLayout,
    QGroupBox,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from studio.core.diagnostics import counted
from studio.core.runs.stats import RunStats
from studio.core.terminal import printable
from studio.ui.panels.bar_chart import Bar, BarChart, simple_bar

WARNING_COLOR = QColor("#d97706")
GAP_COLOR = QColor("#c62828")
STATUS_COLORS = {"passed": QColor("#2e7d32"), "needs-review": QColor("#d97706"), "stale": QColor("#b26a00"),
                 "disputed": QColor("#c62828"), "failed": QColor("#7f1d1d")}
UNKNOWN_STATUS = QColor("#8a8f98")


def selection_bars(stats: RunStats) -> list[Bar]:
    """Files by how many context/usage records selected them, most selected first."""
    ranked = sorted(stats.selection_counts.items(), key=lambda item: (-item[1], item[0]))
    return [simple_bar(path, count) for path, count in ranked]


def over_time_bars(stats: RunStats) -> list[Bar]:
    """One stacked bar per record: warnings (amber) then citation gaps (red)."""
    return [Bar(f"{p.time} {p.kind}", ((p.warnings, WARNING_COLOR), (p.citation_gaps, GAP_COLOR)),
                f"{counted(p.warnings, 'warning')}, {counted(p.citation_gaps, 'gap')}") for p in stats.over_time]


PASS_COLOR = QColor("#2e7d32")
RECALL_COLOR = QColor("#3b82f6")


def eval_pass_bars(stats: RunStats) -> list[Bar]:
    """One bar per eval run, oldest first: its pass rate in per cent."""
    return [simple_bar(f"{p.time} {p.kind} {p.suite.rsplit('/', 1)[-1]}", 100 * p.pass_rate, PASS_COLOR,
                       f"{p.pass_rate:.0%}" + (f" ({p.ranking})" if p.ranking else ""))
            for p in stats.eval_history if p.pass_rate is not None]


def eval_recall_bars(stats: RunStats) -> list[Bar]:
    """One bar per context eval run, oldest first: mean context recall (per cent), with MRR in the note."""
    return [simple_bar(f"{p.time} {p.suite.rsplit('/', 1)[-1]}", 100 * p.context_recall, RECALL_COLOR,
                       f"recall {p.context_recall:.2f}" + (f", MRR {p.mrr:.2f}" if p.mrr is not None else ""))
            for p in stats.eval_history if p.kind == "context" and p.context_recall is not None]


def compile_bars(stats: RunStats) -> list[Bar]:
    """One equal-length bar per compile run, coloured by its status."""
    return [simple_bar(time, 1, STATUS_COLORS.get(status, UNKNOWN_STATUS), status)
            for time, _path, status in stats.compile_history]


class RunStatsView(QScrollArea):
    """Charts and the file lists a curator acts on; ``set_stats`` replaces everything."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        body = QWidget()
        layout = QVBoxLayout(body)
        self.selection_chart = BarChart("Selections per file (context and usage records)")
        self.selection_chart.empty_text = "No context or usage record selected anything yet."
        self.time_chart = BarChart("Warnings (amber) and citation gaps (red) over time")
        self.time_chart.empty_text = "No context, usage or compile records."
        self.compile_chart = BarChart("Compile status history")
        self.compile_chart.empty_text = "No compile runs."
        self.eval_chart = BarChart("Eval pass rate over time")
        self.eval_chart.empty_text = "No eval runs recorded (pack-studio eval --write-run, or the Evals mode)."
        self.recall_chart = BarChart("Context recall over time (context evals)")
        self.recall_chart.empty_text = "No context eval runs recorded."
        for chart in (self.selection_chart, self.time_chart, self.compile_chart, self.eval_chart, self.recall_chart):
            layout.addWidget(chart)
        lists = QGridLayout()
        self.never_selected = QListWidget()
        self.selected_missing = QListWidget()
        self.changed = QListWidget()
        self.selected_changed = QListWidget()
        for place, (title, widget) in enumerate((
            ("Never selected", self.never_selected),
            ("Selected but no longer in the pack", self.selected_missing),
            ("Changed since a compile run hashed them", self.changed),
            ("Selected, and changed since a record hashed them", self.selected_changed),
        )):
            box = QGroupBox(title)
            QVBoxLayout(box).addWidget(widget)
            widget.setMinimumHeight(90)
            lists.addWidget(box, place // 2, place % 2)  # two columns: readable in a narrow window too
        layout.addLayout(lists)
        self.change_note = QLabel()
        self.change_note.setWordWrap(True)
        self.change_note.hide()
        layout.addWidget(self.change_note)
        layout.addStretch(1)
        self.setWidget(body)

    def set_stats(self, stats: RunStats | None) -> None:
        if stats is None:
            stats = RunStats()
        self.selection_chart.set_bars(selection_bars(stats))
        self.time_chart.set_bars(over_time_bars(stats))
        self.compile_chart.set_bars(compile_bars(stats))
        self.eval_chart.set_bars(eval_pass_bars(stats))
        self.recall_chart.set_bars(eval_recall_bars(stats))
        _fill(self.never_selected, stats.never_selected)
        _fill(self.selected_missing, stats.selected_missing)
        _fill(self.changed, [f"{h.path}  (recorded in {h.record})" for h in stats.changed])
        _fill(self.selected_changed, [f"{c.path}  (last selected {c.last_selected}; hash in {c.record})"
                                      for c in stats.selected_modified])
        self.change_note.setText(stats.selected_change_note)
        self.change_note.setVisible(bool(stats.selected_change_note))


def _fill(widget: QListWidget, texts: list[str]) -> None:
    """Fill a list; an empty one says so in grey instead of looking broken."""
    widget.clear()
    widget.addItems([printable(text) for text in texts])  # paths and queries from runs/ records
    if not texts:
        item = QListWidgetItem("(none)")
        item.setFlags(Qt.ItemFlag.NoItemFlags)
        widget.addItem(item)
