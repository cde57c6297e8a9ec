"""Quick Open (Ctrl+P): a popup at the top of the window that finds a pack by name or a pack file by path.

Listing files and ranking matches are core calls (``studio.core.quick_open``); rows are painted by
``QuickOpenDelegate``. The file listing always runs in a worker. A search runs on the GUI thread only when
the entries it must look at are few (a small workspace, or a long query narrowed by the hit cache); otherwise
it runs in a worker, one at a time: a newer keystroke cancels the running search (it checks every few hundred
entries) and is searched as soon as that one returns, and a result for anything but the latest query is
dropped.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, Signal
from PySide6.QtGui import QFontMetrics, QKeyEvent, QPalette
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QMainWindow,
    QVBoxLayout,
    QWidget,
)

from studio.core.model import Pack
from studio.core.quick_open import (
    DEFAULT_LIMIT,
    MAX_FILES_PER_PACK,
    EntryKind,
    HitCache,
    Index,
    Match,
    PackListing,
    Search,
    normalise_query,
    search,
)
from studio.ui import workers
from studio.ui.models.quick_open import QuickOpenModel
from studio.ui.theme import is_dark
from studio.ui.widgets.quick_open_delegate import QuickOpenDelegate
from studio.ui.widgets.quick_open_workers import LatestSearch, search_job, walk_job

SYNC_LIMIT = 400
"""Entries a search may look at on the GUI thread: scoring costs up to ~25 µs an entry, so this stays ~10 ms."""
REFRESH_AFTER_S = 30.0
"""Opening the popup re-lists every pack when the last listing is older than this (files come and go)."""
VISIBLE_ROWS = 12
WIDTH_RANGE = (460, 760)


class QuickOpen(QFrame):
    """The Quick Open popup. Give it the workspace's packs with ``set_packs`` and show it with ``popup``.

    Signals:
        pack_chosen(object): the root (Path) of the pack the user picked.
        file_chosen(object): the path (Path) of the file the user picked.
        results_shown(str): the normalised query whose results the list now shows.
        index_ready(int): a (re)built index of this many entries is in use.
    """

    pack_chosen = Signal(object)
    file_chosen = Signal(object)
    results_shown = Signal(str)
    index_ready = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Popup | Qt.WindowType.FramelessWindowHint)
        self.setObjectName("quickOpen")
        self.sync_limit = SYNC_LIMIT
        self.field = QLineEdit(placeholderText="Search packs by name and files by path")
        self.field.setAccessibleName("Quick open")
        self.field.setClearButtonEnabled(True)
        self.field.setMinimumHeight(QFontMetrics(self.field.font()).height() + 14)
        self.model = QuickOpenModel(self)
        self.view = QListView()
        self.view.setModel(self.model)
        self.view.setItemDelegate(QuickOpenDelegate(self.view))
        self.view.setUniformItemSizes(True)
        self.view.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # typing stays in the field
        self.view.setFrameShape(QFrame.Shape.NoFrame)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.view.setMouseTracking(True)
        self.status = QLabel()
        self.hint = QLabel("↑↓ move · Enter open · Esc close")
        for label in (self.status, self.hint):
            label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        footer = QHBoxLayout()
        footer.setContentsMargins(10, 2, 10, 6)
        footer.addWidget(self.status, 1)
        footer.addWidget(self.hint)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 0)
        layout.setSpacing(4)
        layout.addWidget(self.field)
        layout.addWidget(self.view)
        layout.addLayout(footer)
        self.field.textChanged.connect(self._refilter)
        self.field.installEventFilter(self)
        self.view.clicked.connect(lambda index: self.open_row(index.row()))

        self._packs: dict[Path, Pack] = {}
        self._incoming: list[Pack] | None = None
        """Packs given while the popup was hidden, not yet taken in (``set_packs``)."""
        self._generation = 0
        """Bumped by every ``set_packs``: a listing started under an older one may not describe the packs."""
        self._listed: dict[Path, tuple[Pack, PackListing]] = {}
        """Root -> (the Pack object that was listed, its listing)."""
        self.index = Index([])
        self._index_generation = 0
        """The generation of the packs the index was made for (perhaps without all of their files)."""
        self._complete: int | None = None
        """The generation the index lists every file of; None while it lacks some (names only, or filtered)."""
        self._cache = HitCache(self.index)
        self._walk: tuple[int, threading.Event, list[Pack], int] | None = None
        """The running listing: request id, its stop flag, the packs it lists, the generation it started in."""
        self._walked_at: float | None = None
        self._refresh_all = False
        self._latest = LatestSearch()
        self._searching = False
        self._search_again = False
        self._shown: Search | None = None

    # -- packs and the index ---------------------------------------------------------------------------
    def set_packs(self, packs: Iterable[Pack]) -> None:
        """The workspace's packs now. Cheap while hidden: they are only kept until the popup opens, where changed
        packs are listed again (at once, in a worker, while it is showing). Even putting 10,000 packs in a
        dictionary by folder took 30 ms of the window's time at the end of each scan."""
        self._incoming = list(packs)
        if self.isVisible() or not self._incoming:  # none (a scan starts): cheap, and lets go of the last ones
            self._take_incoming()

    def _take_incoming(self) -> None:
        if self._incoming is not None:
            packs, self._incoming = self._incoming, None
            self._packs = {pack.root: pack for pack in packs}
            self._changed()

    def update_pack(self, pack: Pack) -> None:
        """One pack was reloaded (``set_packs`` with just that pack replaced)."""
        self._take_incoming()
        if self._packs.get(pack.root) is not pack:
            self._packs[pack.root] = pack
            self._changed()

    def _changed(self) -> None:
        self._generation += 1
        self._listed = {root: held for root, held in self._listed.items() if root in self._packs}
        if self._walk is not None and any(self._packs.get(p.root) is not p for p in self._walk[2]):
            self._walk[1].set()  # what it lists is out of date: stop it, keep what it did, list again
        if self.isVisible():
            self._prepare_index()
            self._start_walk()

    def _prepare_index(self) -> None:
        """Make the index usable now, until a listing completes it: names alone, or without departed packs."""
        if not self._listed:
            if self._index_generation != self._generation:
                self._use_index(Index(PackListing(p.root, p.name, []) for p in self._packs.values()), None)
        elif any(root not in self._packs for root in self.index.roots):
            self._use_index(self.index.without(set(self.index.roots) - self._packs.keys()), None)

    def _stale(self) -> list[Pack]:
        if self._refresh_all:
            return list(self._packs.values())
        return [p for root, p in self._packs.items() if (held := self._listed.get(root)) is None or held[0] is not p]

    def _start_walk(self) -> None:
        if self._walk is not None:
            return  # its completion starts the next walk if anything is still stale
        stale = self._stale()
        if not stale and self._complete == self._generation:
            return
        stop = threading.Event()
        stale_roots = {p.root for p in stale}
        keep = [listing for root, (_p, listing) in self._listed.items() if root not in stale_roots]
        request = workers.submit(walk_job, stale, keep, stop, on_done=self._walk_done, on_error=self._walk_failed)
        self._walk = (request, stop, stale, self._generation)
        self._refresh_all = False
        self._show_status()

    def _walk_done(self, request_id: int, result: tuple[list[PackListing], Index | None]) -> None:
        if self._walk is None or self._walk[0] != request_id:
            return
        _request, _stop, walked, generation = self._walk
        self._walk = None
        listings, index = result
        for pack, listing in zip(walked, listings, strict=False):  # a stopped walk lists only the first few
            if self._packs.get(pack.root) is pack:
                self._listed[pack.root] = (pack, listing)
        if index is not None and generation == self._generation:
            self._walked_at = time.monotonic()
            self._use_index(index, generation)
        elif self.isVisible():
            self._start_walk()
        else:
            self._show_status()

    def _walk_failed(self, request_id: int, text: str) -> None:
        if self._walk is not None and self._walk[0] == request_id:
            self._walk = None
            self.status.setText("Listing pack files failed; see the log")
            self.status.setToolTip(text)

    def _use_index(self, index: Index, complete: int | None) -> None:
        self.index = index
        self._index_generation = self._generation
        self._complete = complete
        self._cache = HitCache(index)
        self.index_ready.emit(len(index))
        if self.isVisible():
            self._refilter()

    @property
    def indexing(self) -> bool:
        """True while pack files are being listed."""
        return self._walk is not None

    # -- showing ---------------------------------------------------------------------------------------
    def _style(self) -> None:
        """One background for field, list and footer, and a quiet border, in the current palette."""
        parent = self.parentWidget()
        palette = parent.palette() if parent is not None else self.palette()
        base = palette.color(QPalette.ColorRole.Base)
        border = palette.color(QPalette.ColorRole.Mid if not is_dark() else QPalette.ColorRole.Light)
        own = QPalette(palette)
        own.setColor(QPalette.ColorRole.Window, base)
        self.setPalette(own)
        self.setAutoFillBackground(True)
        self.setStyleSheet(f"QFrame#quickOpen {{ border: 1px solid {border.name()}; border-radius: 3px; }}")

    def popup(self) -> None:
        """Show at the top centre of the parent window with the last query selected, ready to type."""
        if self._walked_at is not None and time.monotonic() - self._walked_at > REFRESH_AFTER_S:
            self._refresh_all = True
        self._take_incoming()
        self._prepare_index()
        self._style()
        self._place()
        self.show()
        self.raise_()
        self.activateWindow()
        self.field.setFocus(Qt.FocusReason.PopupFocusReason)
        self.field.selectAll()
        self._start_walk()
        self._refilter()

    def _place(self) -> None:
        parent = self.parentWidget()
        if parent is None:
            self.resize(WIDTH_RANGE[0], self.sizeHint().height())
            return
        window = parent.window()
        width = max(min(int(window.width() * 0.6), WIDTH_RANGE[1]), min(WIDTH_RANGE[0], window.width() - 16))
        top = 0
        central = window.centralWidget() if isinstance(window, QMainWindow) else None
        if central is not None:
            top = central.mapTo(window, QPoint(0, 0)).y()
        origin = window.mapToGlobal(QPoint((window.width() - width) // 2, top + 6))
        self.setFixedWidth(width)
        self.move(origin)

    def _fit_height(self) -> None:
        rows = min(max(self.model.rowCount(), 1), VISIBLE_ROWS)
        row = self.view.sizeHintForRow(0) if self.model.rowCount() else QFontMetrics(self.font()).height() + 12
        self.view.setFixedHeight(rows * row + 2 * self.view.frameWidth() + 2)
        self.adjustSize()

    # -- searching -------------------------------------------------------------------------------------
    def _refilter(self) -> None:
        query = normalise_query(self.field.text())
        self._latest.id = workers.next_request_id()
        cached = self._cache.get(query)
        if cached is not None:
            self._show(cached)
            return
        among = self._cache.among(query)
        if (len(among) if among is not None else len(self.index)) <= self.sync_limit:
            found = search(query, self.index, DEFAULT_LIMIT, among)
            assert found is not None  # nothing can cancel it
            self._cache.remember(found)
            self._show(found)
            return
        if self._searching:
            self._search_again = True  # the running search sees it is stale and stops; then this one runs
            return
        self._searching = True
        self._show_status()
        workers.submit(search_job, query, self.index, among, self._latest, self._latest.id,
                       request_id=self._latest.id, on_done=self._search_done, on_error=self._search_failed)

    def _search_done(self, request_id: int, result: tuple[Index, Search | None]) -> None:
        self._searching = False
        index, found = result
        if found is not None and index is self.index:
            self._cache.remember(found)
            if request_id == self._latest.id:
                self._show(found)
        if self._search_again:  # a newer query came while this one ran (it was dropped or cancelled)
            self._search_again = False
            self._refilter()
        else:
            self._show_status()

    def _search_failed(self, _request_id: int, text: str) -> None:
        self._searching = False
        self.status.setText("Search failed; see the log")
        self.status.setToolTip(text)

    def _show(self, found: Search) -> None:
        current = self.current_match()
        keep = current.entry.path if current is not None and self._shown is not None \
            and self._shown.query == found.query else None
        self._shown = found
        self.model.set_results(found.results)
        row = next((i for i, m in enumerate(found.results) if m.entry.path == keep), 0)
        if found.results:
            self.view.setCurrentIndex(self.model.index(row, 0))
        self._show_status()
        self._fit_height()
        self.results_shown.emit(found.query)

    def _show_status(self) -> None:
        parts: list[str] = []
        found = self._shown
        packs = len(self._packs)
        if self._walk is not None and not self._listed:
            parts.append(f"Listing files in {packs:,} pack{'s' * (packs != 1)}…")
        elif found is None or not found.query:
            parts.append(f"{packs:,} pack{'s' * (packs != 1)}, {len(self.index) - packs:,} files")
        elif not found.hits:
            parts.append(f"No pack or file matches “{self.field.text().strip()}”")
        elif len(found.hits) > len(found.results):
            parts.append(f"Best {len(found.results):,} of {len(found.hits):,} matches")
        else:
            parts.append(f"{len(found.hits):,} match{'es' * (len(found.hits) != 1)}")
        if self._searching:
            parts.append("searching…")
        truncated = sum(1 for _p, listing in self._listed.values() if listing.truncated)
        if truncated:
            parts.append(f"{truncated:,} pack{'s' * (truncated != 1)} list only their first "
                         f"{MAX_FILES_PER_PACK:,} files")
        self.status.setText(" · ".join(parts))
        self.status.setToolTip("")

    # -- choosing --------------------------------------------------------------------------------------
    def current_match(self) -> Match | None:
        return self.model.match_at(self.view.currentIndex().row())

    def open_row(self, row: int) -> None:
        """Close and emit ``pack_chosen`` or ``file_chosen`` for the row's entry."""
        found = self.model.match_at(row)
        if found is None:
            return
        self.hide()
        entry = found.entry
        if entry.kind is EntryKind.PACK:
            self.pack_chosen.emit(entry.root)
        else:
            self.file_chosen.emit(entry.path)

    def _step(self, delta: int) -> None:
        count = self.model.rowCount()
        if count:
            row = min(max(self.view.currentIndex().row() + delta, 0), count - 1)
            self.view.setCurrentIndex(self.model.index(row, 0))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.field and event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            key = event.key()
            page = max(self.view.height() // max(self.view.sizeHintForRow(0), 1) - 1, 1)
            steps = {Qt.Key.Key_Down: 1, Qt.Key.Key_Up: -1, Qt.Key.Key_PageDown: page, Qt.Key.Key_PageUp: -page}
            if key in steps:
                self._step(steps[Qt.Key(key)])
                return True
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self.open_row(self.view.currentIndex().row())
                return True
            if key == Qt.Key.Key_Escape:
                self.hide()
                return True
        return super().eventFilter(watched, event)
