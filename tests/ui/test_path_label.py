"""A path in a label wraps at its separators and is copied as it is (the Inspector's Root)."""

from __future__ import annotations

from PySide6.QtGui import QFontMetrics, QGuiApplication, QTextLayout, QTextOption
from PySide6.QtWidgets import QLabel

from studio.ui.widgets.path_label import PathLabel

ROOT = "/work/shared/corpus/real/AGenNext__Agent-Memory/Agent-Memory"


def _line_widths(text: str, label: QLabel, width: int) -> list[float]:
    """How Qt's word wrap lays ``text`` out in ``width`` pixels: each line's natural width."""
    layout = QTextLayout(text, label.font())
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WordWrap)
    layout.setTextOption(option)
    layout.beginLayout()
    widths = []
    while (line := layout.createLine()).isValid():
        line.setLineWidth(width)
        widths.append(line.naturalTextWidth())
    layout.endLayout()
    return widths


def test_a_long_path_wraps_inside_the_label_and_copies_clean(qtbot) -> None:  # type: ignore[no-untyped-def]
    label = PathLabel()
    qtbot.addWidget(label)
    label.setText(ROOT)
    width = QFontMetrics(label.font()).horizontalAdvance("AGenNext__Agent-") - 10  # under the longest folder name
    # What the label shows wraps within its width (the bare path has a line past it: the folder name is one word).
    assert max(_line_widths(QLabel.text(label), label, width)) <= width
    assert max(_line_widths(ROOT, label, width)) > width
    assert label.text() == ROOT  # what code reads: the path, not what is shown
    label.copy_path()
    clipboard = QGuiApplication.clipboard()
    assert clipboard is not None and clipboard.text() == ROOT  # no zero-width space goes with it
    assert "\u200b" not in label.toolTip()
