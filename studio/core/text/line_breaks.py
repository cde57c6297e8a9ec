"""Saving an edited text so that only what was edited changes: every untouched line keeps its own line break.

A text editor shows lines; a file holds line breaks of several kinds (``\\r\\n``, ``\\n``, a lone ``\\r``, U+2029),
sometimes mixed in one file. The editor is given the text with every break as ``\\n`` (``shown``), and a save
puts the edited text back into the original (``merge_edit``): lines are matched (difflib), a line that is
still there is written with the break that followed it in the file, and a new line gets the file's most
common break. A text that was not edited comes back byte for byte.

U+2028 (LINE SEPARATOR) is not a break here: Qt keeps it inside a line, so it stays a character of its line.
"""

from __future__ import annotations

import re
from collections import Counter
from difflib import SequenceMatcher

_BREAK = re.compile("(\r\n|\r|\n|\u2029)")


def split_breaks(text: str) -> tuple[list[str], list[str]]:
    """The lines of ``text`` and the break after each (one break fewer than lines: the last line has none)."""
    parts = _BREAK.split(text)
    return parts[0::2], parts[1::2]


def shown(text: str) -> str:
    """``text`` with every line break as ``\\n``: what the editor shows and hands back."""
    return _BREAK.sub("\n", text)


def usual_break(text: str) -> str:
    """The file's most common line break (``\\n`` for a text without one): what a new line gets."""
    counts = Counter(split_breaks(text)[1])
    return counts.most_common(1)[0][0] if counts else "\n"


def merge_edit(original: str, edited: str, newline: str | None = None) -> str:
    """``edited`` (lines broken by ``\\n``) written with ``original``'s line breaks wherever its lines are kept.

    ``newline``: the break for lines that are new (default: ``usual_break(original)``). Bounded: difflib runs
    only on what lies between the common first and last lines, and its "popular line" heuristic (blank lines)
    keeps long middles linear in practice.
    """
    old_lines, old_breaks = split_breaks(original)
    new_lines = edited.split("\n")
    fresh = newline if newline is not None else usual_break(original)
    breaks: list[str] = []
    head = 0
    limit = min(len(old_lines), len(new_lines))
    while head < limit and old_lines[head] == new_lines[head]:
        head += 1
    tail = 0
    while tail < limit - head and old_lines[-1 - tail] == new_lines[-1 - tail]:
        tail += 1
    # Which original line each edited line stands for (None: a new line).
    source: list[int | None] = list(range(head))
    middle = SequenceMatcher(None, old_lines[head:len(old_lines) - tail], new_lines[head:len(new_lines) - tail])
    for tag, i1, i2, j1, j2 in middle.get_opcodes():
        if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):  # a line edited in place keeps its break
            source.extend(head + i1 + k for k in range(j2 - j1))
        else:
            source.extend([None] * (j2 - j1))
    source.extend(range(len(old_lines) - tail, len(old_lines)))
    for index in source[:-1]:
        breaks.append(old_breaks[index] if index is not None and index < len(old_breaks) else fresh)
    out: list[str] = []
    for line, brk in zip(new_lines, [*breaks, ""], strict=True):
        out.append(line)
        out.append(brk)
    return "".join(out)
