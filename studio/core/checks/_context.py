"""What a check sees: the pack, its frontmatter, and helpers that position a diagnostic at a key."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity
from studio.core.model import Frontmatter, Pack
from studio.core.paths import list_top_dirs


@dataclass(slots=True)
class CheckContext:
    pack: Pack
    fm: Frontmatter | None
    top_dirs: frozenset[str] = field(default_factory=frozenset)
    """Names of the pack's top-level directories (symlinks not followed)."""

    @classmethod
    def for_pack(cls, pack: Pack) -> CheckContext:
        # load_pack always lists the folders; only a pack built by hand (tests) lacks them.
        top_dirs = pack.top_dirs if pack.top_dirs is not None else list_top_dirs(pack.root)
        return cls(pack=pack, fm=pack.frontmatter, top_dirs=top_dirs)

    @property
    def data(self) -> dict[str, Any]:
        return self.fm.data if self.fm else {}

    def value(self, *path: str) -> Any:
        # Inlined Frontmatter.get: checks ask for values some twenty thousand times per 1,000 packs.
        node: Any = self.fm.data if self.fm is not None else None
        for key in path:
            if not isinstance(node, dict):
                return None
            node = node.get(key)
        return node

    def has(self, *path: str) -> bool:
        return self.fm is not None and tuple(path) in self.fm.positions

    def has_dir(self, name: str) -> bool:
        return name in self.top_dirs

    def path(self, rel: str) -> Path:
        return self.pack.root / rel

    def at(self, code: Code, message: str, *path: str, hint: str | None = None, on_value: bool = True,
           severity: Severity | None = None, behavior: Behavior | None = None) -> Diagnostic:
        """A finding of ``code`` positioned at the value of ``path`` (or its key), else at the frontmatter start."""
        line, column = 1, 1
        pos = self.fm.position(*path) if (self.fm and path) else None
        if pos is None and self.fm and path:
            # Missing nested key: point at the nearest existing parent.
            for cut in range(len(path) - 1, 0, -1):
                pos = self.fm.position(*path[:cut])
                if pos:
                    break
        if pos is not None:
            line, column = (pos.value_line, pos.value_column) if on_value else (pos.line, pos.column)
        elif self.fm is not None:
            line = self.fm.start_line
        return code(message, "KNOWLEDGE.md", line, column, hint=hint, severity=severity, behavior=behavior)
