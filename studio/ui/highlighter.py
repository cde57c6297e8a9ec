"""Pygments highlighting adapted to QSyntaxHighlighter.

The document is lexed as a whole in a worker (pygments lexers keep state across lines, which a per-block
highlighter cannot replay cheaply); the result is a list of spans per line. ``highlightBlock`` only looks
its line up. After each re-lex, only the lines whose spans changed are re-highlighted.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from functools import cache
from pathlib import PurePath
from typing import Any

# Pygments ships no type information (as in ``studio.core.render.markdown``).
from pygments.lexer import Lexer  # type: ignore[import-untyped]
from pygments.lexers import (  # type: ignore[import-untyped]
    JsonLexer,
    MarkdownLexer,
    TextLexer,
    XmlLexer,
    YamlLexer,
    get_lexer_for_filename,
)
from pygments.styles import get_style_by_name  # type: ignore[import-untyped]
from pygments.token import _TokenType  # type: ignore[import-untyped]
from pygments.util import ClassNotFound  # type: ignore[import-untyped]
from PySide6.QtGui import QColor, QFont, QSyntaxHighlighter, QTextCharFormat, QTextDocument

from studio.ui import workers
from studio.ui.debounce import debounce_timer
from studio.ui.pacing import HIGHLIGHT, Paced
from studio.ui.theme import theme_signals

Span = tuple[int, int, Any]
"""(start column, length, pygments token type) within one line."""
LEX_LIMIT = 1_000_000
"""Characters beyond this are left plain: highlighting is a comfort, not worth a long wait."""


def language_for(name: str) -> str:
    """Pick a highlighting language from a file name."""
    suffix = PurePath(name).suffix.lower()
    if name == "KNOWLEDGE.md" or suffix in (".md", ".markdown"):
        return "markdown+yaml"
    return {".json": "json", ".jsonl": "json", ".xml": "xml", ".yaml": "yaml", ".yml": "yaml"}.get(suffix, name)


def _lexer(language: str) -> Lexer:
    fixed: dict[str, type[Lexer]] = {"markdown": MarkdownLexer, "json": JsonLexer, "xml": XmlLexer,
                                     "yaml": YamlLexer, "text": TextLexer}
    # Keep every newline as it is: spans are placed by line.
    if language in fixed:
        return fixed[language](stripnl=False, ensurenl=False)
    try:
        return get_lexer_for_filename(language, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return fixed["text"](stripnl=False, ensurenl=False)


def _frontmatter_end(text: str) -> int:
    """Offset just past the closing ``---`` line of a leading YAML block, or 0 when there is none."""
    if not text.startswith("---\n"):
        return 0
    pos = 4
    while True:
        nl = text.find("\n", pos)
        line = text[pos: nl if nl >= 0 else len(text)]
        if line.rstrip() in ("---", "..."):
            return nl + 1 if nl >= 0 else len(text)
        if nl < 0:
            return 0
        pos = nl + 1


def lex_lines(text: str, language: str) -> list[list[Span]]:
    """Spans for every line of ``text`` (runs in a worker)."""
    text = text[:LEX_LIMIT]
    pieces: list[tuple[int, str, str]] = []
    if language == "markdown+yaml":
        end = _frontmatter_end(text)
        if end:
            pieces.append((0, text[:end], "yaml"))
        pieces.append((end, text[end:], "markdown"))
    else:
        pieces.append((0, text, language))
    line_starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    lines: list[list[Span]] = [[] for _ in line_starts]
    for base, chunk, lang in pieces:
        for offset, ttype, value in _lexer(lang).get_tokens_unprocessed(chunk):
            start = base + offset
            # A token may cross lines (block strings, comments): cut it at each newline.
            for part in value.split("\n"):
                if part:
                    line = bisect_right(line_starts, start) - 1
                    lines[line].append((start - line_starts[line], len(part), ttype))
                start += len(part) + 1
    return lines


@cache
def _format(style_name: str, ttype: _TokenType) -> QTextCharFormat:
    style = get_style_by_name(style_name)
    while not style.styles_token(ttype) and ttype.parent is not None:
        ttype = ttype.parent  # lexers invent sub-types a style may not list (Token.Literal.Scalar.Plain)
    spec = style.style_for_token(ttype)
    fmt = QTextCharFormat()
    if spec.get("color"):
        fmt.setForeground(QColor(f"#{spec['color']}"))
    if spec.get("bgcolor"):
        fmt.setBackground(QColor(f"#{spec['bgcolor']}"))
    if spec.get("bold"):
        fmt.setFontWeight(QFont.Weight.Bold)
    if spec.get("italic"):
        fmt.setFontItalic(True)
    if spec.get("underline"):
        fmt.setFontUnderline(True)
    return fmt


def style_name(dark: bool) -> str:
    for name in (("github-dark", "monokai") if dark else ("friendly", "default")):
        try:
            get_style_by_name(name)
            return name
        except ClassNotFound:
            continue
    return "default"


class PygmentsHighlighter(QSyntaxHighlighter):
    """Applies spans produced by ``lex_lines`` in a worker; re-lexes 150 ms after the last edit."""

    def __init__(self, document: QTextDocument, language: str, dark: bool = False) -> None:
        super().__init__(document)
        self.language = language
        self.style = style_name(dark)
        self.lines: list[list[Span]] = []
        self._painting: Paced[int] = Paced(self, HIGHLIGHT, self._rehighlight)
        """Numbers of the lines to colour again, a slice per turn so that a long file never blocks typing."""
        self._latest = 0
        self._timer = debounce_timer(self, 150, self.relex)
        document.contentsChange.connect(self._edited)
        theme_signals().changed.connect(self.set_dark)  # View ▸ Theme applies at once
        self.relex()

    def set_dark(self, dark: bool) -> None:
        """Colour the text for a dark (or light) background: every line again, a slice per turn."""
        style = style_name(dark)
        if style == self.style:
            return
        self.style = style
        self._painting.replace(range(len(self.lines)))

    def _edited(self, _pos: int, removed: int, added: int) -> None:
        if removed or added:
            self._timer.start()

    def relex(self) -> None:
        doc: QTextDocument | None = self.document()  # None once taken off its document (the stubs say never)
        if doc is None:
            return
        self._latest = workers.submit(lex_lines, doc.toPlainText(), self.language, on_done=self._lexed)

    def _lexed(self, request_id: int, lines: list[list[Span]]) -> None:
        if request_id != self._latest or self.document() is None:
            return
        old, self.lines = self.lines, lines
        changed = [
            n for n in range(max(len(old), len(lines)))
            if (old[n] if n < len(old) else None) != (lines[n] if n < len(lines) else None)
        ]
        # On later turns: when a file has just been opened, its first paint (plain text) then goes out
        # before the colours, instead of both adding up to one long wait.
        self._painting.replace(changed)

    def forget(self) -> None:
        """Drop the spans of the current text before it is replaced wholesale.

        Otherwise Qt re-highlights every block of the new text with the old text's spans while the new
        text is being set (a Python call per line for nothing), and again when the new spans arrive.
        """
        self.lines = []
        self._painting.cancel()
        self._latest = 0  # a lex of the old text still in flight is dropped

    def _rehighlight(self, numbers: Iterator[int]) -> None:
        doc: QTextDocument | None = self.document()
        if doc is None:
            return  # taken off its document: nothing is taken, which ends the work
        for number in numbers:
            block = doc.findBlockByNumber(number)
            if block.isValid():
                self.rehighlightBlock(block)

    def highlightBlock(self, text: str) -> None:
        if not self.lines:
            return  # Qt calls this for every block of a new text: return before asking anything
        number = self.currentBlock().blockNumber()
        if number >= len(self.lines):
            return
        for start, length, ttype in self.lines[number]:
            if start < len(text):
                self.setFormat(start, min(length, len(text) - start), _format(self.style, ttype))
