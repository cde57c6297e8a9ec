"""ReviewForm: the curator's decision (confirm / reject / keep needs-review), a required reason, and the
optional status/trust edit of ``KNOWLEDGE.md``; DiffDialog shows that edit before anything is written.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from studio.core.model import STATUSES, TRUST_LEVELS
from studio.ui.buttons import command_button
from studio.ui.fit import FlowLayout
from studio.ui.pack_text_view import PackTextView
from studio.ui.panels.record_view import monospace_font

DECISION_LABELS = (("confirm", "Confirm"), ("reject", "Reject"), ("needs-review", "Keep needs-review"))
SUGGESTED = {
    "confirm": ("ready", "user-confirmed"),
    "reject": ("disputed", None),  # rejected content stays gated: no client loads it without confirmation
    "needs-review": ("needs-review", None),
}
"""The status/trust the edit proposes per decision (None keeps the current value); the curator may change both."""
UNCHANGED = "(unchanged)"


class ReviewForm(QWidget):
    """Signals:
        record_requested(): the curator pressed Record (only possible once a reason is typed).
    """

    record_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.decisions = QButtonGroup(self)
        row = FlowLayout()
        self.buttons: dict[str, QRadioButton] = {}
        for value, label in DECISION_LABELS:
            button = QRadioButton(label)
            button.setProperty("decision", value)
            self.decisions.addButton(button)
            self.buttons[value] = button
            row.add(button)
        self.buttons["confirm"].setChecked(True)
        self.reason = QPlainTextEdit()
        self.reason.setPlaceholderText("Why? (required: the reason is stored in the review record)")
        self.reason.setMaximumHeight(70)
        self.reviewer = QLineEdit(placeholderText="your name (defaults to the login name)")
        self.update_knowledge = QCheckBox("Also update KNOWLEDGE.md")
        self.update_knowledge.setToolTip("Also edit status / trust in KNOWLEDGE.md; the diff is shown before "
                                         "anything is written")
        self.new_status = QComboBox()
        self.new_trust = QComboBox()
        for combo, values in ((self.new_status, STATUSES), (self.new_trust, TRUST_LEVELS)):
            combo.addItem(UNCHANGED, None)
            for value in values:
                combo.addItem(value, value)
        self.record_button = command_button("Record decision", self.record_requested)
        self.reason.textChanged.connect(self._update_enabled)
        self.update_knowledge.toggled.connect(self._update_enabled)
        self.decisions.buttonToggled.connect(lambda *_: self._suggest())

        edits = FlowLayout()
        for widget in (QLabel("status"), self.new_status, QLabel("trust"), self.new_trust):
            edits.add(widget)
        form = QFormLayout(self)
        form.addRow("Decision", row)
        form.addRow("Reason", self.reason)
        form.addRow("Reviewer", self.reviewer)
        form.addRow("", self.update_knowledge)
        form.addRow("New values", edits)
        form.addRow("", self.record_button)
        self._suggest()

    @property
    def decision(self) -> str:
        checked = self.decisions.checkedButton()
        return str(checked.property("decision")) if checked else "confirm"

    def set_decision(self, decision: str) -> None:
        self.buttons[decision].setChecked(True)

    def _suggest(self) -> None:
        status, trust = SUGGESTED[self.decision]
        self.new_status.setCurrentIndex(max(0, self.new_status.findData(status)))
        self.new_trust.setCurrentIndex(max(0, self.new_trust.findData(trust)) if trust else 0)

    def _update_enabled(self) -> None:
        self.record_button.setEnabled(bool(self.reason.toPlainText().strip()) and self.isEnabled())
        for widget in (self.new_status, self.new_trust):
            widget.setEnabled(self.update_knowledge.isChecked())

    def reset(self, enabled: bool) -> None:
        """Clear the reason and untick the edit (after a recorded decision or when the pack changes)."""
        self.setEnabled(enabled)
        self.reason.clear()
        self.update_knowledge.setChecked(False)
        self._update_enabled()

    def edits(self) -> tuple[str | None, str | None]:
        """(new status, new trust) when the edit is ticked; None means "leave as it is"."""
        if not self.update_knowledge.isChecked():
            return None, None
        return self.new_status.currentData(), self.new_trust.currentData()


class DiffDialog(QDialog):
    """Shows the unified diff of the proposed ``KNOWLEDGE.md`` edit; Save writes it, Cancel writes nothing."""

    def __init__(self, diff: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Update KNOWLEDGE.md?")
        self.diff = PackTextView(diff, font=monospace_font())
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Only these characters change; every other byte of the file stays as it is. "
                                "The review record is written too."))
        layout.addWidget(self.diff, 1)
        layout.addWidget(buttons)
        self.resize(640, 300)
