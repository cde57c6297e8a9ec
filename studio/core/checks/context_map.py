"""V59 ``context-map-missing-file``: the guide's context map names a file or folder that is not in the pack.

The context map is the body section under a heading such as ``## Context map`` (or 上下文地图, 上下文, 内容地图;
the same headings ``hybrid_primary`` accepts), up to the next heading of the same or a higher level (digest 2.2:
bullets or a table saying which file to read for which task). A client follows it to pick files, so a name that
leads nowhere sends it to nothing (the standard's own complete example names files its tree does not hold).
Checked: every inline code span and Markdown link target in that section that reads as a pack-relative path: one
under a folder of the standard's layout (``compiled/``, ``wiki/``...), one with a ``/`` and a file suffix, or a
top-level file name whose suffix starts with a letter (``README.md``; not ``v1.2``). URLs, absolute paths, ``..``,
globs, code fences and anything with a space are not paths to check; a ``#fragment`` is dropped. A path is looked
up inside the pack only, by descriptor from its root (``pack_fs``): a symlink out of the pack counts as missing, a
path ending in ``/`` must be a folder. The warning sits on the line and column that name the file. It reads only
``KNOWLEDGE.md`` and looks paths up, so it runs in every validation, ``--fast`` included, and in the editor's live
check of an unsaved buffer. Bounded: one pass over the body, at most ``MAX_REFERENCES`` lookups.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity
from studio.core.pack_fs import PackFS
from studio.core.paths import is_unsafe_pointer
from studio.core.text.code_fences import CodeFences

CONTEXT_MAP_MISSING_FILE = Code("context-map-missing-file", Severity.WARNING,
                                "the guide's context map names a pack file or folder that does not exist",
                                Behavior.LOAD, "V59",
                                hint="Create the file, fix the path, or remove the line (quick fix: Ctrl+.).")
CODES = (CONTEXT_MAP_MISSING_FILE,)

LAYOUT_FOLDERS = ("compiled", "documents", "wiki", "sources", "indexes", "ontology", "answers", "runs", "evals",
                  "assets", "schemas")
MAX_REFERENCES = 200
"""References checked per guide (a context map is a short list; a generated one must not cost a stat each)."""

# Matched against lower-cased text: a case-insensitive search of a whole guide costs three times as much.
_MAP_TITLE = re.compile(r"context[ -]?map|上下文|内容地图")
_HEADING = re.compile(r" {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$")
# Inline code spans (one to three backticks) and link targets; both bounded and free of nested quantifiers.
_REFERENCE = re.compile(r"(`{1,3})([^`\n]{1,300}?)\1|\]\(([^()\s]{1,300})(?:\s+\"[^\"\n]{0,200}\")?\)")
_MAY_OPEN = frozenset(" #`~")
_NOT_A_PATH = re.compile(r"[ \t*?\[\]{}<>|\"'`]")
_SUFFIX = re.compile(r"\.[A-Za-z0-9]{1,8}$")
_FILE_SUFFIX = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,7}$")


def check_files(ctx: CheckContext) -> Iterator[Diagnostic]:
    """Nothing beyond the guide's text: every finding here is about a line of KNOWLEDGE.md (see ``check``)."""
    return iter(())


def check_knowledge(ctx: CheckContext) -> Iterator[Diagnostic]:
    """A content check (not in ``validate --fast``) that reads KNOWLEDGE.md's text: it runs on an unsaved buffer
    too, and its findings are never reused from an earlier walk of the pack's files."""
    return check(ctx)


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    knowledge = ctx.pack.knowledge
    if knowledge is None or ctx.fm is None or not knowledge.body:
        return
    for number, column, path in _take(_references(knowledge.body), MAX_REFERENCES):
        rel = path.rstrip("/")
        folder = path.endswith("/")
        if ctx.fs.is_dir(rel) if folder else (ctx.fs.exists(rel) or ctx.fs.is_dir(rel)):
            continue
        what = "folder" if folder else "file"
        yield CONTEXT_MAP_MISSING_FILE(f"The context map names '{path}', but that {what} is not in the pack",
                                       "KNOWLEDGE.md", knowledge.body_start_line + number - 1, column)


