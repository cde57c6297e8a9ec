"""The real window on a hostile workspace visits every pack, preview tab and mode within a time limit
(issue #35 items 1 and 9): long runs of blanks, bidi controls in names, '#' in file names."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from studio.ui.pack_text_view import KEPT, layout_safe

WALK = Path(__file__).with_name("hostile_walk.py")
BLANKS = " " * 70_000
WIDE_BLANKS = "\u3000" * 70_000


def _knowledge(name: str, description: str, body: str) -> str:
    return (f"---\nname: {name}\ndescription: {description}\ntype: domain-reference\nstatus: ready\n"
            f"profile: document-first\n---\n{body}")


@pytest.fixture
def hostile_workspace(make_pack: Callable[..., Path], tmp_path: Path) -> Path:
    parent = tmp_path / "ws\u202eevil"  # the folder names the workspace: the window title and status line
    make_pack("blanks", _knowledge("blanks", f"Long blank runs.{BLANKS}end",
                                   f"# Guide\n\nRead compiled/long.md.\n\nA line{WIDE_BLANKS}of wide blanks.\n"),
              {"compiled/long.md": f"# Long\n\nWords{BLANKS}more words\n",
               "documents/notes#2.md": f"# Notes\n\nTabs\t{' ' * 66_000}\there\n"}, parent=parent)
    make_pack("bidi", _knowledge("bidi\u202eevil", "Names that \u202eesrever\u202c and \u2067isolate\u2069.",
                                 "# Guide \u202eevil\u202c\n\nRead compiled/x\u202e.md.\n"),
              {"compiled/x\u202e.md": "# Reversed \u202eeman\u202c\n", "wiki/a#b.md": "# Hash\n",
               "runs/usage.jsonl": '{"query": "warranty \\u001b[2J \\u202eevil"}\n',
               "evals/answer-quality.json": '{"pack_name": "bidi", "evals": [{"id": "c\\u202e", '
                                            '"prompt": "reversed \\u001b]0;t\\u0007 name", '
                                            '"required_context": ["compiled/x.md"]}]}'}, parent=parent)
    return parent


def test_long_blank_runs_are_shown_shortened_with_their_count() -> None:
    shown = layout_safe(f"a{BLANKS}b\n{WIDE_BLANKS}")
    assert shown == f"a{' ' * KEPT}⟪70,000 blanks⟫b\n{chr(0x3000) * KEPT}⟪70,000 blanks⟫"
    assert layout_safe("a" + " " * 100 + "b") == "a" + " " * 100 + "b"  # ordinary text is left alone


@pytest.mark.slow
def test_the_window_visits_every_view_of_a_hostile_workspace_in_time(hostile_workspace: Path,
                                                                       tmp_path: Path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CACHE_HOME": str(tmp_path / "cache")}
    try:
        proc = subprocess.run([sys.executable, str(WALK), str(hostile_workspace), str(tmp_path / "studio.ini")],
                              capture_output=True, text=True, timeout=240, env=env)
    except subprocess.TimeoutExpired:
        pytest.fail("the window stopped answering on the hostile workspace (a layout that never finishes?)")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "visited" in proc.stdout and "of 2 packs" in proc.stdout, proc.stdout + proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    assert "raw bidi control" not in proc.stdout, proc.stdout  # item 9: names never reverse the window's sentences
