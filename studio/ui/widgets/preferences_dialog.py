"""The Preferences dialog (token encoding, default budget, fence variant, discovery) and applying it.

The dialog reads ``StudioSettings`` when it opens and writes them only on OK. ``apply_preferences`` then
hands the stored values to the widgets that use them, so a change shows without restarting the app.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from studio.core.render.fence import FenceVariant
from studio.core.resolver.budget import MAX_BUDGET, MIN_BUDGET
from studio.core.tokens import available_encodings, get_tokenizer, known_encodings
from studio.core.workspace import ScanLimits
from studio.ui.icons import icon
from studio.ui.panels.resolver_inputs import ResolverInputs
from studio.ui.settings import (
    MAX_SCAN_DEPTH,
    MAX_SCAN_DIRS,
    Preferences,
    StudioSettings,
    client_native_problem,
)
from studio.ui.widgets.preview_pane import PreviewPane
from studio.ui.workspace_source import WorkspaceRequest

VARIANT_NOTES = {
    FenceVariant.SUPERSET: "The <knowledge_pack> wrapper carries every attribute the standard asks a client "
                           "to keep (the studio's default).",
    FenceVariant.SPEC: "The wrapper carries the specification's attribute set.",
    FenceVariant.ADDING_SUPPORT: "The wrapper carries the attribute set of the client guide (Adding support).",
}
RESCAN_NOTE = "Discovery changes apply on the next rescan (Ctrl+R)."
_Row = tuple[str, QWidget | QLayout]
"""A form row: its label and its field."""


@dataclass(frozen=True, slots=True)
class EncodingChoice:
    """One encoding the studio knows, and why it cannot count tokens here (None when it can)."""

    name: str
    unavailable_reason: str | None


def encoding_choices() -> list[EncodingChoice]:
    """Every known encoding with its availability, without loading any vocabulary on the GUI thread."""
    installed = set(available_encodings())
    has_tiktoken = importlib.util.find_spec("tiktoken") is not None
    choices = []
    for name in known_encodings():
        reason = None
        if name not in installed or not has_tiktoken:
            # An encoding that cannot be built fails fast, so asking the tokenizer for its reason is cheap.
            tokenizer = get_tokenizer(name)
            reason = None if tokenizer.available else tokenizer.unavailable_reason or "cannot be loaded"
        choices.append(EncodingChoice(name, reason))
    return choices


def parse_client_native(text: str) -> tuple[tuple[str, ...], str | None]:
    """Comma-separated folder names -> (names without duplicates, the first problem or None)."""
    names = tuple(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
    problem = next((p for p in map(client_native_problem, names) if p), None)
    return names, problem


class _Notice(QWidget):
    """An icon and a wrapped line of text, hidden while there is nothing to say."""

    def __init__(self, icon_name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        side = self.fontMetrics().height()
        badge = QLabel()
        badge.setPixmap(icon(icon_name).pixmap(QSize(side, side)))
        badge.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.label = QLabel(wordWrap=True)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(badge)
        layout.addWidget(self.label, 1)
        self.hide()

    def say(self, text: str | None) -> None:
        self.label.setText(text or "")
        self.setVisible(bool(text))


def _stacked(field: QWidget, below: QWidget) -> QVBoxLayout:
    """A field with a line of explanation under it; a hidden explanation takes no room."""
    column = QVBoxLayout()
    column.setSpacing(2)
    column.addWidget(field)
    column.addWidget(below)
    return column


class PreferencesDialog(QDialog):
    """Edits the preferences stored in ``settings``; OK saves them, Cancel leaves them as they were."""

    def __init__(self, settings: StudioSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Preferences")
        self.settings = settings
        self.loaded = settings.preferences()
        self.choices = {c.name: c for c in encoding_choices()}

        self.encoding = QComboBox()
        for choice in self.choices.values():
            if choice.unavailable_reason is None:
                self.encoding.addItem(choice.name, choice.name)
                continue
            self.encoding.addItem(icon("warning"), f"{choice.name} (unavailable)", choice.name)
            index = self.encoding.count() - 1
            self.encoding.setItemData(index, choice.unavailable_reason, Qt.ItemDataRole.ToolTipRole)
            model = self.encoding.model()
            if isinstance(model, QStandardItemModel):  # cannot be picked, but still shown when stored
                model.item(index).setEnabled(False)
        # A disabled item shows no tooltip on every platform, so the combo itself says why too.
        self.encoding.setToolTip("\n".join(f"{c.name}: {c.unavailable_reason}" for c in self.choices.values()
                                           if c.unavailable_reason) or "Encoding used to count tokens")
        self.encoding_notice = _Notice("warning")
        self.budget = QSpinBox()
        self.budget.setRange(MIN_BUDGET, MAX_BUDGET)
        self.budget.setSingleStep(100)
        self.budget.setGroupSeparatorShown(True)
        self.budget.setSuffix(" tokens")
        self.budget.setToolTip("The budget the resolver form starts with")
        self.variant = QComboBox()
        for variant in FenceVariant:
            self.variant.addItem(variant.value, variant.value)
        self.variant_note = QLabel(wordWrap=True)

        self.client_native = QLineEdit()
        self.client_native.setPlaceholderText("none: only .agents/knowledge is scanned")
        self.client_native.setToolTip("Comma-separated folder names; <project>/<name>/knowledge and "
                                      "<home>/<name>/knowledge are scanned for packs")
        self.client_native_notice = _Notice("error")
        self.org_roots = QListWidget()
        self.org_roots.setMinimumHeight(self.fontMetrics().height() * 4)
        self.org_roots.setMaximumHeight(self.fontMetrics().height() * 7)
        side = self.fontMetrics().height()
        self.org_roots.setIconSize(QSize(side, side))
        self.add_root_button = QPushButton(icon("add-root"), "Add…")
        self.remove_root_button = QPushButton("Remove")
        self.max_depth = QSpinBox()
        self.max_depth.setRange(0, MAX_SCAN_DEPTH)
        self.max_depth.setSuffix(" levels")
        self.max_depth.setToolTip("How many folder levels below each scanned root are searched for packs")
        self.max_dirs = QSpinBox()
        self.max_dirs.setRange(1, MAX_SCAN_DIRS)
        self.max_dirs.setSingleStep(500)
        self.max_dirs.setGroupSeparatorShown(True)
        self.max_dirs.setSuffix(" folders")
        self.max_dirs.setToolTip("A root with more folders than this is scanned only partly, and says so")
        self.honor_gitignore = QCheckBox("Skip folders that .gitignore excludes")
        self.rescan_notice = _Notice("info")
        self.result_cache = QCheckBox("Remember validation results between sessions")
        self.result_cache.setToolTip("Packs that did not change since the app or pack-studio last loaded them are "
                                     "taken from the cache folder instead of being read and checked again")
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
            | QDialogButtonBox.StandardButton.RestoreDefaults
        )
        self._layout()
        self._connect()
        self.show_preferences(self.loaded)

    # -- building ------------------------------------------------------------------------------
    def _layout(self) -> None:
        tokens: list[_Row] = [
            ("Encoding", _stacked(self.encoding, self.encoding_notice)), ("Default budget", self.budget),
        ]
        previews: list[_Row] = [("Fence variant", _stacked(self.variant, self.variant_note))]
        root_buttons = QVBoxLayout()
        root_buttons.addWidget(self.add_root_button)
        root_buttons.addWidget(self.remove_root_button)
        root_buttons.addStretch(1)
        roots = QHBoxLayout()
        roots.addWidget(self.org_roots, 1)
        roots.addLayout(root_buttons)
        discovery: list[_Row] = [
            ("Client-native folders", _stacked(self.client_native, self.client_native_notice)),
            ("Organization roots", roots), ("Depth below each root", self.max_depth),
            ("Folders listed per root", self.max_dirs), ("", _stacked(self.honor_gitignore, self.rescan_notice)),
        ]
        cache: list[_Row] = [("Result cache", self.result_cache)]
        # One label width for every group, so their fields line up as if in one form.
        groups = (("Tokens and resolver", tokens), ("Previews", previews), ("Discovery", discovery), ("Cache", cache))
        labels = {text: QLabel(text) for _title, group in groups for text, _field in group}
        width = max(label.sizeHint().width() for label in labels.values())
        # Labels sit at the top of their row, as tall as a one-line field, so a label stays level with its
        # field when an explanation or a list makes the row taller.
        height = self.encoding.sizeHint().height()
        for label in labels.values():
            label.setMinimumWidth(width)
            label.setFixedHeight(height)
        for spin in (self.budget, self.max_depth, self.max_dirs):
            # Numbers read best in a box sized for them, not stretched across the dialog.
            spin.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
            spin.setMinimumWidth(self.fontMetrics().horizontalAdvance("200,000 tokens") + 48)
        layout = QVBoxLayout(self)
        for title, rows in groups:
            form = QFormLayout()
            form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
            form.setLabelAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
            for text, field in rows:
                if isinstance(field, QWidget):  # two calls: addRow's overloads are chosen by the field's type
                    form.addRow(labels[text], field)
                else:
                    form.addRow(labels[text], field)
            box = QGroupBox(title)
            box.setLayout(form)
            layout.addWidget(box)
        layout.addStretch(1)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(self.fontMetrics().horizontalAdvance("x") * 90)

    def _connect(self) -> None:
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        restore = self.buttons.button(QDialogButtonBox.StandardButton.RestoreDefaults)
        restore.setText("Restore defaults")  # sentence case, like every other button in the studio
        restore.clicked.connect(self.restore_defaults)
        self.encoding.currentIndexChanged.connect(self._encoding_changed)
        self.variant.currentIndexChanged.connect(self._variant_changed)
        self.client_native.textChanged.connect(self._client_native_changed)
        self.add_root_button.clicked.connect(self._choose_org_root)
        self.remove_root_button.clicked.connect(self.remove_selected_roots)
        self.org_roots.itemSelectionChanged.connect(self._roots_selected)
        for spin in (self.max_depth, self.max_dirs):
            spin.valueChanged.connect(self._discovery_changed)
        self.honor_gitignore.toggled.connect(self._discovery_changed)

    # -- widgets <-> preferences -------------------------------------------------------------------
    def show_preferences(self, prefs: Preferences) -> None:
        """Put ``prefs`` into the widgets (nothing is saved until OK)."""
        self.encoding.setCurrentIndex(max(0, self.encoding.findData(prefs.encoding)))
        self.budget.setValue(prefs.budget)
        self.variant.setCurrentIndex(max(0, self.variant.findData(prefs.fence_variant.value)))
        self.client_native.setText(", ".join(prefs.client_native))
        self.org_roots.clear()
        for root in prefs.org_roots:
            self.add_org_root(root)
        self.max_depth.setValue(prefs.limits.max_depth)
        self.max_dirs.setValue(prefs.limits.max_dirs)
        self.honor_gitignore.setChecked(prefs.limits.honor_gitignore)
        self.result_cache.setChecked(prefs.result_cache)
        self._encoding_changed()
        self._variant_changed()
        self._client_native_changed()
        self._roots_selected()

    def preferences(self) -> Preferences:
        """What the widgets show now (client-native names with a problem are left out)."""
        names, _problem = parse_client_native(self.client_native.text())
        return Preferences(
            encoding=str(self.encoding.currentData()),
            budget=self.budget.value(),
            fence_variant=FenceVariant(self.variant.currentData()),
            client_native=tuple(n for n in names if client_native_problem(n) is None),
            org_roots=tuple(self.org_root_paths()),
            limits=ScanLimits(max_depth=self.max_depth.value(), max_dirs=self.max_dirs.value(),
                              honor_gitignore=self.honor_gitignore.isChecked()),
            result_cache=self.result_cache.isChecked(),
        )

    def restore_defaults(self) -> None:
        self.show_preferences(Preferences())

    def accept(self) -> None:
        if parse_client_native(self.client_native.text())[1] is not None:
            return  # OK is disabled meanwhile; Enter in a field must not save a half-valid list either
        self.settings.save_preferences(self.preferences())
        super().accept()

    # -- organization roots ---------------------------------------------------------------------
    def org_root_paths(self) -> list[Path]:
        return [Path(self.org_roots.item(i).data(Qt.ItemDataRole.UserRole)) for i in range(self.org_roots.count())]

    def add_org_root(self, path: Path) -> None:
        """List ``path`` (once); a folder that does not exist is kept but marked, since it may be mounted later."""
        if path in self.org_root_paths():
            return
        item = QListWidgetItem(icon("folder"), str(path))
        item.setData(Qt.ItemDataRole.UserRole, str(path))
        if not path.is_dir():
            item.setIcon(icon("warning"))
            item.setText(f"{path} (not found)")
            item.setToolTip("This folder does not exist now; it is skipped until it does.")
        self.org_roots.addItem(item)
        self._discovery_changed()

    def remove_selected_roots(self) -> None:
        for item in self.org_roots.selectedItems():
            self.org_roots.takeItem(self.org_roots.row(item))
        self._discovery_changed()

    def _choose_org_root(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Add an organization pack root")
        if folder:
            self.add_org_root(Path(folder))

    def _roots_selected(self) -> None:
        self.remove_root_button.setEnabled(bool(self.org_roots.selectedItems()))

    # -- feedback ---------------------------------------------------------------------------------
    def _encoding_changed(self) -> None:
        choice = self.choices.get(str(self.encoding.currentData()))
        reason = choice.unavailable_reason if choice else None
        self.encoding_notice.say(f"{choice.name} cannot count tokens here: {reason}. Previews will say so "
                                 "instead of showing a number." if choice and reason else None)

    def _variant_changed(self) -> None:
        self.variant_note.setText(VARIANT_NOTES[FenceVariant(self.variant.currentData())])

    def _client_native_changed(self) -> None:
        problem = parse_client_native(self.client_native.text())[1]
        self.client_native_notice.say(problem[:1].upper() + problem[1:] + "." if problem else None)
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(problem is None)
        self._discovery_changed()

    def _discovery_changed(self) -> None:
        now = self.preferences()
        changed = (now.client_native, now.org_roots, now.limits) != (
            self.loaded.client_native, self.loaded.org_roots, self.loaded.limits)
        self.rescan_notice.say(RESCAN_NOTE if changed else None)


def apply_preferences(prefs: Preferences, *, previews: PreviewPane, resolver_inputs: ResolverInputs,
                      request: WorkspaceRequest) -> None:
    """Make ``prefs`` take effect: previews re-render, the resolver form takes the new defaults, and the
    current workspace request carries the discovery settings into its next scan (not started here)."""
    previews.set_preferences(prefs.encoding, prefs.fence_variant)
    resolver_inputs.apply_preferences(prefs.encoding, prefs.budget, prefs.fence_variant)
    prefs.apply_discovery(request)