def _references(body: str) -> Iterator[tuple[int, int, str]]:
    """(1-based body line, 1-based column, path) of each path-like reference inside a context-map section."""
    lowered = body.lower()  # the same lines: lower-casing never adds or removes a line break
    first = _MAP_TITLE.search(lowered)
    if first is None:
        return
    level = 0  # heading level of the context map we are in; 0 when outside one
    fences = CodeFences()
    lines = body.split("\n")
    # No map starts above the line that first names one; there only the code fences matter (is that line in one?).
    skip = lowered.count("\n", 0, first.start())
    # Nor below the line that last names one, once its section has ended outside a code fence.
    last_title_line = lowered.count("\n", 0, _last_title(lowered)) + 1
    for line in lines[:skip]:
        fences.is_code(line)
    for number, line in enumerate(lines[skip:], start=skip + 1):
        if not level and not fences.inside and line[:1] not in _MAY_OPEN:
            continue  # outside the map, only a heading or a code fence can matter (most lines are neither)
        if fences.is_code(line):
            continue
        heading = _HEADING.match(line)
        if heading is not None:
            depth = len(heading[1])
            if _MAP_TITLE.search(heading[2].lower()):
                level = depth
            elif level and depth <= level:
                level = 0
                if number > last_title_line:
                    return  # the last map has ended: the rest of the guide cannot hold a reference to check
            continue
        if not level:
            continue
        for match in _REFERENCE.finditer(line):
            raw = match[2] if match[2] is not None else match[3]
            path = _as_path(raw.strip())
            if path is not None:
                start = match.start(2) if match[2] is not None else match.start(3)
                yield number, start + 1, path


def _last_title(lowered: str) -> int:
    """Offset of the last mention of a map title in ``lowered`` (a guide mentions one once or twice)."""
    last = 0
    for match in _MAP_TITLE.finditer(lowered):
        last = match.start()
    return last


def _as_path(token: str) -> str | None:
    """The pack-relative path ``token`` names, or None when it is not a path to check."""
    if "#" in token:
        token = token.split("#", 1)[0]
    while token.startswith("./"):
        token = token[2:]
    if not token or _NOT_A_PATH.search(token) or "://" in token or token.startswith("mailto:"):
        return None
    if is_unsafe_pointer(token.rstrip("/")):
        return None  # absolute or climbing: unsafe-pointer territory, never looked up
    top = token.split("/", 1)[0]
    if top in LAYOUT_FOLDERS and "/" in token:
        return token
    if "/" in token and _SUFFIX.search(token):
        return token
    if "/" not in token and _FILE_SUFFIX.search(token):
        return token  # a top-level file such as README.md
    return None


@dataclass(frozen=True, slots=True)
class MapReference:
    """A path named in the context map: 0-based line within the body, 0-based column, the path as written."""

    line: int
    column: int
    path: str


def map_references(body: str) -> list[MapReference]:
    """Every path-like reference of the context map, in order (at most ``MAX_REFERENCES``): what quick fixes
    offer to create or remove."""
    return [MapReference(number - 1, column - 1, path)
            for number, column, path in _take(_references(body), MAX_REFERENCES)]


def missing_reference(root: str | Path, path: str) -> bool:
    """True when ``path`` (a context-map reference) names nothing inside the pack at ``root``.

    Looked up by descriptor from the pack root (``pack_fs``): a symlink out of the pack counts as missing.
    """
    rel = path.split("#", 1)[0]
    while rel.startswith("./"):
        rel = rel[2:]
    rel = rel.rstrip("/")
    if not rel or is_unsafe_pointer(rel):
        return False
    with PackFS(Path(root)) as fs:
        return not (fs.is_dir(rel) if path.split("#", 1)[0].endswith("/") else fs.exists(rel) or fs.is_dir(rel))


def _take(items: Iterator[tuple[int, int, str]], limit: int) -> Iterator[tuple[int, int, str]]:
    for count, item in enumerate(items):
        if count >= limit:
            return
        yield item
