"""The dialog that offers unsaved text from a previous session: Restore, Discard or decide Later.

It only chooses; the caller (``RecoveryKeeper``) opens the files and removes copies. A copy whose file
already holds the same text is never shown: nothing would be lost, so it is handed back for discarding.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QMessageBox,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.core.recovery import DiskState, RecoveryCopy, RecoveryProblem, disk_state
from studio.ui.document import OpenRefused, open_document
from studio.ui.icons import icon
from studio.ui.pack_text_view import PackTextView
from studio.ui.shown_text import as_typed

STATES: dict[DiskState, str] = {
    DiskState.UNCHANGED: "unchanged",
    DiskState.CHANGED: "changed on disk since",
    DiskState.MISSING: "file no longer exists",
}
"""The table's short word on each file."""
NOTES: dict[DiskState, str] = {
    DiskState.UNCHANGED: "the file is as it was when you edited it.",
    DiskState.CHANGED: "the file changed on disk since you edited it. After a restore, saving asks before it "
                       "replaces those changes.",
    DiskState.MISSING: "the file no longer exists, so it cannot be reopened; copy the text below to keep it.",
}
"""The sentence under the table for the selected file."""


def first_changed_line(before: str, after: str) -> int:
    """0-based number of the first line of ``after`` that differs from ``before``: for lines added at the
    end the first of them, for lines removed at the end the last one left, for no change the first."""
    old, new = before.split("\n"), after.split("\n")
    for number, (a, b) in enumerate(zip(old, new, strict=False)):
        if a != b:
            return number
    return 0 if len(old) == len(new) else min(len(old), len(new) - 1)


@dataclass(slots=True)
class RecoveryChoice:
    """What the user decided; copies in neither list are kept for later."""

    restore: list[RecoveryCopy] = field(default_factory=list)
    discard: list[RecoveryCopy] = field(default_factory=list)


def _ask_discard(parent: QWidget, count: int) -> bool:
    files = "this file" if count == 1 else f"these {count} files"
    answer = QMessageBox.warning(
        parent, "Discard unsaved text",
        f"Throw away the unsaved text of {files}? This cannot be undone.",
        QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Cancel,
    )
    return answer == QMessageBox.StandardButton.Discard


