"""Format on request: line endings, BOM and the frontmatter's indentation, never the body's text.

``format_knowledge`` removes a UTF-8 BOM, turns CRLF (and lone CR) line ends into LF across the file, and
re-indents the frontmatter: tabs become spaces, nested blocks get two spaces per level, trailing blanks go.
Each step is kept only if the parser reads the same frontmatter values and the same body afterwards
(``check_data``); a form the line-based re-indent cannot follow is left as written. ``tabs_to_spaces`` is
the tab step alone (the quick fix for ``tab-indentation``, whose frontmatter cannot be read before).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from studio.core.frontmatter_edit import EditError, FrontmatterLines, check_data, unified_diff

_LEAD = re.compile(r"[ \t]*")


@dataclass(frozen=True, slots=True)
class Formatted:
    """The formatted text and what changed, in words (empty when nothing did)."""

    old_text: str
    new_text: str
    changes: tuple[str, ...]

    @property
    def diff(self) -> str:
        return unified_diff(self.old_text, self.new_text)


def format_knowledge(text: str, *, line_endings: bool = True) -> Formatted:
    """``text`` with a normalised BOM, line endings (when ``line_endings``) and frontmatter indentation."""
    changes: list[str] = []
    current = text
    if current.startswith("\ufeff"):
        current = current[1:]
        changes.append("removed the byte-order mark")
    if line_endings and "\r" in current:
        current = current.replace("\r\n", "\n").replace("\r", "\n")
        changes.append("line endings set to LF")
    try:
        indented = reindent(current)
    except EditError:
        indented = current
    if indented != current:
        try:
            check_data(current, indented, lambda data: data, what="indent it")
        except EditError:
            indented = current
    if indented != current:
        current = indented
        changes.append("frontmatter indented with two spaces per level")
    return Formatted(text, current, tuple(changes))


def reindent(text: str) -> str:
    """The frontmatter re-indented (tabs as spaces, two per level, no trailing blanks); raises EditError
    when there is no frontmatter. The caller verifies the result."""
    fm = FrontmatterLines.of(tabs_to_spaces(text))
    indents: list[int] = []
    for index in range(1, fm.close):
        line = fm.lines[index]
        ending = fm.ending(index)
        content = line[: len(line) - len(ending)].rstrip(" \t")
        stripped = content.lstrip(" ")
        if not stripped:
            fm.lines[index] = ending
            continue
        old = len(content) - len(stripped)
        if stripped.startswith("#"):
            fm.lines[index] = content + ending  # a comment keeps its place
            continue
        while indents and indents[-1] > old:
            indents.pop()
        if not indents or indents[-1] < old:
            indents.append(old)
        fm.lines[index] = " " * (2 * (len(indents) - 1)) + stripped + ending
    return fm.text()


def tabs_to_spaces(text: str) -> str:
    """``text`` with the tabs in the frontmatter's indentation turned into spaces.

    A tab counts as the smallest indentation the frontmatter's space-indented lines use (2 when none do),
    so a block indented partly with tabs and partly with spaces lines up. Only leading blanks change.
    """
    fm = FrontmatterLines.of(text)
    space_indents = [len(m.group(0)) for i in range(1, fm.close)
                     if (m := re.match(r" +", fm.lines[i])) and fm.lines[i][len(m.group(0)):][:1] not in ("\t", "\n")]
    width = min(space_indents) if space_indents else 2
    for index in range(1, fm.close):
        line = fm.lines[index]
        lead = _LEAD.match(line).group(0)  # type: ignore[union-attr]
        if "\t" in lead:
            fm.lines[index] = lead.replace("\t", " " * width) + line[len(lead):]
    return fm.text()

