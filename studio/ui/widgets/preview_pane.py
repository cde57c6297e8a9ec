"""Preview tabs beside the editor: the rendered guide, the catalog XML, the activation guide and a fence.

Each text tab is read-only, highlighted, has a Copy button and shows its token count. Previews are
built by ``studio.ui.previews.build_previews`` in a worker; the newest request wins. The encoding and
the fence variant come from the preferences (``set_preferences``).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QTimer, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QTabWidget, QVBoxLayout, QWidget

from studio.core.model import Pack
from studio.core.render.fence import FenceVariant
from studio.core.tokens import DEFAULT_ENCODING
from studio.ui import workers
from studio.ui.child_pool import run_in_child
from studio.ui.highlighter import PygmentsHighlighter
from studio.ui.icons import icon
from studio.ui.previews import PackPreviews, Preview, build_previews, failed_previews
from studio.ui.theme import editor_font, is_dark
from studio.ui.widgets.safe_browser import SafeBrowser


class TextPreview(QWidget):
    """A read-only highlighted text with its token count and a Copy button."""

    def __init__(self, language: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view = QPlainTextEdit(readOnly=True)
        self.view.setFont(editor_font())
        self.view.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.highlighter = PygmentsHighlighter(self.view.document(), language, is_dark())
        self._shown: str | None = None
        self.tokens = QLabel()
        self.note = QLabel(wordWrap=True)
        self.note.hide()
        self.copy_button = QPushButton(icon("copy"), "Copy")
        self.copy_button.clicked.connect(self.copy)
        top = QHBoxLayout()
        top.addWidget(self.tokens, 1)
        top.addWidget(self.copy_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addWidget(self.note)
        layout.addWidget(self.view)

    def show_preview(self, preview: Preview) -> None:
        # A pack's previews are built twice when it is selected (before and after its content checks),
        # usually with the same text: setting and re-highlighting a long fence again costs tens of ms.
        if preview.text != self._shown:
            self._shown = preview.text
            self.highlighter.forget()
            self.view.setPlainText(preview.text)  # the highlighter re-lexes it shortly after
        self.tokens.setText(preview.tokens)
        self.note.setText(preview.note)
        self.note.setVisible(bool(preview.note))
        self.copy_button.setEnabled(bool(preview.text))

    def copy(self) -> None:
        QGuiApplication.clipboard().setText(self.view.toPlainText())


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
        self.catalog = TextPreview("xml")
        self.activation = TextPreview("xml")
        self.fence = TextPreview("xml")
        self.addTab(self.guide, "Guide")
        self.addTab(self.catalog, "Catalog")
        self.addTab(self.activation, "Activation")
        self.addTab(self.fence, "Fence")
        self.pack: Pack | None = None
        self.encoding = DEFAULT_ENCODING
        self.variant = FenceVariant.SUPERSET
        self._latest = 0
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(200)  # typing in KNOWLEDGE.md re-validates often; render at most 5x a second
        self._timer.timeout.connect(self._build)
        self.clear_pack()

    def clear_pack(self) -> None:
        self.pack = None
        self._latest = 0
        self.guide.pack_root = None
        self._guide_shown: tuple[Path, str] | None = None
        self.guide.setHtml("<p style='color:gray'>Select a pack to preview what an agent sees.</p>")
        for tab in (self.catalog, self.activation, self.fence):
            tab.show_preview(Preview("", ""))

    def show_pack(self, pack: Pack) -> None:
        self.pack = pack
        self._timer.start()

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
            lines = trace.strip().splitlines()
            self.show_failure(lines[-1] if lines else "unknown error")

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
        self.activation.show_preview(previews.activation)
        self.fence.show_preview(previews.fence)
        self.built.emit(previews)