class RecoveryDialog(QDialog):
    """Lists copies with a checkbox each, warns when a file changed on disk, previews the recovered text.

    With ``single`` (a file with a copy was just opened) there is no Later: the keeper is about to keep
    copies of the new buffer under the same name, so the old text must be restored or discarded now.

    Attributes:
        confirm_discard: asks before discarding; replaced in tests, where a modal box would wait forever.
    """

    def __init__(self, copies: Sequence[tuple[RecoveryCopy, DiskState]], problems: Sequence[RecoveryProblem] = (),
                 parent: QWidget | None = None, *, single: bool = False, elsewhere: int = 0) -> None:
        super().__init__(parent)
        self.setWindowTitle("Recover unsaved text")
        self.single = single
        self.choice = RecoveryChoice()
        self.confirm_discard: Callable[[QWidget, int], bool] = _ask_discard
        self._copies = list(copies)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(f"<b>{html.escape(self._heading())}</b>", wordWrap=True))
        layout.addWidget(QLabel(
            "The text was kept outside the packs; nothing was written into a pack. Restore opens each file "
            "with the recovered text as unsaved changes, so you can review it (Undo brings back the file "
            "as it is on disk) before you save.", wordWrap=True,
        ))
        self.table = QTreeWidget()
        self.table.setRootIsDecorated(False)
        self.table.setHeaderLabels(["File", "Pack", "Kept at", "On disk"])
        self.table.header().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.header().setStretchLastSection(True)
        self._items = [self._row(copy, state) for copy, state in self._copies]
        self.table.addTopLevelItems(self._items)
        self.table.setVisible(not single)
        layout.addWidget(self.table, 1)
        self.note = QLabel(wordWrap=True)
        layout.addWidget(self.note)
        self.preview = PackTextView(wrap=False)
        layout.addWidget(self.preview, 2)
        self.elsewhere = QLabel(
            f"{elsewhere} more file(s) in packs outside this workspace have unsaved text; each is offered "
            "when you open it.", wordWrap=True)
        self.elsewhere.setVisible(elsewhere > 0)
        layout.addWidget(self.elsewhere)
        self.problems = QLabel(self._problem_text(problems), wordWrap=True)
        self.problems.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.problems.setVisible(bool(problems))
        layout.addWidget(self.problems)
        self.buttons = QDialogButtonBox()
        self.restore_button = self._button("Restore" if single else "Restore checked", "open",
                                           QDialogButtonBox.ButtonRole.AcceptRole)
        self.discard_button = self._button("Discard…" if single else "Discard checked…", "",
                                           QDialogButtonBox.ButtonRole.DestructiveRole)
        self.later_button: QPushButton | None = None
        if not single:
            self.later_button = self._button("Later", "", QDialogButtonBox.ButtonRole.RejectRole)
        self.restore_button.setDefault(True)
        self.restore_button.clicked.connect(self._restore)
        self.discard_button.clicked.connect(self._discard)
        if self.later_button is not None:
            self.later_button.clicked.connect(self.reject)
        layout.addWidget(self.buttons)
        self.table.currentItemChanged.connect(lambda *_: self._show_current())
        self.table.itemChanged.connect(lambda *_: self._update_buttons())
        if self._items:
            self.table.setCurrentItem(self._items[0])
        self._update_buttons()
        self.resize(760, 520)

    def _heading(self) -> str:
        if self.single and self._copies:
            return f"{self._copies[0][0].relpath} has unsaved text from a previous session."
        count = len(self._copies)
        if count == 0:
            return "Some recovery files could not be read."
        files = "file has" if count == 1 else "files have"
        return f"{count} {files} unsaved text from a previous session."

    def _row(self, copy: RecoveryCopy, state: DiskState) -> QTreeWidgetItem:
        kept = copy.written_at.astimezone().strftime("%Y-%m-%d %H:%M")
        item = QTreeWidgetItem([copy.relpath, copy.pack_root.name, kept, STATES.get(state, "")])
        item.setToolTip(3, NOTES.get(state, ""))
        item.setToolTip(0, as_typed(str(copy.path)))
        item.setToolTip(1, as_typed(str(copy.pack_root)))
        if state is not DiskState.UNCHANGED:
            item.setIcon(3, icon("warning"))
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
        # A missing file cannot be reopened; leave it unchecked so Restore does not promise what it can't do.
        checked = state is not DiskState.MISSING
        item.setCheckState(0, Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)
        return item

    def _button(self, text: str, icon_name: str, role: QDialogButtonBox.ButtonRole) -> QPushButton:
        button = QPushButton(icon(icon_name), text) if icon_name else QPushButton(text)
        self.buttons.addButton(button, role)
        return button

    @staticmethod
    def _problem_text(problems: Sequence[RecoveryProblem]) -> str:
        if not problems:
            return ""
        lines = [html.escape(f"{p.file.name}: {p.message}") for p in problems[:5]]
        more = f"<br>… and {len(problems) - 5} more" if len(problems) > 5 else ""
        folder = problems[0].file.parent
        return (f"Skipped {len(problems)} unreadable recovery file(s); they were renamed to *.unreadable in "
                f"{html.escape(str(folder))}:<br>" + "<br>".join(lines) + more)

    def _show_current(self) -> None:
        current = self.table.currentItem()
        row = self._items.index(current) if current in self._items else -1
        if row < 0:
            self.preview.clear()
            self.note.clear()
            return
        copy, state = self._copies[row]
        self.preview.setPlainText(copy.text)
        self._show_first_change(copy)
        warn = "" if state is DiskState.UNCHANGED else "⚠ "
        self.note.setText(f"{warn}<b>{html.escape(copy.relpath)}</b> in {html.escape(str(copy.pack_root))}: "
                          f"{html.escape(NOTES.get(state, ''))}")

    def _show_first_change(self, copy: RecoveryCopy) -> None:
        """Scroll the preview to the first line that differs from the file on disk: typically what was typed."""
        try:
            on_disk = open_document(copy.path, copy.pack_root).text
        except (OpenRefused, OSError):
            on_disk = ""
        block = self.preview.document().findBlockByNumber(first_changed_line(on_disk, copy.text))
        cursor = QTextCursor(block)
        self.preview.setTextCursor(cursor)
        self.preview.centerCursor()

    def checked(self) -> list[RecoveryCopy]:
        if self.single:
            return [c for c, _s in self._copies]
        return [copy for (copy, _state), item in zip(self._copies, self._items, strict=True)
                if item.checkState(0) == Qt.CheckState.Checked]

    def _update_buttons(self) -> None:
        any_checked = bool(self.checked())
        self.restore_button.setEnabled(any_checked)
        self.discard_button.setEnabled(any_checked)

    def _restore(self) -> None:
        self.choice.restore.extend(self.checked())
        self.accept()

    def _discard(self) -> None:
        chosen = self.checked()
        if chosen and self.confirm_discard(self, len(chosen)):
            self.choice.discard.extend(chosen)
            self.accept()

    def reject(self) -> None:
        if self.single:
            return  # Esc or the close button must not leave the old text to be overwritten; choose a button
        super().reject()


def offer_recovery(parent: QWidget | None, copies: Sequence[RecoveryCopy], problems: Sequence[RecoveryProblem] = (),
                   *, single: bool = False, elsewhere: int = 0) -> RecoveryChoice:
    """Show the dialog (modal) for ``copies`` and return the choice.

    Copies whose file already holds their text go straight to ``discard``; when that leaves nothing to
    show and no problems to report, no dialog opens.
    """
    shown: list[tuple[RecoveryCopy, DiskState]] = []
    already_saved: list[RecoveryCopy] = []
    for copy in copies:
        state = disk_state(copy)
        if state is DiskState.SAME_TEXT:
            already_saved.append(copy)
        else:
            shown.append((copy, state))
    if not shown and not problems:
        return RecoveryChoice(discard=already_saved)
    dialog = RecoveryDialog(shown, problems, parent, single=single and bool(shown), elsewhere=elsewhere)
    dialog.exec()
    dialog.choice.discard.extend(already_saved)
    dialog.deleteLater()
    return dialog.choice
