"""The Problems panel says how many problems a filter hides, in its title and before F8 skips them."""

from __future__ import annotations

from studio.core.diagnostics import Diagnostic, Severity
from studio.ui.models.diagnostics_table import DiagnosticsTableModel
from studio.ui.widgets.problems_panel import ProblemsPanel


def findings(root: str, errors: int, warnings: int) -> list[Diagnostic]:
    return ([Diagnostic(f"e{i}", Severity.ERROR, "broken", pack=root, line=i + 1) for i in range(errors)]
            + [Diagnostic(f"w{i}", Severity.WARNING, "odd", pack=root, line=i + 1) for i in range(warnings)])


def panel_with(qtbot, errors: int = 9, warnings: int = 45) -> ProblemsPanel:  # type: ignore[no-untyped-def]
    model = DiagnosticsTableModel()
    panel = ProblemsPanel(model)
    qtbot.addWidget(panel)
    model.set_pack("/w/a", "a", findings("/w/a", errors, warnings), "project")
    return panel


def test_the_title_says_9_of_54_while_filtered(qtbot) -> None:
    panel = panel_with(qtbot)
    titles: list[str] = []
    panel.title_changed.connect(titles.append)
    assert panel.title() == "Problems (9 errors, 45 warnings, 0 info)"
    assert panel.filter_note.isHidden()
    panel.severity_boxes[Severity.WARNING].setChecked(False)
    assert titles[-1] == "Problems (9 of 54 shown; 9 errors, 45 warnings, 0 info in all)"
    assert not panel.filter_note.isHidden() and "Showing 9 of 54 problems" in panel.filter_note.text()
    panel.severity_boxes[Severity.WARNING].setChecked(True)
    assert titles[-1] == "Problems (9 errors, 45 warnings, 0 info)" and panel.filter_note.isHidden()


def test_f8_says_when_a_hidden_filter_limits_it(qtbot) -> None:
    panel = panel_with(qtbot)
    notes: list[str] = []
    panel.step_note.connect(notes.append)
    assert panel.step(1) == ""  # nothing hidden: nothing to say
    panel.filter.setText("broken")
    note = panel.step(1)
    assert note == "Problem 2 of the 9 shown; the filter (text \u201cbroken\u201d) hides 45 more."
    assert notes[-1] == note and panel.filter_note.text() == note
    panel.filter.setText("no such words")
    assert panel.step(1).startswith("No problem to go to: the filter (text \u201cno such words\u201d) hides all 54")


def test_a_long_message_keeps_its_start_and_a_path_its_ends(qtbot) -> None:  # type: ignore[no-untyped-def]
    # A message says what is wrong in its first words (the skill's name in "Produced by agent-skill '...'"), so
    # it is cut at its end; labels and paths differ at their ends, so they are cut in the middle.
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QStyleOptionViewItem

    from studio.ui.widgets.problems_panel import MESSAGE_COLUMN

    panel = panel_with(qtbot, 1, 0)
    table = panel.table

    def elide_mode(column: int) -> Qt.TextElideMode:
        option = QStyleOptionViewItem()
        option.textElideMode = table.textElideMode()  # as the view hands it to the delegate
        table.itemDelegateForIndex(table.model().index(0, column)).initStyleOption(
            option, table.model().index(0, column))
        return option.textElideMode

    assert elide_mode(MESSAGE_COLUMN) == Qt.TextElideMode.ElideRight
    assert elide_mode(3) == Qt.TextElideMode.ElideMiddle  # the path
