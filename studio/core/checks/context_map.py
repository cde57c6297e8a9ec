"""V59 ``context-map-missing-file``: the guide's context map names a file that is not in the pack.

The context map is the body section under a heading such as ``## Context map`` (digest 2.2: bullets or a table
saying which file to read for which task). A client follows it to pick files, so a name that leads nowhere
sends it to nothing (the standard's own complete example names files its tree does not hold). Checked: every
inline code span and Markdown link target in that section that reads as a pack-relative path, one under a
folder of the standard's layout (``compiled/``, ``documents/``, ``wiki/``, ``sources/``...) or with a file
suffix and a ``/``. URLs, absolute paths, globs and anything with a space are not paths to check. A path is
looked up inside the pack only: in the shared walk of the pack (``CheckContext.tree``), or through ``pack_fs``
for what the walk did not enter; a symlink out of the pack counts as missing. The warning sits on the line and
column that name the file. A content check (it looks beyond ``KNOWLEDGE.md``); it reads the guide as loaded,
so the editor's unsaved buffer is checked as typed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from studio.core.checks._context import TREE_SKIPPED, CheckContext
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity
from studio.core.pack_fs import LinkState
from studio.core.paths import is_unsafe_pointer

CONTEXT_MAP_MISSING_FILE = Code("context-map-missing-file", Severity.WARNING,
                                "the guide's context map names a file that is not in the pack", Behavior.LOAD, "V59",
                                hint="Fix the path, or add the file.")
CODES = (CONTEXT_MAP_MISSING_FILE,)

LAYOUT_FOLDERS = ("compiled", "documents", "wiki", "sources", "indexes", "ontology", "answers", "runs", "evals",
                  "assets", "schemas")
MAX_REFERENCES = 200
"""References checked per guide (a context map is a short list; a generated one must not cost a stat each)."""

_MAP_HINT = re.compile(r"context[ -]?map|上下文地图|上下文映射", re.IGNORECASE)
_HEADING = re.compile(r" {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$")
_MAP_TITLE = re.compile(r"context[ -]?map|上下文地图|上下文映射", re.IGNORECASE)
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
# Inline code spans (one to three backticks) and link targets; both bounded and free of nested quantifiers.
_REFERENCE = re.compile(r"(`{1,3})([^`\n]{1,300}?)\1|\]\(([^()\s]{1,300})(?:\s+\"[^\"\n]{0,200}\")?\)")
_MAY_OPEN = frozenset(" #`~")
_SUFFIX = re.compile(r"\.[A-Za-z0-9]{1,8}$")


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    return check_knowledge(ctx)


def check_files(_ctx: CheckContext) -> Iterator[Diagnostic]:
    """Nothing: every finding here depends on the guide's text (see ``validate.validate_pack``)."""
    return iter(())


def check_knowledge(ctx: CheckContext) -> Iterator[Diagnostic]:
    knowledge = ctx.pack.knowledge
    if knowledge is None or not knowledge.body or not _MAP_HINT.search(knowledge.body):
        return
    present: set[str] | None = None
    for checked, (number, column, path) in enumerate(_references(knowledge.body)):
        if checked >= MAX_REFERENCES:
            return
        if present is None:
            present = _present(ctx)
        rel = path.rstrip("/")
        if rel in present or (_unwalked(ctx, rel) and (ctx.fs.exists(rel) or ctx.fs.is_dir(rel))):
            continue
        yield CONTEXT_MAP_MISSING_FILE(f"The context map names {path}, which is not in the pack",
                                       "KNOWLEDGE.md", knowledge.body_start_line + number - 1, column)


def _present(ctx: CheckContext) -> set[str]:
    """Every file and folder the shared walk saw inside the pack, links that stay inside included."""
    tree = ctx.tree
    inside = {link.rel for link in tree.links if link.resolved is not None and link.state in (
        LinkState.FILE, LinkState.DIR, LinkState.OTHER)}
    links = {link.rel for link in tree.links}
    return {e.rel for e in tree.files if e.rel not in links} | inside | set(tree.dirs)


def _unwalked(ctx: CheckContext, rel: str) -> bool:
    """True when the walk cannot answer for ``rel``: under a folder it skipped (dot-folders, node_modules),
    deeper than it went, or past the point where it stopped."""
    tree = ctx.tree
    if not tree.complete:
        return True
    return any(part.startswith(".") or part in TREE_SKIPPED for part in rel.split("/")[:-1])


def _references(body: str) -> Iterator[tuple[int, int, str]]:
    """(1-based body line, 1-based column, path) of each path-like reference inside a context-map section."""
    level = 0  # heading level of the context map we are in; 0 when outside one
    fence: str | None = None
    for number, line in enumerate(body.split("\n"), start=1):
        if not level and fence is None and line[:1] not in _MAY_OPEN:
            continue  # outside the map, only a heading or a code fence can matter (most lines are neither)
        if (match := _FENCE.match(line)) is not None:
            if fence is None:
                fence = match[1][0] * 3
            elif match[1].startswith(fence):
                fence = None
            continue
        if fence is not None:
            continue
        heading = _HEADING.match(line)
        if heading is not None:
            depth = len(heading[1])
            if _MAP_TITLE.search(heading[2]):
                level = depth
            elif level and depth <= level:
                level = 0
            continue
        if not level:
            continue
        for match in _REFERENCE.finditer(line):
            raw = match[2] if match[2] is not None else match[3]
            path = _as_path(raw.strip())
            if path is not None:
                start = match.start(2) if match[2] is not None else match.start(3)
                yield number, start + 1, path


def _as_path(token: str) -> str | None:
    """The pack-relative path ``token`` names, or None when it is not a path to check."""
    token = token.split("#", 1)[0]
    while token.startswith("./"):
        token = token[2:]
    if not token or any(c in token for c in " \t*?[]{}<>|\"'`") or "://" in token or token.startswith("mailto:"):
        return None
    if is_unsafe_pointer(token.rstrip("/")):
        return None  # absolute or climbing: unsafe-pointer territory, never looked up
    top = token.split("/", 1)[0]
    if top in LAYOUT_FOLDERS and "/" in token:
        return token
    if "/" in token and _SUFFIX.search(token):
        return token
    return None
