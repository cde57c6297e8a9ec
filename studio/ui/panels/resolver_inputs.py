"""ResolverInputs: the simulator's form (task, packs with activation, overrides, encoding, budget, switches).

Every edit emits ``changed``; ``request()`` turns the form into a core ``ResolveRequest``. Disputed
packs carry a separate "confirm" tick: checking the pack alone does not load it. The starting encoding
and budget and the fence variant come from the preferences (``apply_preferences``).
"""

from __future__ import annotations

import math

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QSlider,
    QSpinBox,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.core.model import GROUNDING_POLICIES, PROFILES, RUNTIME_MODES, Pack
from studio.core.render.fence import FenceVariant
from studio.core.resolver import ResolveRequest
from studio.core.resolver.budget import DEFAULT_BUDGET, MAX_BUDGET, MIN_BUDGET
from studio.core.tokens import DEFAULT_ENCODING, known_encodings
from studio.ui.fit import FlowLayout

SLIDER_STEPS = 1000
"""The slider is logarithmic: equal moves multiply the budget by equal factors, so 100-2,000 is usable."""
AS_DECLARED = "as declared"
ACTIVATIONS = ("explicit", "implicit", "resolver-driven")
_COL_PACK, _COL_STATUS, _COL_ACTIVATION, _COL_CONFIRM = range(4)


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
        self.pack_list = QTreeWidget()
        self.pack_list.setHeaderLabels(["Pack", "Status", "Activation", "Confirm disputed"])
        self.pack_list.setRootIsDecorated(False)
        self.pack_list.setMaximumHeight(130)
        self.pack_list.itemChanged.connect(self._item_changed)
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
            pair = QWidget()
            pair_layout = QHBoxLayout(pair)
            pair_layout.setContentsMargins(0, 0, 0, 0)
            pair_layout.addWidget(QLabel(label))
            pair_layout.addWidget(combo)
            overrides.add(pair)
        budget = QHBoxLayout()
        budget.addWidget(self.slider, 1)
        budget.addWidget(self.spin)
        form = QFormLayout()
        form.addRow("Task", self.task)
        form.addRow("Packs", self.pack_list)
        form.addRow("Overrides", overrides)
        form.addRow("Budget", budget)
        switches = FlowLayout()
        switches.add(self.reference)
        switches.add(self.use_feedback)
        form.addRow("", switches)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(form)

    # -- budget sync: each widget drives the other without echoing back ---------------------------
    def _slider_moved(self, position: int) -> None:
        budget = slider_to_budget(position)
        if budget != self.spin.value():
            self.spin.blockSignals(True)
            self.spin.setValue(budget)
            self.spin.blockSignals(False)
        self.changed.emit()

    def _spin_changed(self, value: int) -> None:
        position = budget_to_slider(value)
        if position != self.slider.value():
            self.slider.blockSignals(True)
            self.slider.setValue(position)
            self.slider.blockSignals(False)
        self.changed.emit()

    def set_task(self, task: str, budget: int, profile: str | None = None) -> None:
        """Fill the form from a handed-over task (an eval case): its text, budget and profile override."""
        self.task.setPlainText(task)
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
    def set_packs(self, packs: list[Pack], checked: set[str] | None = None) -> None:
        """List ``packs``; those named in ``checked`` (default: the first ready one) start activated."""
        self.packs = list(packs)
        if checked is None:
            first = next((p for p in packs if p.status == "ready"), packs[0] if packs else None)
            checked = {first.name} if first else set()
        self.pack_list.blockSignals(True)
        self.pack_list.clear()
        for pack in self.packs:
            item = QTreeWidgetItem([pack.name, pack.status or "(none)", "", ""])
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(_COL_PACK, Qt.CheckState.Checked if pack.name in checked else Qt.CheckState.Unchecked)
            item.setData(_COL_PACK, Qt.ItemDataRole.UserRole, pack.name)
            if pack.status == "disputed":
                item.setCheckState(_COL_CONFIRM, Qt.CheckState.Unchecked)
                item.setText(_COL_CONFIRM, "I confirm using it")
                item.setToolTip(_COL_CONFIRM, "A disputed pack is never loaded until you confirm it explicitly.")
            self.pack_list.addTopLevelItem(item)
            self._sync_activation(item)
        self.pack_list.resizeColumnToContents(_COL_PACK)
        self.pack_list.blockSignals(False)
        self.changed.emit()

    def _item(self, name: str) -> QTreeWidgetItem | None:
        for i in range(self.pack_list.topLevelItemCount()):
            item = self.pack_list.topLevelItem(i)
            if item.data(_COL_PACK, Qt.ItemDataRole.UserRole) == name:
                return item
        return None

    def _item_changed(self, item: QTreeWidgetItem, _column: int) -> None:
        self._sync_activation(item)
        self.changed.emit()

    def _sync_activation(self, item: QTreeWidgetItem) -> None:
        """An activation chooser only on activated packs: a widget per row would make a 1,000-pack list slow."""
        combo = self.pack_list.itemWidget(item, _COL_ACTIVATION)
        if item.checkState(_COL_PACK) == Qt.CheckState.Checked and not isinstance(combo, QComboBox):
            combo = QComboBox()
            combo.addItems(ACTIVATIONS)
            combo.currentIndexChanged.connect(self.changed)
            self.pack_list.setItemWidget(item, _COL_ACTIVATION, combo)

    def set_checked(self, name: str, checked: bool) -> None:
        if item := self._item(name):
            item.setCheckState(_COL_PACK, Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)

    def set_confirmed(self, name: str, confirmed: bool) -> None:
        """Tick (or untick) the explicit confirmation of a disputed pack."""
        item = self._item(name)
        if item is not None and item.text(_COL_CONFIRM):
            item.setCheckState(_COL_CONFIRM, Qt.CheckState.Checked if confirmed else Qt.CheckState.Unchecked)

    def set_activation(self, name: str, activation: str) -> None:
        item = self._item(name)
        combo = self.pack_list.itemWidget(item, _COL_ACTIVATION) if item else None
        if isinstance(combo, QComboBox):
            combo.setCurrentText(activation)

    def request(self) -> ResolveRequest:
        packs: list[Pack] = []
        activation: dict[str, str] = {}
        confirmed: set[str] = set()
        by_name = {p.name: p for p in self.packs}
        for i in range(self.pack_list.topLevelItemCount()):
            item = self.pack_list.topLevelItem(i)
            name = item.data(_COL_PACK, Qt.ItemDataRole.UserRole)
            if item.checkState(_COL_PACK) != Qt.CheckState.Checked or name not in by_name:
                continue
            packs.append(by_name[name])
            combo = self.pack_list.itemWidget(item, _COL_ACTIVATION)
            activation[name] = combo.currentText() if isinstance(combo, QComboBox) else "explicit"
            if item.text(_COL_CONFIRM) and item.checkState(_COL_CONFIRM) == Qt.CheckState.Checked:
                confirmed.add(name)
        return ResolveRequest(
            task=self.task.toPlainText(), packs=packs, profile_override=self.profile.currentData(),
            mode_override=self.mode.currentData(), grounding_override=self.grounding.currentData(),
            budget=self.budget, encoding=self.encoding.currentData() or DEFAULT_ENCODING,
            activation=activation,  # type: ignore[arg-type]  # values come from ACTIVATIONS
            confirmed=confirmed, variant=self.variant.value, reference=self.reference.isChecked(),
            use_feedback=self.use_feedback.isChecked(),
        )
