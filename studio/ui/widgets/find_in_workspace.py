"""Find in Workspace (Ctrl+Shift+F): a query box, filters, and the results grouped by pack.

Typing searches after a short pause (Enter searches at once) through ``SearchService``, which runs the query
in a worker; only the answer to the latest query is shown. Filters narrow by pack, discovery scope and kind of
section. Clicking (or Enter on) a hit emits ``open_location(path, line)``; the snippet column shows the
matched words in bold, painted from the core's highlight offsets (never parsed as markup).

Signals:
    open_location(Path, int): the file and 1-based line of the hit the user chose.
"""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, Qt, Signal
from PySide6.QtGui import QFontMetrics, QPainter
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListView,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from studio.core.model import Pack, Scope
from studio.core.search import RefreshReport, SearchHit, SearchResults
from studio.core.search.files import KINDS
from studio.ui.debounce import debounce_timer
from studio.ui.fit import FlowLayout
from studio.ui.models.pack_choices import PackChoicesModel
from studio.ui.models.search_results import HIT_ROLE, SearchResultsModel
from studio.ui.search_service import SearchService
from studio.ui.widgets.marked_text import draw_marked, paint_row_without_text, text_colours

DEBOUNCE_MS = 200
REOPEN_S = 0.5
LIMIT = 200
ALL = ""
QUERY_MIN_CHARS = 24
"""The query box is never narrower than this many characters (the filters wrap onto the next line first)."""


