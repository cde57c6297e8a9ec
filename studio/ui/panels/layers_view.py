"""LayersView: the Resolve mode's "Layers" tab, the L0 -> L1 -> L2 path of a task beside the resolver's picks.

Shows, for one task and budget: the decision the three-layer strategy takes and why, the tokens each layer
spends (a bar per side: the strategy's L0 + L1 + L2, and the resolver's fence), the L0 index lines that match,
the L1 ranking with scores and snippets, the L2 files fetched or left over budget, the resolver's picks, and the
task's words no file mentions (knowledge gaps). The simulation (``studio.core.search.layers``) runs in the
studio's child process (a worker thread waits for it); only the answer to the latest request is shown.

Wiring: ``resolver_panel.result_shown.connect(layers_view.simulate_for)`` runs it for every resolve the
simulator shows, with the resolver's own result beside it.

Signals:
    open_location(Path, int): a file and 1-based line the user double-clicked.
    result_shown(object): the ``LayersResult`` now on screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QHBoxLayout, QLabel, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from studio.core.model import Pack
from studio.core.resolver import ResolveResult
from studio.core.search.layers import LayersResult, simulate_with_cache
from studio.ui import workers
from studio.ui.child_pool import run_in_child
from studio.ui.fit import splitter
from studio.ui.panels.budget_bar import BudgetBar, Segment
from studio.ui.shown_text import text_row

LOCATION_ROLE = Qt.ItemDataRole.UserRole + 1
MAX_COLUMN_PX = 320
LAYER_COLORS = {"L0": QColor("#8b5cf6"), "L1": QColor("#3b82f6"), "L2": QColor("#10b981"),
                "resolver": QColor("#f59e0b")}
DECISION_TEXT = {"gap": ("Knowledge gap", "#c62828"), "index-gap": ("Index gap", "#b26a00"),
                 "direct": ("Straight to L2", "#1e7d32"), "search": ("Search (L1), then L2", "#0a5bd3")}


def _simulate(task: str, packs: list[Pack], budget: int, cache_dir: str | None,
              resolved: ResolveResult | None) -> LayersResult:
    return simulate_with_cache(task, packs, budget=budget, cache_dir=cache_dir, resolved=resolved)


def _in_child(task: str, packs: list[Pack], budget: int, cache_dir: str | None,
              resolved: ResolveResult | None) -> LayersResult:
    return run_in_child(_simulate, task, packs, budget, cache_dir, resolved)


class LayersView(QWidget):
    open_location = Signal(Path, int)
    result_shown = Signal(object)

    def __init__(self, cache_dir: Path | None = None, parent: QWidget | None = None, *,
                 in_child_process: bool = True) -> None:
        super().__init__(parent)
        self.cache_dir = cache_dir
        self.in_child_process = in_child_process
        self.result: LayersResult | None = None
        self.error = ""
        self.latest = -1
        self.dropped = 0
        self.pool = workers.serial_pool(self)

        self.title = QLabel("Run the resolver to see the three-layer path of its task.")
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.title.setWordWrap(True)
        self.decision = QLabel()
        self.decision.setTextFormat(Qt.TextFormat.PlainText)
        self.reason = QLabel()
        self.reason.setTextFormat(Qt.TextFormat.PlainText)
        self.reason.setWordWrap(True)
        head = QHBoxLayout()
        head.addWidget(self.decision)
        head.addWidget(self.reason, 1)
        self.layers_bar = BudgetBar()
        self.resolver_bar = BudgetBar()
        self.gaps = QLabel()
        self.gaps.setTextFormat(Qt.TextFormat.PlainText)
        self.gaps.setWordWrap(True)

        self.l0 = _tree(("", "Pack", "File", "Title", "Words found"))
        self.l1 = _tree(("#", "Pack", "Where", "Relevance", "Snippet"))
        self.l2 = _tree(("", "Pack", "File", "Tokens", "Why"))
        self.picks = _tree(("Pack", "Item", "Tokens"))
        for tree in (self.l0, self.l1, self.l2, self.picks):
            tree.itemDoubleClicked.connect(self._double_clicked)
        steps = splitter(Qt.Orientation.Vertical, *((_titled(label, tree), 0) for label, tree in (
            ("L0: index lines that match", self.l0), ("L1: full-text ranking", self.l1), ("L2: whole files", self.l2))))
        sides = splitter(Qt.Orientation.Horizontal, (steps, 3),
                         (_titled("Resolver: selected for the same task and budget", self.picks), 2))

        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addLayout(head)
        layout.addWidget(QLabel("Three layers (L0 + L1 + L2)"))
        layout.addWidget(self.layers_bar)
        layout.addWidget(QLabel("Resolver"))
        layout.addWidget(self.resolver_bar)
        layout.addWidget(self.gaps)
        layout.addWidget(sides, 1)

    # -- running -----------------------------------------------------------------------------------------
    def simulate_for(self, resolved: object) -> int:
        """Simulate the task of a resolver result, with that result as the resolver's side."""
        if not isinstance(resolved, ResolveResult):
            return -1
        packs = [res.pack for res in resolved.packs]
        return self.simulate(resolved.task, packs, resolved.budget, resolved)

    def simulate(self, task: str, packs: Sequence[Pack], budget: int, resolved: ResolveResult | None = None) -> int:
        """Run the simulation off the GUI thread; returns the request id."""
        self.latest = request_id = workers.next_request_id()
        self.pool.clear()
        self.title.setText(f"Simulating the three layers for: {task}")
        fn = _in_child if self.in_child_process else _simulate
        cache = None if self.cache_dir is None else str(self.cache_dir)
        workers.submit(fn, task, list(packs), budget, cache, resolved, request_id=request_id, on_done=self._done,
                       on_error=self._failed, pool=self.pool)
        return request_id

    def _done(self, request_id: int, result: object) -> None:
        if request_id != self.latest or not isinstance(result, LayersResult):
            self.dropped += 1
            return
        self.error = ""
        self.show_result(result)

    def _failed(self, request_id: int, text: str) -> None:
        if request_id != self.latest:
            return
        self.error = workers.failure_line(text)
        self.title.setText(f"The layers simulation failed: {self.error}")

    # -- showing -----------------------------------------------------------------------------------------
    def show_result(self, result: LayersResult) -> None:
        self.result = result
        self.title.setText(f"Task: {result.task}    (words: {', '.join(result.terms) or 'none'})")
        text, color = DECISION_TEXT[result.decision]
        self.decision.setText(f" {text} ")
        self.decision.setStyleSheet(f"background: {color}; color: white; border-radius: 3px; padding: 2px 6px;")
        self.reason.setText(result.reason + ("  " + " ".join(result.notes) if result.notes else ""))
        self.layers_bar.set_usage(result.budget, result.total_tokens, [
            Segment(f"L0 index ({result.index.bytes / 1024:.1f} KB)", result.l0_tokens, LAYER_COLORS["L0"]),
            Segment("L1 search results", result.l1_tokens, LAYER_COLORS["L1"]),
            Segment("L2 whole files", result.l2_tokens, LAYER_COLORS["L2"]),
        ])
        picked = sum(p.tokens or 0 for p in result.resolver)
        self.resolver_bar.set_usage(result.budget, result.resolver_tokens,
                                    [Segment("resolver items", picked, LAYER_COLORS["resolver"])])
        gaps = []
        if result.gaps:
            gaps.append("Knowledge gaps (no file mentions them): " + ", ".join(result.gaps))
        if result.unindexed:
            gaps.append("In the text but in no index line (L0 cannot route them): " + ", ".join(result.unindexed))
        self.gaps.setText("\n".join(gaps))
        self.gaps.setVisible(bool(gaps))
        self._fill(result)
        self.result_shown.emit(result)

    def _fill(self, result: LayersResult) -> None:
        for tree in (self.l0, self.l1, self.l2, self.picks):
            tree.clear()
        for m in result.matches:
            found = ", ".join(m.matched) + (f" (partly: {', '.join(m.fuzzy)})" if m.fuzzy else "")
            _add(self.l0, ("=" if m.exact else "~", m.entry.pack, m.entry.path, m.entry.title, found),
                 (m.entry.root, m.entry.path, 1))
        if result.l1 is not None:
            for rank, hit in enumerate(result.l1.hits, 1):
                _add(self.l1, (str(rank), hit.pack, f"{hit.path}:{hit.line}", f"{hit.relevance:.0%}", hit.snippet),
                     (hit.root, hit.path, hit.line))
        for f in result.l2:
            _add(self.l2, ("+" if f.fetched else "-", f.pack, f.path, "?" if f.tokens is None else str(f.tokens),
                           f.reason), (f.root, f.path, 1))
        for pick in result.resolver:
            item = pick.path + (f" § {pick.section}" if pick.section else "")
            _add(self.picks, (pick.pack, item, "?" if pick.tokens is None else str(pick.tokens)),
                 (pick.root, pick.path, pick.line))
        for tree in (self.l0, self.l1, self.l2, self.picks):
            if not tree.topLevelItemCount():
                continue  # keep the default widths: an empty table sized to nothing shows no headers
            for column in range(tree.columnCount() - 1):
                tree.resizeColumnToContents(column)
                tree.setColumnWidth(column, min(tree.columnWidth(column), MAX_COLUMN_PX))

    def _double_clicked(self, item: QTreeWidgetItem, _column: int) -> None:
        where = item.data(0, LOCATION_ROLE)
        if isinstance(where, tuple) and len(where) == 3:
            root, path, line = where
            self.open_location.emit(Path(root) / path, int(line))

    def wait(self, msecs: int = 30_000) -> bool:
        """Wait for a running simulation (tests and shutdown)."""
        return self.pool.waitForDone(msecs)


def _tree(headers: tuple[str, ...]) -> QTreeWidget:
    tree = QTreeWidget()
    tree.setHeaderLabels(list(headers))
    tree.setRootIsDecorated(False)
    tree.setUniformRowHeights(True)
    tree.setAlternatingRowColors(True)
    tree.setTextElideMode(Qt.TextElideMode.ElideMiddle)
    return tree


def _titled(title: str, body: QWidget) -> QWidget:
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    label = QLabel(title)
    font = label.font()
    font.setBold(True)
    label.setFont(font)
    layout.addWidget(label)
    layout.addWidget(body, 1)
    return box


def _add(tree: QTreeWidget, values: tuple[str, ...], where: tuple[str, str, int] | None) -> None:
    item = text_row([str(v) for v in values])  # titles, paths and snippets are the author's text
    if where is not None:
        item.setData(0, LOCATION_ROLE, where)
    tree.addTopLevelItem(item)
