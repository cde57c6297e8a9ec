"""The Catalog preview tab: this pack's catalog XML, or the workspace's compressed knowledge index (L0).

The compressed index reads every runtime file of the packs it covers, so it is built in the child process and
only while it is on screen; scope, type and pack filters bring it under its byte budget (a note past 10 KB, a
warning past 20 KB, both in the text's header).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QButtonGroup, QComboBox, QLineEdit, QRadioButton, QVBoxLayout, QWidget

from studio.core.model import Pack, Scope
from studio.core.search.compressed import build_compressed_index, preview_text, select_packs
from studio.ui import workers
from studio.ui.child_pool import run_in_child
from studio.ui.debounce import debounce_timer
from studio.ui.fit import FlowLayout
from studio.ui.previews import Preview
from studio.ui.widgets.text_preview import TextPreview

ANY = "any"
REBUILD_MS = 300


def compressed_for(packs: list[Pack], scopes: tuple[str, ...], types: tuple[str, ...],
                   names: tuple[str, ...], cache_dir: Path | None = None) -> Preview:
    """The L0 index of the chosen packs as a preview (runs in the child process: it reads every runtime file).

    ``cache_dir``: the search index's folder, whose kept token counts spare counting every file again."""
    index = build_compressed_index(select_packs(packs, scopes=scopes, types=types, names=names), cache_dir=cache_dir)
    tokens = f"{index.tokens:,} tokens" if index.tokens is not None else "tokens not counted"
    return Preview(preview_text(index), f"{index.bytes:,} bytes, {tokens} for {index.packs} pack(s)")


class CatalogPreview(QWidget):
    """Signals:
        compressed_built(object): the compressed index now shown (a ``Preview``; tests wait on it).
    """

    compressed_built = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.xml = TextPreview("xml")
        self.index = TextPreview("text")
        self.packs: list[Pack] = []
        self._types_stale = False
        self.cache_dir: Path | None = None
        """The search index's folder (the window sets it): token counts kept there are not counted again."""
        self._stale = True
        self._latest = 0
        self.this_pack = QRadioButton("This pack (catalog XML)")
        self.workspace = QRadioButton("Compressed index (workspace)")
        self.this_pack.setChecked(True)
        group = QButtonGroup(self)
        for button in (self.this_pack, self.workspace):
            group.addButton(button)
        self.workspace.toggled.connect(self._switched)
        self.scope = QComboBox()
        self.scope.addItem("every scope", ANY)
        for scope in Scope:
            self.scope.addItem(scope.value, scope.value)
        self.type = QComboBox()
        self.type.addItem("every type", ANY)
        self.pack_name = QLineEdit(placeholderText="pack names, comma-separated")
        for signal in (self.scope.currentIndexChanged, self.type.currentIndexChanged, self.pack_name.textChanged):
            signal.connect(self._filters_changed)
        self.filters = QWidget()
        row = FlowLayout(self.filters)
        for widget in (self.scope, self.type):
            row.add(widget)
        row.add(self.pack_name, stretch=True)
        self._timer = debounce_timer(self, REBUILD_MS, self._build)
        switch = FlowLayout()
        switch.add(self.this_pack)
        switch.add(self.workspace)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(switch)
        layout.addWidget(self.filters)
        layout.addWidget(self.xml, 1)
        layout.addWidget(self.index, 1)
        self._switched(False)

    def show_preview(self, preview: Preview) -> None:
        """This pack's catalog XML."""
        self.xml.show_preview(preview)

    def set_packs(self, packs: Sequence[Pack]) -> None:
        """The workspace's packs; the compressed index (and its type filter) is made again when next on screen."""
        self.packs = list(packs)
        self._types_stale = True
        self._filters_changed()

    def _refresh_types(self) -> None:
        """The type filter's choices: read from every pack, so only when the compressed index is on screen
        (30 ms at 10,000 packs, paid at every scan's end before)."""
        self._types_stale = False
        types = sorted({p.type for p in self.packs if p.type})
        current = self.type.currentData()
        self.type.blockSignals(True)
        self.type.clear()
        self.type.addItem("every type", ANY)
        for value in types:
            self.type.addItem(value, value)
        self.type.setCurrentIndex(max(0, self.type.findData(current)))
        self.type.blockSignals(False)

    def _switched(self, compressed: bool) -> None:
        self.xml.setVisible(not compressed)
        self.index.setVisible(compressed)
        self.filters.setVisible(compressed)
        if compressed and self._stale:
            self._timer.start()

    def _filters_changed(self) -> None:
        self._stale = True
        if self.workspace.isChecked() and self.isVisible():
            self._timer.start()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        if self.workspace.isChecked() and self._stale:
            self._timer.start()

    def _build(self) -> None:
        self._stale = False
        if self._types_stale:
            self._refresh_types()
        scope, kind = self.scope.currentData(), self.type.currentData()
        names = tuple(n.strip() for n in self.pack_name.text().split(",") if n.strip())
        self.index.show_preview(Preview(self.index.view.toPlainText(), "building the compressed index …"))
        self._latest = workers.submit(run_in_child, compressed_for, self.packs,
                                      () if scope == ANY else (scope,), () if kind == ANY else (kind,), names,
                                      self.cache_dir, on_done=self._built)

    def _built(self, request_id: int, preview: Preview) -> None:
        if request_id == self._latest:
            self.index.show_preview(preview)
            self.compressed_built.emit(preview)
