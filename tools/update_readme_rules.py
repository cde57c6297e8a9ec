"""Regenerate the README's diagnostic-code table from the catalogue (a test keeps the two equal)."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from studio.cli import main

README = Path(__file__).resolve().parents[1] / "README.md"
START, END = "<!-- rules:start -->\n", "<!-- rules:end -->"

if __name__ == "__main__":
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["rules", "--format", "markdown"])
    text = README.read_text(encoding="utf-8")
    head, rest = text.split(START, 1)
    README.write_text(head + START + out.getvalue() + END + rest.split(END, 1)[1], encoding="utf-8")
