"""The values quick fixes are made of: a fix, its kind, and what a fixer sees."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from studio.core.diagnostics import Diagnostic
from studio.core.frontmatter_edit import unified_diff
from studio.core.model import Pack


class FixKind(StrEnum):
    EDIT = "edit"
    PLACEHOLDER = "placeholder"
    CREATE_FILE = "create-file"
    RENAME_FOLDER = "rename-folder"


@dataclass(frozen=True, slots=True)
class Fix:
    """One way to repair one finding."""

    code: str
    """The diagnostic code it repairs."""
    title: str
    """What it does, as a menu entry ("Set name to 'acme'")."""
    kind: FixKind
    old_text: str
    """``KNOWLEDGE.md`` as the fix was computed from."""
    new_text: str
    """``KNOWLEDGE.md`` after the fix (the same as ``old_text`` for file and folder fixes)."""
    line: int = 1
    """The finding's line."""
    cli: bool = False
    """Applied by ``pack-studio fix --write``: a meaning-preserving edit of ``KNOWLEDGE.md``."""
    select: tuple[int, int] | None = None
    """For a placeholder: the character range of ``new_text`` to select for typing."""
    path: str | None = None
    """For create-file: the pack-relative path to create (a folder when it ends in '/'); for rename-folder:
    the new folder name."""
    file_text: str | None = None
    """For create-file: the new file's text."""
    expected: tuple[str, ...] = ()
    """Codes the fix knowingly brings (a placeholder's own consequences)."""
    note: str = ""
    """For an edit the CLI does not apply: why it needs a person's choice."""

    @property
    def diff(self) -> str:
        """A unified diff of what the fix changes (a new file is shown against /dev/null)."""
        if self.kind is FixKind.CREATE_FILE and self.path is not None:
            if self.file_text is None:
                return f"new folder {self.path}\n"
            lines = self.file_text.splitlines(keepends=True)
            return (f"--- /dev/null\n+++ b/{self.path}\n@@ -0,0 +1,{len(lines)} @@\n"
                    + "".join(f"+{line}" if line.endswith("\n") else f"+{line}\n" for line in lines))
        if self.kind is FixKind.RENAME_FOLDER:
            return f"rename folder -> {self.path}\n"
        return unified_diff(self.old_text, self.new_text)


@dataclass(frozen=True, slots=True)
class FixContext:
    """What a fixer sees: the pack folder, the exact text the finding came from, and that text validated."""

    root: Path
    text: str
    pack: Pack


Fixer = Callable[[FixContext, Diagnostic], list[Fix]]
