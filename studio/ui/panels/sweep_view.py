"""SweepView: the budget sweep as a plot (Resolve mode, Sweep tab), drawn with pyqtgraph.

Budget on x; on y tokens used (left axis), files picked and the recall of the pack's required context (right
axis; recall when its answer-quality suite has the task as a prompt). A dashed line marks the budget at which
each required file first gets in (the first few files when there is no suite), and a table beside the plot
lists every file's first budget.

pyqtgraph takes most of a second to import (numpy with it), so it is imported in a worker thread the first
time the tab is shown (``load_plotting``); the view shows "Loading the plot ..." until then, and the GUI
thread never waits for the import.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QHBoxLayout, QLabel, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget

from studio.core.clients.sweep import Sweep
from studio.ui.fit import wrap_label
from studio.ui.shown_text import as_typed

MARKED_WITHOUT_SUITE = 6
"""With no required context, the first budgets of this many files (the earliest) are marked on the plot."""


def load_plotting() -> ModuleType:
    """Import pyqtgraph (in a worker thread: it is slow) and set the look once.

    A plain import statement, so that the standalone bundle's analysis (and its test) sees the dependency.
    """
    import pyqtgraph  # type: ignore[import-untyped]  # pyqtgraph ships no type information

    pyqtgraph.setConfigOptions(antialias=True, background="w", foreground="k")
    module: ModuleType = pyqtgraph
    return module


class SweepView(QWidget):
    """Plots of a ``Sweep`` and the first budget of each file."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.pg: Any = None
        self.sweep: Sweep | None = None
        self.plots: Any = None
        self._plot_item: Any = None
        self._right: Any = None
        self._tokens: Any = None
        self._budget: Any = None
        self._files: Any = None
        self._recall: Any = None
        self._marks: list[Any] = []
        self.caption = wrap_label(QLabel("Loading the plot ..."))
        self.firsts = QTableWidget(0, 2)
        self.firsts.setHorizontalHeaderLabels(["First budget", "File"])
        self.firsts.verticalHeader().hide()
        self.firsts.horizontalHeader().setStretchLastSection(True)
        self.firsts.setColumnWidth(0, 80)
        # Side by side: Resolve mode's lower half is wide and short, and a plot needs height.
        self.row = QHBoxLayout()
        self.row.addWidget(self.firsts, 2)
        layout = QVBoxLayout(self)
        layout.addWidget(self.caption)
        layout.addLayout(self.row, 1)

    @property
    def ready(self) -> bool:
        """The plot is built and shows the sweeps that arrive."""
        return self._files is not None

    def set_plotting(self, pg: ModuleType) -> None:
        """Called on the GUI thread once the worker imported pyqtgraph: the plot is made over three turns of the
        event loop (widget, axes, curves), none of them a long stall, then the sweep waiting for it is drawn."""
        self.pg = pg
        self.plots = pg.GraphicsLayoutWidget()
        self.row.insertWidget(0, self.plots, 3)
        QTimer.singleShot(0, self._build_axes)

    def _build_axes(self) -> None:
        self._make_axes()
        QTimer.singleShot(0, self._build_curves)

    def _build_curves(self) -> None:
        self._make_curves()
        if self.sweep is not None:
            self.show_sweep(self.sweep)

    def show_waiting(self, text: str = "Sweeping budgets ...") -> None:
        self.caption.setText(text)

    def show_sweep(self, sweep: Sweep) -> None:
        self.sweep = sweep
        points = sweep.points
        required = set(sweep.required or ())
        firsts = sorted(sweep.first_budget.items(), key=lambda kv: (kv[1], kv[0]))
        self.firsts.setRowCount(len(firsts))
        for row, (path, budget) in enumerate(firsts):
            self.firsts.setItem(row, 0, QTableWidgetItem(f"{budget:,}"))
            item = QTableWidgetItem(path + ("  (required)" if path in required else ""))
            item.setToolTip(as_typed(path))
            self.firsts.setItem(row, 1, item)
        low, high = (points[0].budget, points[-1].budget) if points else (0, 0)
        text = f"{len(points)} budgets from {low:,} to {high:,} tokens."
        if sweep.required is not None:
            got = [r for r in sweep.required if r.partition("#")[0] in sweep.first_budget]
            text += f" Required context: {len(got)} of {len(sweep.required)} files get in within the range."
        else:
            text += " No answer-quality case has this task as its prompt: no recall."
        self.caption.setText(text)
        if self.ready:
            self._plot(sweep)

    def _make_axes(self) -> None:
        """The plot and its axes, made once: a new sweep only sets the curves' data (a rebuild took 200 ms)."""
        plot = self.plots.addPlot(row=0, col=0)
        plot.showGrid(x=True, y=True, alpha=0.2)
        plot.setLabel("bottom", "budget (tokens)")
        plot.setLabel("left", "tokens used", color="#1f77b4")
        plot.setLabel("right", "files picked", color="#2ca02c")
        self._plot_item = plot

    def _make_curves(self) -> None:
        pg, plot = self.pg, self._plot_item
        dot = pg.QtCore.Qt.PenStyle.DotLine
        legend = plot.addLegend(offset=(5, 5), labelTextSize="8pt")  # top left: the curves rise to the right
        self._tokens = plot.plot([], [], pen=pg.mkPen("#1f77b4", width=2), name="tokens used")
        self._budget = plot.plot([], [], pen=pg.mkPen("#999999", style=dot), name="budget")
        right = pg.ViewBox()
        plot.showAxis("right")
        plot.scene().addItem(right)
        plot.getAxis("right").linkToView(right)
        right.setXLink(plot)
        self._files = pg.PlotDataItem([], [], pen=pg.mkPen("#2ca02c", width=2), symbol="o", symbolSize=4,
                                      symbolBrush="#2ca02c")
        self._recall = pg.PlotDataItem([], [], pen=pg.mkPen("#d62728", width=2, style=pg.QtCore.Qt.PenStyle.DashLine))
        right.addItem(self._files)
        right.addItem(self._recall)
        legend.addItem(self._files, "files picked")
        legend.addItem(self._recall, "recall (1.0 at the top)")

        def follow() -> None:
            right.setGeometry(plot.vb.sceneBoundingRect())
            right.linkedViewChanged(plot.vb, right.XAxis)

        follow()
        plot.vb.sigResized.connect(follow)
        self._right = right

    def _plot(self, sweep: Sweep) -> None:
        """Tokens used on the left axis (the budget as a dotted diagonal: tokens never cross it), files picked on
        the right, the recall of the required context on the right axis with 1.0 at its top; dashed lines where
        each required file first gets in."""
        pg = self.pg
        xs = [float(p.budget) for p in sweep.points]
        self._tokens.setData(xs, [float(p.tokens) for p in sweep.points])
        self._budget.setData(xs, xs)
        top = float(max((len(p.selected) for p in sweep.points), default=1) or 1)
        self._files.setData(xs, [float(len(p.selected)) for p in sweep.points])
        has_recall = sweep.required is not None
        self._recall.setData(xs if has_recall else [], [(p.recall or 0.0) * top for p in sweep.points]
                             if has_recall else [])
        self._recall.setVisible(has_recall)
        self._right.setYRange(0, top * 1.05)
        for line in self._marks:
            self._plot_item.removeItem(line)
        required = set(sweep.required or ())
        marks = ([(path, b) for path, b in sweep.first_budget.items() if path in required] if required
                 else sorted(sweep.first_budget.items(), key=lambda kv: kv[1])[:MARKED_WITHOUT_SUITE])
        self._marks = [pg.InfiniteLine(pos=budget, angle=90,
                                       pen=pg.mkPen("#8b5cf6", style=pg.QtCore.Qt.PenStyle.DashLine),
                                       label=path.rsplit("/", 1)[-1],
                                       labelOpts={"position": 0.08, "color": "#5b21b6", "fill": "#ffffffcc"})
                       for path, budget in marks]
        for line in self._marks:
            self._plot_item.addItem(line)
