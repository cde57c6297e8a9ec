"""ResolverInputs: the simulator's form (task, packs with activation, overrides, encoding, budget, switches).

Every edit emits ``changed``; ``request()`` turns the form into a core ``ResolveRequest``. Disputed
packs carry a separate "confirm" tick: checking the pack alone does not load it. The starting encoding
and budget and the fence variant come from the preferences (``apply_preferences``).
"""

from __future__ import annotations

import math

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, QSignalBlocker, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QPlainTextEdit,
    QSlider,
    QSpinBox,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from studio.core.model import GROUNDING_POLICIES, PROFILES, RUNTIME_MODES, Pack
from studio.core.render.fence import FenceVariant
from studio.core.resolver import ResolveRequest
from studio.core.resolver.budget import DEFAULT_BUDGET, MAX_BUDGET, MIN_BUDGET
from studio.core.tokens import DEFAULT_ENCODING, known_encodings
from studio.ui.fit import FlowLayout
from studio.ui.models.pack_activation import ACTIVATIONS, COL_ACTIVATION, COL_PACK, PackActivationModel
from studio.ui.pack_text_view import layout_safe

SLIDER_STEPS = 1000
"""The slider is logarithmic: equal moves multiply the budget by equal factors, so 100-2,000 is usable."""
AS_DECLARED = "as declared"
NAME_WIDTH_CHARS = 48
"""The pack column is made wide enough for names of up to this many characters (longer ones are elided)."""


def budget_to_slider(budget: int) -> int:
    budget = min(max(budget, MIN_BUDGET), MAX_BUDGET)
    return round(SLIDER_STEPS * math.log(budget / MIN_BUDGET) / math.log(MAX_BUDGET / MIN_BUDGET))


def slider_to_budget(position: int) -> int:
    value = MIN_BUDGET * (MAX_BUDGET / MIN_BUDGET) ** (position / SLIDER_STEPS)
    # Round to two significant figures so slider budgets read like numbers people pick (1,500 not 1,487).
    magnitude = 10 ** max(0, int(math.log10(value)) - 1)
    return min(max(int(round(value / magnitude) * magnitude), MIN_BUDGET), MAX_BUDGET)


def _override_combo(values: tuple[str, ...]) -> QComboBox:
    combo = QComboBox()
    combo.addItem(AS_DECLARED, None)
    for value in values:
        combo.addItem(value, value)
    return combo


