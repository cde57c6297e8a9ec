"""New file, Rename and Delete for the Workspace tree's rows: the questions to the user and the core calls.

New file ▸ Wiki page / Document / Split / Source asks for a title and creates a skeleton in the right folder
(``studio.core.authoring.skeletons``): beside the row clicked when it lies in that kind's folder, a split
under the document it splits. Rename asks for the new name (checked as it is typed) and then confirms,
naming the lines of KNOWLEDGE.md that mention the old path. Delete confirms and moves the file or folder to
the system trash; nothing is ever deleted outright. Every refusal is shown, nothing is half done.

The questions go through ``ask_name``, ``confirm`` and ``warn`` (replaceable, so a test can answer them).

Signals:
    file_created(Path): a new file was created.
    renamed(Path, Path, bool): old path, new path, and whether it was a pack's own folder.
    deleted(Path): this file or folder went to the trash.
    message(str): a line for the status bar.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from enum import Enum, auto
from pathlib import Path
from typing import Final, Literal, TypeVar

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QMenu,
    QMessageBox,
    QVBoxLayout,
    QWidget,
)

from studio.core.authoring.files import FileOpError, create_file, plan_rename, rename, target_path, trash
from studio.core.authoring.skeletons import KINDS, LABELS, default_folder, new_file
from studio.core.model import Pack
from studio.ui.shown_text import as_typed

Check = Callable[[str], tuple[str | None, str]]
"""text -> (problem or None, a line saying what will happen)."""
_T = TypeVar("_T")


class _Refusal(Enum):
    """What ``PackFileActions._attempt`` gives for an operation the core refused (``trash`` itself gives None)."""

    REFUSED = auto()


_REFUSED: Final = _Refusal.REFUSED


class NameDialog(QDialog):
    """One line of text, checked as it is typed; OK stays disabled while the check names a problem."""

    def __init__(self, title: str, label: str, text: str, check: Check, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.check = check
        self.edit = QLineEdit(text)
        self.edit.setMinimumWidth(420)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(as_typed(label)))  # it names a file of the pack
        layout.addWidget(self.edit)
        layout.addWidget(self.status)
        layout.addWidget(self.buttons)
        self.edit.textChanged.connect(self._changed)
        stem = text.rsplit(".", 1)[0] if "." in text[1:] else text
        self.edit.setSelection(0, len(stem))
        self._changed(text)

    def _changed(self, text: str) -> None:
        problem, preview = self.check(text)
        colour = "#c62828" if problem else "gray"
        self.status.setText(f"<span style='color:{colour}'>{html.escape(problem or preview)}</span>")
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(problem is None)


class PackFileActions(QObject):
    file_created = Signal(Path)
    renamed = Signal(Path, Path, bool)
    deleted = Signal(Path)
    message = Signal(str)

    def __init__(self, parent_widget: QWidget) -> None:
        super().__init__(parent_widget)
        self.parent_widget = parent_widget
        self.ask_name: Callable[[str, str, str, Check], str | None] = self._ask_name
        self.confirm: Callable[[str, str], bool] = self._confirm
        self.warn: Callable[[str], None] = self._warn

    def menu_for(self, pack: Pack, path: Path) -> QMenu:
        """The context menu for a row of ``pack`` showing ``path`` (the pack's folder, a folder or a file)."""
        menu = QMenu(self.parent_widget)
        new = menu.addMenu("New file")
        for kind in KINDS:
            new.addAction(f"{LABELS[kind]}…").triggered.connect(
                lambda _checked=False, k=kind: self.new_file(pack, k, path))
        menu.addSeparator()
        entry = path == pack.root / "KNOWLEDGE.md"
        rename_action = menu.addAction("Rename…")
        rename_action.triggered.connect(lambda: self.rename(pack, path))
        delete_action = menu.addAction("Delete (to trash)")
        delete_action.triggered.connect(lambda: self.delete(pack, path))
        for action in (rename_action, delete_action):
            action.setEnabled(not entry)
            if entry:
                action.setToolTip("KNOWLEDGE.md is the pack's entry file; rename or delete the pack folder instead")
        return menu

    # -- operations -----------------------------------------------------------------------------------
    def new_file(self, pack: Pack, kind: str, context: Path | None = None) -> Path | None:
        """Ask for a title and create a ``kind`` skeleton; returns the new file (None if cancelled/refused)."""
        rel = _relative(pack.root, context)
        folder = default_folder(kind, rel, pack.primary_document)
        document = f"documents/{folder.split('/')[2]}.md" if kind == "split" else None

        def check(title: str) -> tuple[str | None, str]:
            if not title.strip():
                return "Enter a title.", ""
            planned = new_file(kind, title, folder, document=document)
            try:
                path = target_path(pack.root, planned.path)
            except FileOpError as exc:
                return str(exc), ""
            return (f"{planned.path} already exists." if path.exists() else None), f"Creates {planned.path}"

        label = LABELS[kind].lower()
        title = self.ask_name(f"New {label}", f"Title of the new {label} (it goes in {folder}/):", "", check)
        if title is None:
            return None
        planned = new_file(kind, title, folder, document=document)
        path = self._attempt(lambda: create_file(pack.root, planned.path, planned.text))
        if path is _REFUSED:
            return None
        self.file_created.emit(path)
        self.message.emit(f"Created {planned.path}")
        return path

    def rename(self, pack: Pack, path: Path) -> Path | None:
        """Ask for a new name, confirm, rename; returns the new path (None if cancelled or refused)."""
        def check(name: str) -> tuple[str | None, str]:
            try:
                plan = plan_rename(pack.root, path, name)
            except FileOpError as exc:
                return str(exc), ""
            return None, f"Renames to {plan.new.name}"

        what = "the pack folder" if path == pack.root else path.name
        name = self.ask_name("Rename", f"New name for {what}:", path.name, check)
        if name is None:
            return None
        plan = self._attempt(lambda: plan_rename(pack.root, path, name))
        if plan is _REFUSED:
            return None
        details = ""
        if plan.references:
            lines = "\n".join(f"  line {n}: {text[:90]}" for n, text in plan.references[:8])
            details = f"\n\nKNOWLEDGE.md mentions the old path; update these lines after renaming:\n{lines}"
        if plan.is_pack:
            details += "\n\nThe pack's name in KNOWLEDGE.md should match its folder; a quick fix can set it."
        if not self.confirm("Rename", f"Rename {path.name} to {plan.new.name}?{details}"):
            return None
        new = self._attempt(lambda: rename(plan))
        if new is _REFUSED:
            return None
        self.renamed.emit(path, new, plan.is_pack)
        self.message.emit(f"Renamed {path.name} to {new.name}")
        return new

    def delete(self, pack: Pack, path: Path) -> bool:
        """Confirm, then move ``path`` to the system trash; False when cancelled or refused."""
        rel = _relative(pack.root, path) or path.name
        what = f"the whole pack '{pack.name}'" if path == pack.root else rel
        if not self.confirm("Delete", f"Move {what} to the trash?\n\nYou can restore it from the system trash."):
            return False
        if self._attempt(lambda: trash(pack.root, path)) is _REFUSED:
            return False
        self.deleted.emit(path)
        self.message.emit(f"Moved {rel} to the trash")
        return True

    def _attempt(self, operation: Callable[[], _T]) -> _T | Literal[_Refusal.REFUSED]:
        """``operation``'s result; or, when the core refuses it, ``_REFUSED`` after the status bar says why."""
        try:
            return operation()
        except FileOpError as exc:
            self._refused(str(exc))
            return _REFUSED

    # -- questions --------------------------------------------------------------------------------------
    def _ask_name(self, title: str, label: str, text: str, check: Check) -> str | None:
        dialog = NameDialog(title, label, text, check, self.parent_widget)
        return dialog.edit.text() if dialog.exec() == QDialog.DialogCode.Accepted else None

    def _confirm(self, title: str, text: str) -> bool:
        # The text names files and quotes KNOWLEDGE.md: a bidi override in a name must not disguise which file
        # goes to the trash, and markup in it must not render.
        answer = QMessageBox.question(self.parent_widget, title, as_typed(text),
                                      QMessageBox.StandardButton.Ok | QMessageBox.StandardButton.Cancel,
                                      QMessageBox.StandardButton.Cancel)
        return answer == QMessageBox.StandardButton.Ok

    def _refused(self, text: str) -> None:
        self.message.emit(text)
        self.warn(text)

    def _warn(self, text: str) -> None:
        QMessageBox.warning(self.parent_widget, "Not done", as_typed(text))


def _relative(root: Path, path: Path | None) -> str | None:
    if path is None or path == root:
        return None
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return None
