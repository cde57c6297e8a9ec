"""V59 ``context-map-missing-file``: the guide's context map names a file or folder that is not in the pack.

The context map is the section of ``KNOWLEDGE.md``'s body under a heading that mentions "context map" (or
上下文 / 内容地图), up to the next heading of the same or a higher level. Inside it, a pack-relative path is
an inline code span or a Markdown link target that looks like a path: no spaces, and a ``/`` or a file
extension starting with a letter (``compiled/facts.md``, ``documents/``, ``README.md``; not ``v1.2``). URLs,
globs, absolute paths and ``..`` are not checked (``unsafe-pointer`` and the resolver handle pointers; a glob
names no single file); a ``#section`` fragment is dropped. A path ending in ``/`` must be a folder, any other
must exist. Bounded: at most ``MAX_REFERENCES`` paths and lines of at most ``MAX_LINE`` characters are read.
A warning: the pack loads, but an agent following the map finds nothing there.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from studio.core.checks._context import CheckContext
from studio.core.checks.hybrid_primary import CONTEXT_MAP
from studio.core.diagnostics import Code, Diagnostic, Severity
from studio.core.paths import resolve_inside

CONTEXT_MAP_MISSING_FILE = Code(
    "context-map-missing-file", Severity.WARNING,
    "the guide's context map names a pack file or folder that does not exist", rule="V59",
    hint="Create the file, fix the path, or remove the line (quick fix: Ctrl+.).")
CODES = (CONTEXT_MAP_MISSING_FILE,)

MAX_REFERENCES = 200
MAX_LINE = 2000
_HEADING = re.compile(r"^(#{1,6})\s")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_CODE_SPAN = re.compile(r"`([^`\n]{1,300})`")
_LINK = re.compile(r"\]\(([^()\s]{1,300})\)")
_EXTENSION = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,7}$")
_NOT_A_PATH = re.compile(r"[\s*?\[\]{}<>|\\\"'`]|^[#@~$]|://|^mailto:")


@dataclass(frozen=True, slots=True)
class MapReference:
    """A path named in the context map: 0-based line within the body, 0-based column, the path as written."""

    line: int
    column: int
    path: str


def context_map_lines(body: str) -> range | None:
    """0-based body lines of the context-map section (heading excluded), or None when there is none."""
    match = CONTEXT_MAP.search(body)
    if match is None:
        return None
    lines = body.split("\n")
    start = body.count("\n", 0, match.start())
    level = len(_HEADING.match(lines[start]).group(1))  # type: ignore[union-attr]
    end = start + 1
    fenced = False
    while end < len(lines):
        line = lines[end]
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and (heading := _HEADING.match(line)) and len(heading.group(1)) <= level:
            break
        end += 1
    return range(start + 1, end)


def map_references(body: str) -> list[MapReference]:
    """Every path-like reference in the context map, in order (at most ``MAX_REFERENCES``)."""
    section = context_map_lines(body)
    if section is None:
        return []
    lines = body.split("\n")
    out: list[MapReference] = []
    fenced = False
    for index in section:
        line = lines[index]
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if fenced or len(line) > MAX_LINE:
            continue
        found = [(m.start(1), m.group(1)) for m in _CODE_SPAN.finditer(line)]
        found += [(m.start(1), m.group(1)) for m in _LINK.finditer(line)]
        for column, text in sorted(found):
            if looks_like_path(text):
                out.append(MapReference(index, column, text))
                if len(out) >= MAX_REFERENCES:
                    return out
    return out


def looks_like_path(text: str) -> bool:
    """Whether an inline code span or link target reads as a pack-relative path (see the module docstring)."""
    if not text or _NOT_A_PATH.search(text) or text.startswith(("/", "./..", "..")) or text in (".", "./"):
        return False
    bare = text.split("#", 1)[0]
    return bool(bare) and ("/" in bare or bool(_EXTENSION.search(bare)))


def missing_reference(root: str, path: str) -> bool:
    """True when ``path`` (a context-map reference) names nothing in the pack; escaping paths are not judged."""
    bare = path.split("#", 1)[0]
    if bare.startswith("./"):
        bare = bare[2:]
    target = resolve_inside(Path(root), bare)
    if target is None:
        return False
    try:
        return not (os.path.isdir(target) if bare.endswith("/") else os.path.exists(target))
    except (OSError, ValueError):
        return False


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    knowledge = ctx.pack.knowledge
    if knowledge is None or ctx.fm is None:
        return
    root = str(ctx.pack.root)
    for ref in map_references(knowledge.body):
        if missing_reference(root, ref.path):
            what = "folder" if ref.path.split("#", 1)[0].endswith("/") else "file"
            yield CONTEXT_MAP_MISSING_FILE(
                f"The context map names '{ref.path}', but that {what} is not in the pack",
                "KNOWLEDGE.md", knowledge.body_start_line + ref.line, ref.column + 1)
