"""The editor widget on its own: highlighting, diagnostics in place, find, navigation."""

from __future__ import annotations

from PySide6.QtGui import QTextCharFormat

from studio.core.diagnostics import Diagnostic, Severity
from studio.ui.highlighter import PygmentsHighlighter, language_for, lex_lines
from studio.ui.widgets.code_editor import CodeEditor
from studio.ui.widgets.find_bar import FindBar

TEXT = "---\nname: demo\nstatus: ready\n---\n# Title\n\nBody with 中文 text\n"


def test_language_is_picked_from_the_file_name() -> None:
    assert language_for("KNOWLEDGE.md") == "markdown+yaml"
    assert language_for("source-map.json") == "json"
    assert language_for("catalog.xml") == "xml"


def test_frontmatter_is_lexed_as_yaml_and_the_body_as_markdown() -> None:
    lines = lex_lines(TEXT, "markdown+yaml")
    assert len(lines) == TEXT.count("\n") + 1
    key_types = {str(t) for _s, _l, t in lines[1]}
    assert any("Tag" in t for t in key_types)  # "name" is a YAML key
    assert any("Heading" in str(t) for _s, _l, t in lines[4])


def test_highlighting_reaches_the_document(qtbot) -> None:
    editor = CodeEditor()
    qtbot.addWidget(editor)
    editor.setPlainText(TEXT)
    highlighter = PygmentsHighlighter(editor.document(), "markdown+yaml")
    qtbot.waitUntil(lambda: bool(highlighter.lines), timeout=5000)
    heading = editor.document().findBlockByNumber(4)
    qtbot.waitUntil(lambda: len(heading.layout().formats()) > 0, timeout=5000)
    ranges = heading.layout().formats()
    fmt = QTextCharFormat(ranges[0].format)  # copy: the range owns the original
    assert (ranges[0].start, ranges[0].length) == (0, len("# Title"))
    assert fmt.fontWeight() > 400 or fmt.foreground().color().name() != "#000000"


def test_diagnostics_are_underlined_and_listed_per_line(qtbot) -> None:
    editor = CodeEditor()
    qtbot.addWidget(editor)
    editor.setPlainText(TEXT)
    diag = Diagnostic("invalid-status", Severity.ERROR, "bad status", line=3, column=9)
    editor.set_diagnostics([diag])
    underlines = [s for s in editor.extraSelections()
                  if s.format.underlineStyle() == QTextCharFormat.UnderlineStyle.WaveUnderline]
    assert len(underlines) == 1
    assert underlines[0].cursor.selectedText() == "ready"
    assert editor.diagnostics_at_line(3) == [diag]
    editor.go_to(3, 9)
    assert editor.textCursor().blockNumber() == 2 and editor.textCursor().positionInBlock() == 8


def test_find_wraps_around_and_reports_no_match(qtbot) -> None:
    editor = CodeEditor()
    qtbot.addWidget(editor)
    editor.setPlainText(TEXT)
    bar = FindBar(editor)
    bar.field.setText("中文")
    assert editor.textCursor().selectedText() == "中文"
    assert bar.find_match(forward=True)  # wraps back to the only match
    bar.field.setText("absent")
    assert bar.status.text() == "No match"
