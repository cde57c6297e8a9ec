"""The Activation preview's "As a tool" toggle: the same listing as an '# Input Files' block and a read_files tool."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from studio.core.pack import load_pack
from studio.core.render.tool_form import build_tool_form, render_tool_form
from studio.ui.previews import build_previews
from studio.ui.widgets.preview_pane import ActivationPreview, PreviewPane


def test_previews_carry_the_tool_form(examples_copy: Path) -> None:
    pack = load_pack(examples_copy / "northwind-espresso")
    previews = build_previews(pack)
    assert previews.activation_tool is not None
    assert previews.activation_tool.text == render_tool_form(build_tool_form(pack))
    assert "tokens" in previews.activation_tool.tokens and "read-files" in previews.activation_tool.note


def test_the_toggle_switches_text_and_count(qtbot, examples_copy: Path) -> None:
    previews = build_previews(load_pack(examples_copy / "northwind-espresso"))
    widget = ActivationPreview()
    qtbot.addWidget(widget)
    widget.show_previews(previews.activation, previews.activation_tool)
    assert widget.view.toPlainText().startswith("<knowledge_pack_guide")
    assert widget.as_tool.isEnabled() and not widget.note.isVisibleTo(widget)
    with qtbot.waitSignal(widget.as_tool_changed) as changed:
        widget.as_tool.setChecked(True)
    assert changed.args == [True]
    text = widget.view.toPlainText()
    assert text.startswith("# Input Files\n<file><id>northwind-espresso:")
    assert widget.tokens.text() == previews.activation_tool.tokens and widget.note.isVisibleTo(widget)
    rows = text.split("\n\n", 1)[0].splitlines()[1:]
    assert len(ET.fromstring("<f>" + "".join(rows) + "</f>")) == 14
    widget.as_tool.setChecked(False)
    assert widget.view.toPlainText() == previews.activation.text


def test_the_pane_keeps_the_toggle_across_packs(qtbot, examples_copy: Path) -> None:
    pane = PreviewPane()
    qtbot.addWidget(pane)
    pane.activation.as_tool.setChecked(True)
    with qtbot.waitSignal(pane.built, timeout=20_000):
        pane.show_pack(load_pack(examples_copy / "orbit-launch-notes"))
    assert pane.activation.view.toPlainText().startswith("# Input Files\n<file><id>orbit-launch-notes:")
    pane.clear_pack()
    assert pane.activation.view.toPlainText() == "" and not pane.activation.as_tool.isEnabled()
