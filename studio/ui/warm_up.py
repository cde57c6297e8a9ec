"""Pay the first-paint costs of the editor while the user has not clicked anything yet.

The first file a user opens used to paint about 15 ms slower than every later one, all of it one-off:
PySide creating enum types on first use (``QPainter.fillRect`` resolving its overloads creates five
``QGradient`` enums), the editor font's glyphs being rasterised, the severity icons' SVGs rendered.
Rendering a small throwaway editor offscreen once, in three short steps on idle turns of the event loop,
moves that cost to a moment when nothing waits for it. Nothing is shown and no file is read.
"""

from __future__ import annotations

import string

from PySide6.QtCore import QObject, QTimer

from studio.core.checks.unknown_keys import UNKNOWN_KEY
from studio.core.diagnostics import Severity
from studio.ui.turns import next_turn
from studio.ui.widgets.code_editor import CodeEditor

SAMPLE_TEXT = "\n".join([
    "---",
    "name: warm-up",
    "description: 中文 日本語 한국어 — text in every script the editor usually shows",
    string.ascii_letters,
    string.digits + string.punctuation,
    *[f"line {n}" for n in range(30)],
])
"""Lines that make the editor rasterise the glyphs nearly every pack uses, and a gutter of 30+ lines."""
START_DELAY_MS = 200
"""After the window's first paint, which is long enough on its own."""


def warm_up_editor(context: QObject) -> None:
    """Render a throwaway editor with a finding of each severity, in three turns of the event loop shortly after.

    Three steps (create, fill, paint) so that none of them is a stall of its own on a slow machine.
    """

    def create() -> None:
        editor = CodeEditor()
        editor.resize(420, 260)
        next_turn(context, lambda: fill(editor))

    def fill(editor: CodeEditor) -> None:
        editor.setPlainText(SAMPLE_TEXT)
        # Any declared code will do: these squiggles are painted offscreen and never shown.
        editor.set_diagnostics([UNKNOWN_KEY("", line=n + 2, column=1, severity=severity)
                                for n, severity in enumerate(Severity)])
        next_turn(context, lambda: paint(editor))

    def paint(editor: CodeEditor) -> None:
        editor.grab()  # paints the viewport and the gutter into a pixmap; nothing reaches the screen
        editor.deleteLater()

    QTimer.singleShot(START_DELAY_MS, context, create)
