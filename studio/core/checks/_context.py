"""What a check sees: the pack, its frontmatter, and helpers that position a diagnostic at a key."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity
from studio.core.model import Frontmatter, Pack
from studio.core.pack_fs import MAX_WALK_DEPTH, PackFS, PackTree
from studio.core.paths import list_top_dirs

TREE_MAX_ENTRIES = 20_000
"""Entries the content checks' shared walk looks at per pack (a ``walk-limit`` warning says when it stops)."""
TREE_SKIPPED = frozenset({"node_modules"})
"""Folders the shared walk does not enter, besides dot-folders (``.git``): tool output, not knowledge."""


@dataclass(slots=True)
class CheckContext:
    pack: Pack
    fm: Frontmatter | None
    top_dirs: frozenset[str] = field(default_factory=frozenset)
    """Names of the pack's top-level directories (symlinks not followed)."""
    _fs: PackFS | None = None
    _tree: PackTree | None = None

    @classmethod
    def for_pack(cls, pack: Pack) -> CheckContext:
        # load_pack always lists the folders; only a pack built by hand (tests) lacks them.
        top_dirs = pack.top_dirs if pack.top_dirs is not None else list_top_dirs(pack.root)
        return cls(pack=pack, fm=pack.frontmatter, top_dirs=top_dirs)

    @property
    def fs(self) -> PackFS:
        """The pack root held open: every content check reads through it (``pack_fs``), never by path."""
        if self._fs is None:
            self._fs = PackFS(self.pack.root)
        return self._fs

    @property
    def tree(self) -> PackTree:
        """One bounded walk of the whole pack, shared by the content checks (dot-folders and node_modules
        are not entered; symlinks are listed, never followed)."""
        if self._tree is None:
            self._tree = walk_for_checks(self.fs)
        return self._tree

    def close(self) -> None:
        """Release the pack's descriptors (``validate_pack`` calls it when the checks are done)."""
        if self._fs is not None:
            self._fs.close()
            self._fs = None

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


def walk_for_checks(fs: PackFS) -> PackTree:
    """The content checks' walk of a pack (the result cache repeats it to see whether anything changed)."""
    return fs.walk(enter=_enter, max_entries=TREE_MAX_ENTRIES)


def is_walk_for_checks(top: str, max_depth: int, max_entries: int, enter: object) -> bool:
    """True for the arguments ``walk_for_checks`` walks with."""
    return top == "" and max_depth == MAX_WALK_DEPTH and max_entries == TREE_MAX_ENTRIES and enter is _enter


def _enter(_rel: str, name: str) -> bool:
    return not name.startswith(".") and name not in TREE_SKIPPED
