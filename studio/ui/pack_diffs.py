"""Pack diffs in the window: ask what to compare the pack with, compare in a worker, show the report.

Three ways in: the Workspace tree's context menu ("Compare with git ref…", "Compare with folder…") and Review
mode ("Changes since the last review decision"). The comparison (``studio.core.diff.request``) reads a ref
through git into a private temporary folder, loads and validates both versions and runs the resolver and the
pack's evals: 60-300 ms, so it runs in the thread pool, and only the answer to the latest request is shown.
One ``DiffDialog`` at a time, raised again for the next comparison.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QFileDialog, QInputDialog, QWidget

from studio.core.diff.markdown import render_markdown
from studio.core.diff.request import DiffOutcome, DiffRequest, run_request
from studio.core.model import Pack
from studio.ui.panels.diff_view import DiffDialog
from studio.ui.workers import failure_line, submit

WHAT = {"ref": "at {value}", "folder": "against {value}", "review": "since its last review decision"}


def compare_and_render(request: DiffRequest) -> tuple[DiffOutcome, str]:
    """In the worker: the comparison and its Markdown (for Copy as Markdown), so the window only shows them."""
    outcome = run_request(request)
    return outcome, render_markdown(outcome.report) if outcome.report is not None else ""


class PackDiffs(QObject):
    """Owns the diff dialog; ``ask`` asks for a ref or a folder, ``compare`` runs and shows a comparison.

    ``ask_ref`` and ``ask_folder`` are replaceable, so a test can answer them.
    """

    def __init__(self, parent: QWidget, say: Callable[[str], None]) -> None:
        super().__init__(parent)
        self.parent_widget = parent
        self.say = say
        self.dialog: DiffDialog | None = None
        self.pending = 0
        """The request whose answer is awaited (0: none)."""
        self.ask_ref: Callable[[Pack], str | None] = self._ask_ref
        self.ask_folder: Callable[[Pack], str | None] = self._ask_folder

    def ask(self, pack: Pack, kind: str) -> None:
        """From the tree's menu: ask for the ref (``ref``) or the folder (``folder``), then compare."""
        value = self.ask_ref(pack) if kind == "ref" else self.ask_folder(pack)
        if value:
            self.compare(pack, kind, value)

    def since_review(self, pack: Pack) -> None:
        self.compare(pack, "review")

    def compare(self, pack: Pack, kind: str, value: str = "") -> DiffDialog:
        dialog = self._dialog()
        what = f"{pack.name} {WHAT[kind].format(value=value)}"
        dialog.setWindowTitle(f"Pack diff: {pack.name}")
        dialog.view.show_waiting(what)
        dialog.copy_button.setEnabled(False)
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
        self.pending = submit(compare_and_render, DiffRequest(pack, kind, value),
                              on_done=lambda rid, result: self._done(rid, what, result),
                              on_error=lambda rid, trace: self._failed(rid, what, trace))
        return dialog

    def _dialog(self) -> DiffDialog:
        if self.dialog is None:
            self.dialog = DiffDialog(self.parent_widget)
            self.dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            self.dialog.finished.connect(self._closed)
            self.dialog.copied.connect(lambda: self.say("The diff report is on the clipboard as Markdown"))
        return self.dialog

    def _closed(self, _result: int) -> None:
        self.dialog = None
        self.pending = 0

    def _done(self, request_id: int, what: str, result: object) -> None:
        if request_id != self.pending or self.dialog is None or not isinstance(result, tuple):
            return
        self.pending = 0
        outcome, markdown = result
        if not isinstance(outcome, DiffOutcome) or outcome.report is None:
            self.dialog.view.show_trouble(what, outcome.trouble if isinstance(outcome, DiffOutcome) else "no answer")
            return
        self.dialog.show_report(outcome.report, str(markdown), outcome.base)

    def _failed(self, request_id: int, what: str, trace: str) -> None:
        if request_id != self.pending or self.dialog is None:
            return
        self.pending = 0
        self.dialog.view.show_trouble(what, f"The comparison failed: {failure_line(trace)}")

    def _ask_ref(self, pack: Pack) -> str | None:
        text, ok = QInputDialog.getText(self.parent_widget, f"Compare {pack.name} with a git ref",
                                        "Git commit, tag or branch of the old version (the new one is the folder "
                                        "as it is now):", text="HEAD")
        return text.strip() if ok and text.strip() else None

    def _ask_folder(self, pack: Pack) -> str | None:
        folder = QFileDialog.getExistingDirectory(self.parent_widget, f"Compare {pack.name} with another copy "
                                                  "(the old version)", str(Path(pack.root).parent))
        return folder or None
