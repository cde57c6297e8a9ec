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

from PySide6.QtWidgets import QHBoxLayout, QLabel, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget

from studio.core.clients.sweep import Sweep
from studio.ui.fit import wrap_label

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
        self._right: Any = None
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
        return self.pg is not None

    def set_plotting(self, pg: ModuleType) -> None:
        """Called on the GUI thread once the worker imported pyqtgraph."""
        self.pg = pg
        self.plots = pg.GraphicsLayoutWidget()
        self.row.insertWidget(0, self.plots, 3)
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
            item.setToolTip(path)
            self.firsts.setItem(row, 1, item)
        low, high = (points[0].budget, points[-1].budget) if points else (0, 0)
        text = f"{len(points)} budgets from {low:,} to {high:,} tokens."
        if sweep.required is not None:
            got = [r for r in sweep.required if r.partition("#")[0] in sweep.first_budget]
            text += f" Required context: {len(got)} of {len(sweep.required)} files get in within the range."
        else:
            text += " No answer-quality case has this task as its prompt: no recall."
        self.caption.setText(text)
        if self.pg is None or self.plots is None:
            return
        self._plot(sweep)

    def _plot(self, sweep: Sweep) -> None:
        """One plot, two y axes: tokens used on the left (with the budget as a dotted diagonal: tokens never cross
        it), files picked on the right, and the recall of the required context drawn on the right axis with 1.0 at
        its top. Dashed lines mark where each required file first gets in."""
        pg = self.pg
        dash, dot = pg.QtCore.Qt.PenStyle.DashLine, pg.QtCore.Qt.PenStyle.DotLine
        self.plots.clear()
        if self._right is not None:
            self._right.deleteLater()
        xs = [p.budget for p in sweep.points]
        plot = self.plots.addPlot(row=0, col=0)
        plot.showGrid(x=True, y=True, alpha=0.2)
        plot.setLabel("bottom", "budget (tokens)")
        plot.setLabel("left", "tokens used", color="#1f77b4")
        legend = plot.addLegend(offset=(5, 5), labelTextSize="8pt")  # top left: the curves rise to the right
        plot.plot(xs, [float(p.tokens) for p in sweep.points], pen=pg.mkPen("#1f77b4", width=2), name="tokens used")
        plot.plot(xs, [float(x) for x in xs], pen=pg.mkPen("#999999", style=dot), name="budget")
        right = pg.ViewBox()
        self._right = right
        plot.showAxis("right")
        plot.scene().addItem(right)
        plot.getAxis("right").linkToView(right)
        right.setXLink(plot)
        plot.setLabel("right", "files picked", color="#2ca02c")
        top = float(max((len(p.selected) for p in sweep.points), default=1) or 1)
        files = pg.PlotDataItem(xs, [float(len(p.selected)) for p in sweep.points], pen=pg.mkPen("#2ca02c", width=2),
                                stepMode=None, symbol="o", symbolSize=4, symbolBrush="#2ca02c")
        right.addItem(files)
        legend.addItem(files, "files picked")
        if sweep.required is not None:
            recall = pg.PlotDataItem(xs, [(p.recall or 0.0) * top for p in sweep.points],
                                     pen=pg.mkPen("#d62728", width=2, style=dash))
            right.addItem(recall)
            legend.addItem(recall, "recall (1.0 at the top)")
        right.setYRange(0, top * 1.05)

        def follow() -> None:
            right.setGeometry(plot.vb.sceneBoundingRect())
            right.linkedViewChanged(plot.vb, right.XAxis)

        follow()
        plot.vb.sigResized.connect(follow)
        required = set(sweep.required or ())
        marks = ([(path, b) for path, b in sweep.first_budget.items() if path in required] if required
                 else sorted(sweep.first_budget.items(), key=lambda kv: kv[1])[:MARKED_WITHOUT_SUITE])
        for path, budget in marks:
            plot.addItem(pg.InfiniteLine(pos=budget, angle=90, pen=pg.mkPen("#8b5cf6", style=dash),
                                         label=path.rsplit("/", 1)[-1],
                                         labelOpts={"position": 0.08, "color": "#5b21b6", "fill": "#ffffffcc"}))
