"""Draft pages (frontmatter ``draft: true``, as ``gap`` writes them) do not answer a task yet.

Without this, drafting a gap would close it at once: the draft page names its task in its title, so the
resolver picks it and finds every term. A task answered only by drafts stays a gap until the draft is finished.
"""

from __future__ import annotations

from pathlib import Path

from studio.core.frontmatter import parse_yaml_block
from studio.core.frontmatter_fences import find_fences
from studio.core.pack_fs import PackFS, Status

HEAD_BYTES = 16 * 1024
"""Only the start of a page is read: frontmatter sits at the top, and a page's body is not needed."""


class DraftPages:
    """Answers "is this pack file a draft page?", reading each file's head once."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._known: dict[str, bool] = {}

    def is_draft(self, path: str) -> bool:
        known = self._known.get(path)
        if known is None:
            known = self._known[path] = self._read(path)
        return known

    def _read(self, path: str) -> bool:
        if not path.endswith(".md"):
            return False
        with PackFS(self.root) as fs:
            found = fs.read(path, HEAD_BYTES)
        if found.status is not Status.OK or not found.data:
            return False
        text = found.data.decode("utf-8", "replace").replace("\r\n", "\n")
        fences = find_fences(text)  # the loader's own fences: a page it reads without frontmatter is no draft
        if fences is None:
            return False
        data, _positions, _diags = parse_yaml_block(text[fences.yaml_start:fences.closing_start], first_line=2)
        return data is not None and data.get("draft") is True