class SnippetDelegate(QStyledItemDelegate):
    """Paints a hit's snippet with its matches in bold and the accent colour."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
              ) -> None:
        hit = index.data(HIT_ROLE)
        if not isinstance(hit, SearchHit):
            super().paint(painter, option, index)
            return
        opt = paint_row_without_text(self, painter, option, index)
        rect = QRect(opt.rect).adjusted(4, 0, -4, 0)
        metrics = QFontMetrics(opt.font)
        baseline = rect.top() + (rect.height() - metrics.height()) // 2 + metrics.ascent()
        painter.save()
        painter.setClipRect(rect)
        draw_marked(painter, rect.left(), baseline, runs(hit.snippet, hit.highlights), opt.font, text_colours(opt),
                    right=rect.right())
        painter.restore()


def runs(text: str, spans: tuple[tuple[int, int], ...]) -> list[tuple[str, bool]]:
    """``text`` cut into (piece, highlighted?) runs by the (start, end) ``spans``."""
    out: list[tuple[str, bool]] = []
    last = 0
    for start, end in sorted(spans):
        start, end = max(start, last), min(end, len(text))
        if start >= end:
            continue
        if start > last:
            out.append((text[last:start], False))
        out.append((text[start:end], True))
        last = end
    if last < len(text):
        out.append((text[last:], False))
    return out


class FindInWorkspacePanel(QWidget):
    """Search box, filters and grouped results over a ``SearchService``."""

    open_location = Signal(Path, int)

    def __init__(self, service: SearchService, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.service = service
        self.packs: list[Pack] = []
        self.latest = -1
        self.result: SearchResults | None = None
        self._last_open: tuple[tuple[str, str, int] | None, float] = (None, 0.0)
        self.dropped = 0
        """Answers that arrived after a newer query was sent (counted, never shown)."""
        self._debounce = debounce_timer(self, DEBOUNCE_MS, self.search_now)

        self.query = QLineEdit(placeholderText="Find in workspace: words, \"a phrase\", prefix*")
        self.query.setClearButtonEnabled(True)
        self.query.textChanged.connect(lambda _t: self._debounce.start())
        self.query.returnPressed.connect(self.search_now)
        self.pack_filter = QComboBox()
        self.pack_choices = PackChoicesModel("All packs", self)
        self.pack_filter.setModel(self.pack_choices)
        self.pack_choices.rows_set.connect(self._keep_pack_choice)
        self.scope_filter = QComboBox()
        self.kind_filter = QComboBox()
        self.kind_filter.addItem("All kinds", ALL)
        for kind in KINDS:
            self.kind_filter.addItem(kind, kind)
        for combo in (self.pack_filter, self.scope_filter, self.kind_filter):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
            combo.currentIndexChanged.connect(lambda _i: self.search_now())
        # Sized by a typical name, not by measuring every pack's (thousands of rows); the list it opens lays out
        # only the rows in sight.
        self.pack_filter.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.pack_filter.setMinimumContentsLength(18)
        popup = self.pack_filter.view()
        if isinstance(popup, QListView):
            popup.setUniformItemSizes(True)
        # The query and its filters share one line (wrapping onto more in a narrow dock), and the status line
        # shows only when it has something to say: in a dock a third of a 700-pixel window, every line above the
        # results was a row of results less (about two were left at 1024x700).
        filters = FlowLayout()
        filters.add(self.query, stretch=True)
        self.query.setMinimumWidth(self.query.fontMetrics().horizontalAdvance("x") * QUERY_MIN_CHARS)
        for combo in (self.pack_filter, self.scope_filter, self.kind_filter):
            filters.add(combo)
        self.status = QLabel()
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.status.setWordWrap(True)
        self.status.hide()

        self.model = SearchResultsModel(self)
        self.tree = QTreeView()
        self.tree.setModel(self.model)
        self.tree.setUniformRowHeights(True)
        self.tree.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.tree.setItemDelegateForColumn(3, SnippetDelegate(self.tree))
        header = self.tree.header()
        header.setStretchLastSection(True)
        header.resizeSection(0, 280)
        header.resizeSection(1, 150)
        # Wide enough for its header and for "100%" in the header's font.
        header.resizeSection(2, header.fontMetrics().horizontalAdvance("Relevance") + 16)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Fixed)
        # The end of a path and its line number say the most: cut the start when it does not fit.
        self.tree.setTextElideMode(Qt.TextElideMode.ElideLeft)
        self.tree.activated.connect(self._chosen)
        self.tree.clicked.connect(self._chosen)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(filters)
        layout.addWidget(self.status)
        layout.addWidget(self.tree, 1)
        service.results.connect(self._answered)
        service.indexing.connect(self._indexing)
        service.index_ready.connect(self._indexed)
        service.notice.connect(self._notice)
        self.set_packs([])

    def _say(self, text: str) -> None:
        """Show ``text`` on the status line, which takes no room while it is empty."""
        self.status.setText(text)
        self.status.setVisible(bool(text))

    # -- inputs ----------------------------------------------------------------------------------------
    def set_packs(self, packs: list[Pack]) -> None:
        """The workspace's packs: what is searched, and what the pack and scope filters offer."""
        self.packs = list(packs)
        current_pack = self.pack_filter.currentData() or ALL
        current_scope = self.scope_filter.currentData()
        for combo in (self.pack_filter, self.scope_filter):
            combo.blockSignals(True)
        self.pack_choices.set_packs(self.packs, keep=current_pack)  # one reset, however many packs
        self.scope_filter.clear()
        self.scope_filter.addItem("All scopes", ALL)
        present = {p.scope for p in self.packs}
        for scope in Scope:
            if scope in present:
                self.scope_filter.addItem(scope.value, scope.value)
        self.scope_filter.setCurrentIndex(max(self.scope_filter.findData(current_scope), 0))
        for combo in (self.pack_filter, self.scope_filter):
            combo.blockSignals(False)

    def _keep_pack_choice(self, row: int) -> None:
        """The pack filter's rows were made again: the pack chosen before stays chosen (the first row if gone)."""
        was_blocked = self.pack_filter.blockSignals(True)
        self.pack_filter.setCurrentIndex(row)
        self.pack_filter.blockSignals(was_blocked)

    def activate(self, text: str = "") -> None:
        """Focus the query box (Ctrl+Shift+F), optionally with ``text`` (e.g. the editor's selection)."""
        if text:
            self.query.setText(text)
        self.query.setFocus()
        self.query.selectAll()

    def roots(self) -> list[str]:
        """The pack folders the filters leave in."""
        pack = self.pack_filter.currentData() or ALL
        scope = self.scope_filter.currentData() or ALL
        return [str(p.root) for p in self.packs
                if (pack == ALL or str(p.root) == pack) and (scope == ALL or p.scope.value == scope)]

    def search_now(self) -> int:
        """Send the query now; returns the request id (-1 when there is nothing to search)."""
        self._debounce.stop()
        text = self.query.text()
        if not text.strip():
            self.latest = -1
            self.model.set_hits([])
            self._say("")
            return -1
        kind = self.kind_filter.currentData() or ALL
        self.latest = self.service.search(text, roots=self.roots(), kinds=None if kind == ALL else [kind],
                                          limit=LIMIT)
        return self.latest

    # -- answers ---------------------------------------------------------------------------------------
    def _answered(self, request_id: int, result: object) -> None:
        if request_id != self.latest or not isinstance(result, SearchResults):
            self.dropped += 1
            return
        self.result = result
        self.model.set_hits(result.hits)
        self.tree.expandAll()
        self._say(describe(result, self.model.pack_count(), self.service.refreshing))

    def _chosen(self, index: QModelIndex) -> None:
        hit = index.data(HIT_ROLE)
        if not isinstance(hit, SearchHit):
            return
        # A click and the activation that may follow it (double-click, or a style that activates on click)
        # open the same place once.
        now = time.monotonic()
        key = (hit.root, hit.path, hit.line)
        if key == self._last_open[0] and now - self._last_open[1] < REOPEN_S:
            return
        self._last_open = (key, now)
        self.open_location.emit(Path(hit.root) / hit.path, hit.line)

    def _indexing(self, done: int, total: int) -> None:
        if total:
            self._say(f"Indexing the workspace: {done:,} of {total:,} files ({done * 100 // total}%)...")

    def _indexed(self, report: object) -> None:
        if isinstance(report, RefreshReport) and self.query.text().strip():
            self.search_now()  # the index changed under the query on screen
        elif isinstance(report, RefreshReport):
            skipped = sum(report.skipped.values())
            self._say(f"Index ready: {report.files:,} files ({skipped:,} skipped).")

    def _notice(self, message: str) -> None:
        self._say(message)


def describe(result: SearchResults, packs: int, indexing: bool) -> str:
    """The status line under the query box."""
    if result.problem:
        return result.problem
    found = len(result.hits)
    if not found:
        text = "No results."
    else:
        how = " (no section has every word; showing sections with any of them)" if result.matched == "any" else ""
        text = f"{found} result{'s' if found != 1 else ''} in {packs} pack{'s' if packs != 1 else ''}{how}."
    if result.note:
        text += " " + result.note
    if indexing:
        text += " Indexing is still running; results may be incomplete."
    return text
