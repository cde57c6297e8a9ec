"""The status bar: workspace name, pack and problem counts, and scan progress with a Cancel button."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QLabel, QProgressBar, QStatusBar, QWidget

from studio.core.diagnostics import DiagnosticCounts, counted
from studio.core.model import Pack
from studio.core.terminal import printable
from studio.ui.buttons import command_button
from studio.ui.models.diagnostics_table import counts_text
from studio.ui.widgets.elided_label import ElidedLabel


class PrintableStatusBar(QStatusBar):
    """The window's status bar: every message goes through the one escaping layer, since many quote pack names
    and paths (a bidi override in one would reverse the sentence around it)."""

    def showMessage(self, text: str, timeout: int | None = 0) -> None:  # noqa: N802 (Qt's name)
        super().showMessage(printable(text), timeout or 0)


class StatusLine(QObject):
    """Signals:
        cancel_requested(): the user pressed Cancel while a scan runs.
    """

    cancel_requested = Signal()

    def __init__(self, bar: QStatusBar) -> None:
        super().__init__(bar)
        # The workspace's name gives up width first (cut in the middle, whole in its tooltip): a long one squeezed
        # the pack count to "packs 100" and the progress to "1000 packs shown from th" at 1280 px.
        self.workspace_label = ElidedLabel("No workspace")
        self.packs_label = QLabel()
        self.counts_label = QLabel(counts_text(DiagnosticCounts()))
        # A busy bar plus a text label: QProgressBar.setValue repaints synchronously, which would stall
        # the GUI thread on every progress report of a large scan.
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(120)
        self.progress.setRange(0, 0)
        self.progress.setTextVisible(False)
        self.progress_label = QLabel()
        self.cancel_button = command_button("Cancel", self.cancel_requested)
        bar.addWidget(self.workspace_label, 1)
        for label in (self.packs_label, self.counts_label):
            bar.addWidget(label)
        self._scanning: tuple[QWidget, ...] = (self.progress_label, self.progress, self.cancel_button)
        """Shown while a scan runs."""
        self._verb = "loading"
        """What the scan's progress is doing: loading packs, or confirming those shown from the result cache."""
        for part in self._scanning:
            bar.addPermanentWidget(part)
            part.hide()

    def set_workspace(self, label: str) -> None:
        self.workspace_label.setText(printable(label))
        self._verb = "loading"
        self.progress_label.setText("scanning…")
        for part in self._scanning:
            part.show()

    def show_progress(self, done: int, total: int) -> None:
        if total:
            self.progress_label.setText(f"{self._verb} packs {done}/{total} ({100 * done // total}%)")

    def show_cached(self, count: int) -> None:
        """Every pack the result cache knew is shown; the scan goes on checking them against the disk."""
        self._verb = "confirming"
        self.progress_label.setText(f"{counted(count, 'pack')} shown from the cache; confirming…")

    def finish(self, cancelled: bool) -> None:
        for part in self._scanning:
            part.hide()
        if cancelled:
            self.workspace_label.setText(f"{self.workspace_label.text()} (scan cancelled)")

    def set_counts(self, counts: DiagnosticCounts, packs: int, quarantined: int, shadowed: int) -> None:
        extra = ", ".join(x for x in (f"{quarantined} quarantined" if quarantined else "",
                                       f"{shadowed} shadowed" if shadowed else "") if x)
        self.packs_label.setText(f"packs {packs}" + (f" ({extra})" if extra else ""))
        self.counts_label.setText(counts_text(counts))


class PackTally:
    """How many packs are quarantined and how many shadowed, kept up to date pack by pack.

    Recounting asked every pack for its behaviour (a walk over its findings) on each scan batch and
    each reload: about 8 ms for a thousand packs, every time.
    """

    def __init__(self) -> None:
        self._flags: dict[Path, tuple[bool, bool]] = {}
        self.quarantined = 0
        self.shadowed = 0

    def clear(self) -> None:
        self._flags.clear()
        self.quarantined = self.shadowed = 0

    def update(self, packs: Iterable[Pack]) -> None:
        """Count these packs as they are now (new ones are added, known ones re-counted)."""
        for pack in packs:
            flags = (not pack.behavior.loads, pack.shadowed_by is not None)
            old = self._flags.get(pack.root, (False, False))
            self._flags[pack.root] = flags
            self.quarantined += flags[0] - old[0]
            self.shadowed += flags[1] - old[1]

    def retain(self, roots: set[Path]) -> None:
        """Forget packs that are no longer in the workspace."""
        for root in [r for r in self._flags if r not in roots]:
            quarantined, shadowed = self._flags.pop(root)
            self.quarantined -= quarantined
            self.shadowed -= shadowed
