"""Preview tabs beside the editor: the rendered guide, the catalog XML, the activation guide and a fence.

The Activation tab has an "As a tool" toggle: the same listing as an ``# Input Files`` block with stable ids and
the ``read_files`` tool an agent would call.

Each text tab is read-only, highlighted, has a Copy button and shows its token count. Previews are
built by ``studio.ui.previews.build_previews`` in a worker; the newest request wins. The encoding and
the fence variant come from the preferences (``set_preferences``).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QTabWidget,
    QWidget,
)

from studio.core.model import Pack
from studio.core.render.fence import FenceVariant
from studio.core.tokens import DEFAULT_ENCODING
from studio.ui import workers
from studio.ui.child_pool import run_in_child
from studio.ui.debounce import debounce_timer
from studio.ui.previews import PackPreviews, Preview, build_previews, failed_previews
from studio.ui.widgets.catalog_preview import CatalogPreview
from studio.ui.widgets.safe_browser import SafeBrowser
from studio.ui.widgets.text_preview import TextPreview


class ActivationPreview(TextPreview):
    """The Activation tab: the guide, or with "As a tool" ticked, its resource list as a file list plus a
    ``read_files`` tool (``render.tool_form``). Both texts arrive together, so the toggle never waits.

    Signals:
        as_tool_changed(bool): the toggle changed (the text shown has already switched).
    """

    as_tool_changed = Signal(bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("xml", parent)
        self.as_tool = QCheckBox("As a tool")
        self.as_tool.setToolTip("Show the resource list as an agent gets it with a read_files tool: an "
                                "'# Input Files' block with stable file ids, and the tool's JSON Schema")
        self.as_tool.toggled.connect(self._toggled)
        self.top.insertWidget(1, self.as_tool)
        self.guide_preview = Preview("", "")
        self.tool_preview: Preview | None = None

    def show_previews(self, guide: Preview, tool: Preview | None) -> None:
        """Keep both forms and show the one the toggle asks for (the toggle is disabled without a tool form)."""
        self.guide_preview, self.tool_preview = guide, tool
        self.as_tool.setEnabled(tool is not None and bool(guide.text))
        self._show_current()

    def _toggled(self, checked: bool) -> None:
        self._show_current()
        self.as_tool_changed.emit(checked)

    def _show_current(self) -> None:
        tool = self.tool_preview
        self.show_preview(tool if self.as_tool.isChecked() and tool is not None else self.guide_preview)


class PreviewPane(QTabWidget):
    """Signals:
        open_file(Path): a link in the guide points at a pack file.
        built(object): previews for the current pack arrived (tests wait on this).
    """

    open_file = Signal(Path)
    built = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.guide = SafeBrowser()
        self.guide.open_file.connect(self.open_file)
        self.catalog = CatalogPreview()
        self.activation = ActivationPreview()
        self.fence = TextPreview("xml")
        self.addTab(self.guide, "Guide")
        self.addTab(self.catalog, "Catalog")
        self.addTab(self.activation, "Activation")
        self.addTab(self.fence, "Fence")
        self.pack: Pack | None = None
        self.encoding = DEFAULT_ENCODING
        self.variant = FenceVariant.SUPERSET
        self._latest = 0
        # Typing in KNOWLEDGE.md re-validates often: render at most 5 times a second.
        self._timer = debounce_timer(self, 200, self._build)
        self.clear_pack()

    def clear_pack(self) -> None:
        self.pack = None
        self._latest = 0
        self.guide.pack_root = None
        self._guide_shown: tuple[Path, str] | None = None
        self.guide.setHtml("<p style='color:gray'>Select a pack to preview what an agent sees.</p>")
        for tab in (self.catalog, self.fence):
            tab.show_preview(Preview("", ""))
        self.activation.show_previews(Preview("", ""), None)

    def show_pack(self, pack: Pack) -> None:
        self.pack = pack
        self._timer.start()

    def set_workspace_packs(self, packs: list[Pack]) -> None:
        """Every pack of the workspace, for the Catalog tab's compressed index."""
        self.catalog.set_packs(packs)

    def set_preferences(self, encoding: str, variant: FenceVariant) -> None:
        """Count tokens with ``encoding`` and fence with ``variant`` from now on (rebuilds what is shown)."""
        if (encoding, variant) == (self.encoding, self.variant):
            return
        self.encoding, self.variant = encoding, variant
        if self.pack is not None:
            self._timer.start()

    def _build(self) -> None:
        if self.pack is not None:
            # Rendering and token counting run in the child process: in a thread they would hold the GIL.
            self._latest = workers.submit(run_in_child, build_previews, self.pack, self.encoding, self.variant,
                                         on_done=self._built, on_error=self._failed)

    def _failed(self, request_id: int, trace: str) -> None:
        if request_id == self._latest and self.pack is not None:
            self.show_failure(workers.failure_line(trace))

    def show_failure(self, reason: str) -> None:
        """Show that the previews of the current pack failed (every token count reads "cannot count: ...")."""
        if self.pack is not None:
            self._built(self._latest, failed_previews(reason))

    def _built(self, request_id: int, previews: PackPreviews) -> None:
        if request_id != self._latest or self.pack is None:
            return
        self.guide.pack_root = self.pack.root
        shown = (self.pack.root, previews.guide_html)  # images resolve against the root
        if shown != self._guide_shown:  # built twice per selection, usually the same
            self._guide_shown = shown
            self.guide.setHtml(previews.guide_html)
        self.catalog.show_preview(previews.catalog)
        self.activation.show_previews(previews.activation, previews.activation_tool)
        self.fence.show_preview(previews.fence)
        self.built.emit(previews)
