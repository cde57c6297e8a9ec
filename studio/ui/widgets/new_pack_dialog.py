"""File ▸ New Pack…: choose a template, name the pack (checked as you type), pick type, profile, mode, language,
description and folder, see the file tree and KNOWLEDGE.md it will write, then Create.

Every change re-plans the pack with ``studio.core.authoring.new_pack.plan_new_pack`` (in memory, nothing is
written); a problem (a bad name, a folder that exists even up to case or Unicode form, a folder inside another
pack or read-only) shows under the form and keeps Create disabled. Create builds the pack in a worker with
``create.create_pack`` (all at once, never over anything) and emits ``pack_created``.

Signals:
    pack_created(Path): the new pack's folder, once written.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from studio.core.authoring.create import CreatedPack, create_pack
from studio.core.authoring.names import name_rule_problem
from studio.core.authoring.new_pack import NewPackError, NewPackRequest, PackPlan, plan_new_pack
from studio.core.authoring.templates import Template, TemplateSet, load_templates, user_templates_dir
from studio.core.model import PROFILES, RUNTIME_MODES, STANDARD_TYPES
from studio.ui import workers
from studio.ui.buttons import command_button
from studio.ui.debounce import debounce_timer
from studio.ui.pack_text_view import PackTextView
from studio.ui.theme import editor_font

REPLAN_MS = 120
OK_COLOUR = "#2e7d32"
ERROR_COLOUR = "#c62828"


class NewPackDialog(QDialog):
    pack_created = Signal(Path)

    def __init__(self, into: Path, known: Sequence[tuple[str, Path]] = (), templates: TemplateSet | None = None,
                 parent: QWidget | None = None, into_reason: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle("New pack")
        self.templates = templates if templates is not None else load_templates(user_templates_dir())
        self.known = tuple(known)
        self.plan: PackPlan | None = None
        self.created: CreatedPack | None = None
        self._request_id = 0

        self.template_list = QListWidget()
        for template in self.templates.templates:
            item = QListWidgetItem(template.title + (" (yours)" if template.user else ""))
            item.setData(Qt.ItemDataRole.UserRole, template.id)
            item.setToolTip(template.summary)
            self.template_list.addItem(item)
        self.template_summary = QLabel()
        self.template_summary.setWordWrap(True)

        self.name = QLineEdit(placeholderText="acme-widget")
        self.name_status = QLabel()
        self.type = QComboBox()
        self.type.setEditable(True)
        self.type.addItems([*STANDARD_TYPES, "custom:"])
        self.profile = QComboBox()
        self.profile.addItems(PROFILES)
        self.mode = QComboBox()
        self.mode.addItems(RUNTIME_MODES)
        self.language = QLineEdit("en")
        self.language.setMaximumWidth(90)
        self.description = QPlainTextEdit()
        self.description.setFixedHeight(64)
        self.folder = QLineEdit(str(into))
        browse = command_button("Browse…", self._browse)

        form = QFormLayout()
        form.addRow("Name", self.name)
        form.addRow("", self.name_status)
        form.addRow("Type", self.type)
        form.addRow("Profile", self.profile)
        mode_row = QHBoxLayout()
        mode_row.addWidget(self.mode)
        mode_row.addSpacing(16)
        mode_row.addWidget(QLabel("Language"))
        mode_row.addWidget(self.language)
        mode_row.addStretch(1)
        form.addRow("Runtime mode", mode_row)
        form.addRow("Description", self.description)
        folder_row = QHBoxLayout()
        folder_row.addWidget(self.folder, 1)
        folder_row.addWidget(browse)
        form.addRow("Create in", folder_row)
        # Why this folder (the default the CLI's `new` uses too), until the user picks another.
        self.folder_note = QLabel(wordWrap=True)
        self.folder_note.setText(_coloured(f"Default: {into_reason}", "gray") if into_reason else "")
        self.folder.textChanged.connect(lambda text: self.folder_note.setVisible(text == str(into)))
        form.addRow("", self.folder_note)

        self.tree_view = PackTextView(font=editor_font())
        self.knowledge_view = PackTextView(font=editor_font(), wrap=False)
        preview = QSplitter(Qt.Orientation.Horizontal)
        preview.addWidget(_titled("Files", self.tree_view))
        preview.addWidget(_titled("KNOWLEDGE.md", self.knowledge_view))
        preview.setSizes([220, 520])

        self.status = QLabel()
        self.status.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.create_button = self.buttons.addButton("Create", QDialogButtonBox.ButtonRole.AcceptRole)
        self.create_button.setDefault(True)
        self.buttons.accepted.connect(self.create_now)
        self.buttons.rejected.connect(self.reject)

        left = QVBoxLayout()
        left.addWidget(QLabel("Template"))
        left.addWidget(self.template_list, 1)
        left.addWidget(self.template_summary)
        right = QVBoxLayout()
        right.addLayout(form)
        right.addWidget(QLabel("Preview (nothing is written until Create)"))
        right.addWidget(preview, 1)
        columns = QHBoxLayout()
        left_box = QWidget()
        left_box.setLayout(left)
        left_box.setMaximumWidth(260)
        columns.addWidget(left_box)
        columns.addLayout(right, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(columns, 1)
        layout.addWidget(self.status)
        layout.addWidget(self.buttons)
        self.resize(1060, 720)

        self._replan_timer = debounce_timer(self, REPLAN_MS, self.replan)
        for signal in (self.name.textChanged, self.type.currentTextChanged, self.profile.currentTextChanged,
                       self.mode.currentTextChanged, self.language.textChanged, self.description.textChanged,
                       self.folder.textChanged):
            signal.connect(self._schedule)
        self.name.textChanged.connect(self._check_name)
        self.template_list.currentRowChanged.connect(self._template_chosen)
        if self.templates.templates:
            self.template_list.setCurrentRow(0)
        self._check_name(self.name.text())
        self.name.setFocus()

    # -- form -------------------------------------------------------------------------------------------
    def template(self) -> Template | None:
        item = self.template_list.currentItem()
        return self.templates.get(item.data(Qt.ItemDataRole.UserRole)) if item is not None else None

    def select_template(self, template_id: str) -> None:
        for row in range(self.template_list.count()):
            if self.template_list.item(row).data(Qt.ItemDataRole.UserRole) == template_id:
                self.template_list.setCurrentRow(row)
                return

    def _template_chosen(self, _row: int) -> None:
        template = self.template()
        if template is None:
            return
        self.template_summary.setText(template.summary)
        self.type.setCurrentText(template.type)
        self.profile.setCurrentText(template.profile)
        self.mode.setCurrentText(template.mode)
        self.description.setPlaceholderText(template.description.replace("{{title}}", "…"))
        self._schedule()

    def _check_name(self, text: str) -> None:
        problem = name_rule_problem(text) if text else None
        if problem is not None:
            self.name_status.setText(_coloured(problem.message, ERROR_COLOUR))
        else:
            self.name_status.setText(_coloured("a-z, 0-9 and '-'; it also names the folder", "gray"))

    def _browse(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Create the pack in", self.folder.text())
        if folder:
            self.folder.setText(folder)

    def _schedule(self, *_args: object) -> None:
        self._replan_timer.start()

    def request(self) -> NewPackRequest | None:
        template = self.template()
        if template is None:
            return None
        description = self.description.toPlainText().strip()
        return NewPackRequest(self.name.text().strip(), Path(self.folder.text().strip() or "."), template,
                              type=self.type.currentText().strip() or None, profile=self.profile.currentText(),
                              mode=self.mode.currentText(), language=self.language.text().strip() or None,
                              description=description or None, known=self.known)

    # -- preview and create -----------------------------------------------------------------------------
    def replan(self) -> PackPlan | None:
        """Plan the pack from the form as it is now and show it; None (Create disabled) when it cannot be made."""
        self._replan_timer.stop()
        request = self.request()
        self.plan = None
        if request is None or not request.name:
            self._show(None, "Name the pack to see what will be created.", "gray")
            return None
        try:
            self.plan = plan_new_pack(request, self.templates)
        except NewPackError as exc:
            self._show(None, str(exc), ERROR_COLOUR)
            return None
        self._show(self.plan, f"Creates {self.plan.target}", OK_COLOUR)
        return self.plan

    def _show(self, plan: PackPlan | None, message: str, colour: str) -> None:
        self.tree_view.setPlainText(plan.tree() if plan is not None else "")
        self.knowledge_view.setPlainText(plan.knowledge if plan is not None else "")
        self.status.setText(_coloured(message, colour))
        self.create_button.setEnabled(plan is not None)

    def create_now(self) -> None:
        """Write the planned pack in a worker; the dialog closes and ``pack_created`` fires when it is done."""
        plan = self.replan()
        if plan is None:
            return
        self.create_button.setEnabled(False)
        self.status.setText(_coloured(f"Creating {plan.target}…", "gray"))
        self._request_id = workers.submit(_create, plan, on_done=self._created)

    def _created(self, request_id: int, result: CreatedPack | str) -> None:
        if request_id != self._request_id:
            return
        if isinstance(result, str):
            self.status.setText(_coloured(result, ERROR_COLOUR))
            self.create_button.setEnabled(True)
            return
        self.created = result
        self.pack_created.emit(result.root)
        self.accept()


def _create(plan: PackPlan) -> CreatedPack | str:
    try:
        return create_pack(plan)
    except NewPackError as exc:
        return str(exc)


def _titled(title: str, widget: QWidget) -> QWidget:
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(QLabel(title))
    layout.addWidget(widget)
    return box


def _coloured(text: str, colour: str) -> str:
    return f"<span style='color:{colour}'>{html.escape(text)}</span>"