class ResolverInputs(QWidget):
    """The form. Signals:
        changed(): any input changed; the panel debounces and re-runs.
    """

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.packs: list[Pack] = []
        self.variant = FenceVariant.SUPERSET
        self._default_encoding = DEFAULT_ENCODING
        self._default_budget = DEFAULT_BUDGET
        self.task = QPlainTextEdit()
        self.task.setPlaceholderText("Describe the task the model is asked to do ...")
        self.task.setMaximumHeight(48)
        self.pack_model = PackActivationModel(self)
        self.pack_model.changed.connect(self.changed)
        self.pack_model.toggled.connect(self._show_chooser)
        # A table, not a tree: a tree view lays out every row (asking the model about each) before it draws,
        # which took a fifth of a second at 10,000 packs; a table of rows of one height lays out none.
        self.pack_list = QTableView()
        self.pack_list.setModel(self.pack_model)
        self.pack_list.verticalHeader().hide()
        self.pack_list.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)  # room for a combo
        self.pack_list.setShowGrid(False)
        self.pack_list.setWordWrap(False)
        self.pack_list.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.pack_list.horizontalHeader().setStretchLastSection(True)
        self.pack_list.setMaximumHeight(130)
        self.pack_list.setItemDelegateForColumn(COL_ACTIVATION, _ActivationChooser(self.pack_list))
        self.profile = _override_combo(PROFILES)
        self.mode = _override_combo(RUNTIME_MODES)
        self.grounding = _override_combo(GROUNDING_POLICIES)
        self.encoding = QComboBox()
        for name in known_encodings():
            self.encoding.addItem(name, name)
        self.encoding.setCurrentIndex(max(0, self.encoding.findData(DEFAULT_ENCODING)))
        self.reference = QCheckBox("Reference mode")
        self.reference.setToolTip("Show the reference CLI's dry run side by side with the studio's resolver")
        self.use_feedback = QCheckBox("Use feedback")
        self.use_feedback.setToolTip("Rank with the helpful / harmful feedback recorded in runs/ (each item then says "
                                     "how feedback moved it). Off: the standard's simulation.")
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, SLIDER_STEPS)
        self.spin = QSpinBox()
        self.spin.setRange(MIN_BUDGET, MAX_BUDGET)
        self.spin.setSingleStep(100)
        self.spin.setGroupSeparatorShown(True)
        self.spin.setSuffix(" tokens")
        self.spin.setValue(DEFAULT_BUDGET)
        self.slider.setValue(budget_to_slider(DEFAULT_BUDGET))
        self.slider.valueChanged.connect(self._slider_moved)
        self.spin.valueChanged.connect(self._spin_changed)
        for signal in (self.task.textChanged, self.profile.currentIndexChanged, self.mode.currentIndexChanged,
                       self.grounding.currentIndexChanged, self.encoding.currentIndexChanged,
                       self.reference.toggled, self.use_feedback.toggled):
            signal.connect(self.changed)

        # Each label stays with its combo box; the pairs wrap onto a second line in a narrow window.
        overrides = FlowLayout()
        for label, combo in (("Profile", self.profile), ("Runtime mode", self.mode),
                             ("Grounding", self.grounding), ("Encoding", self.encoding)):
            overrides.add_labelled(label, combo)
        # The switches share the budget's row: every line of the form is a line less for the results below it.
        budget = QHBoxLayout()
        budget.addWidget(self.slider, 1)
        budget.addWidget(self.spin)
        budget.addWidget(self.reference)
        budget.addWidget(self.use_feedback)
        form = QFormLayout()
        form.addRow("Task", self.task)
        form.addRow("Packs", self.pack_list)
        form.addRow("Overrides", overrides)
        form.addRow("Budget", budget)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(form)

    # -- budget sync: each widget drives the other without echoing back ---------------------------
    def _slider_moved(self, position: int) -> None:
        self._follow(self.spin, slider_to_budget(position))

    def _spin_changed(self, value: int) -> None:
        self._follow(self.slider, budget_to_slider(value))

    def _follow(self, other: QSlider | QSpinBox, value: int) -> None:
        """Move ``other`` to ``value`` silently (its own change would move the first widget back), then say the
        budget changed."""
        if value != other.value():
            with QSignalBlocker(other):
                other.setValue(value)
        self.changed.emit()

    def set_task(self, task: str, budget: int, profile: str | None = None) -> None:
        """Fill the form from a handed-over task (an eval case): its text, budget and profile override."""
        self.task.setPlainText(layout_safe(task))  # an eval case is pack text: its blanks are bounded
        self.set_budget(budget)
        self.profile.setCurrentIndex(max(0, self.profile.findData(profile)))

    @property
    def budget(self) -> int:
        return self.spin.value()

    def set_budget(self, budget: int) -> None:
        self.spin.setValue(budget)

    def apply_preferences(self, encoding: str, budget: int, variant: FenceVariant) -> None:
        """New defaults: the encoding and budget move to them unless the user has changed them in the form
        (a value picked for this simulation outranks a default); the fence variant applies at once."""
        if self.encoding.currentData() == self._default_encoding and self.encoding.findData(encoding) >= 0:
            self.encoding.setCurrentIndex(self.encoding.findData(encoding))
        if self.budget == self._default_budget:
            self.set_budget(budget)
        self._default_encoding, self._default_budget = encoding, budget
        if variant != self.variant:
            self.variant = variant
            self.changed.emit()

    # -- packs -----------------------------------------------------------------------------------
    def set_packs(self, packs: list[Pack], checked: set[str] | None = None,
                  names: list[str] | None = None) -> None:
        """List ``packs``; those named in ``checked`` (default: the first ready one) start activated.

        ``names``: the packs' names, when the caller has read them already (off the GUI thread).
        """
        self.packs = list(packs)
        if checked is None:
            first = next((p for p in packs if p.status == "ready"), packs[0] if packs else None)
            checked = {first.name} if first else set()
        names = names if names is not None else [p.name for p in self.packs]
        self.pack_model.set_packs(self.packs, checked, names)
        for row in self.pack_model.checked_rows():
            self._show_chooser(row, True)
        # Room for the longest name (up to a limit), measured once: asking the view to measure its cells
        # asks the model for hundreds of them.
        longest = max(names, key=len, default="")[:NAME_WIDTH_CHARS]
        indicator = self.style().pixelMetric(QStyle.PixelMetric.PM_IndicatorWidth)
        self.pack_list.setColumnWidth(COL_PACK, self.fontMetrics().horizontalAdvance(longest) + indicator + 24)
        self.changed.emit()

    def _show_chooser(self, row: int, shown: bool) -> None:
        """An activation chooser only on activated packs: a widget per row would make a 10,000-pack list slow."""
        index = self.pack_model.index(row, COL_ACTIVATION)
        if shown:
            self.pack_list.openPersistentEditor(index)
        else:
            self.pack_list.closePersistentEditor(index)

    def set_checked(self, name: str, checked: bool) -> None:
        self.pack_model.set_checked(name, checked)

    def set_confirmed(self, name: str, confirmed: bool) -> None:
        """Tick (or untick) the explicit confirmation of a disputed pack."""
        self.pack_model.set_confirmed(name, confirmed)

    def set_activation(self, name: str, activation: str) -> None:
        self.pack_model.set_activation(name, activation)

    def request(self) -> ResolveRequest:
        model = self.pack_model
        packs = [p for p in self.packs if model.is_checked(p.name)]
        activation = {p.name: model.activation(p.name) for p in packs}
        confirmed = {p.name for p in packs if p.status == "disputed" and model.is_confirmed(p.name)}
        return ResolveRequest(
            task=self.task.toPlainText(), packs=packs, profile_override=self.profile.currentData(),
            mode_override=self.mode.currentData(), grounding_override=self.grounding.currentData(),
            budget=self.budget, encoding=self.encoding.currentData() or DEFAULT_ENCODING,
            activation=activation,  # type: ignore[arg-type]  # values come from ACTIVATIONS
            confirmed=confirmed, variant=self.variant.value, reference=self.reference.isChecked(),
            use_feedback=self.use_feedback.isChecked(),
        )


class _ActivationChooser(QStyledItemDelegate):
    """The activation column's editor: a combo box that commits as soon as another activation is picked."""

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem,  # noqa: N802 (Qt's name)
                     index: QModelIndex | QPersistentModelIndex) -> QWidget:
        combo = QComboBox(parent)
        combo.addItems(ACTIVATIONS)
        combo.currentIndexChanged.connect(lambda _i: self.commitData.emit(combo))
        return combo

    def setEditorData(self, editor: QWidget, index: QModelIndex | QPersistentModelIndex) -> None:  # noqa: N802
        if isinstance(editor, QComboBox):
            editor.blockSignals(True)
            editor.setCurrentText(str(index.data(Qt.ItemDataRole.EditRole) or ACTIVATIONS[0]))
            editor.blockSignals(False)

    def setModelData(self, editor: QWidget, model: QAbstractItemModel,  # noqa: N802 (Qt's name)
                     index: QModelIndex | QPersistentModelIndex) -> None:
        if isinstance(editor, QComboBox):
            model.setData(index, editor.currentText(), Qt.ItemDataRole.EditRole)
