"""V59 ``context-map-missing-file``: the guide's context map names a file or folder that is not in the pack.

The context map is the section of ``KNOWLEDGE.md``'s body under a heading that mentions "context map" (or
上下文 / 内容地图), up to the next heading of the same or a higher level. Inside it, a pack-relative path is
an inline code span or a Markdown link target that looks like a path: no spaces, and a ``/`` or a file
extension starting with a letter (``compiled/facts.md``, ``documents/``, ``README.md``; not ``v1.2``). URLs,
globs, absolute paths and ``..`` are not checked (``unsafe-pointer`` and the resolver handle pointers; a glob
names no single file); a ``#section`` fragment is dropped. A path ending in ``/`` must be a folder, any other
must exist. Bounded: one linear pass over the section, at most ``MAX_REFERENCES`` paths, one ``lstat`` each.
A warning: the pack loads, but an agent following the map finds nothing there.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass

from studio.core.checks._context import CheckContext
from studio.core.checks.hybrid_primary import CONTEXT_MAP
from studio.core.diagnostics import Code, Diagnostic, Severity
from studio.core.paths import is_unsafe_pointer

CONTEXT_MAP_MISSING_FILE = Code(
    "context-map-missing-file", Severity.WARNING,
    "the guide's context map names a pack file or folder that does not exist", rule="V59",
    hint="Create the file, fix the path, or remove the line (quick fix: Ctrl+.).")
CODES = (CONTEXT_MAP_MISSING_FILE,)

MAX_REFERENCES = 200
_FENCE = re.compile(r"^ {0,3}(?:`{3,}|~{3,})", re.MULTILINE)
_HEADING_UP_TO = {n: re.compile(rf"^#{{1,{n}}}\s", re.MULTILINE) for n in range(1, 7)}
# A code span or a link target with no blanks or glob/markup characters: the only candidates for a path.
_REFERENCE = re.compile(r"`([^`\s*?\[\]{}<>|\\\"']{1,300})`|\]\(([^()\s]{1,300})\)")
_EXTENSION = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,7}$")


@dataclass(frozen=True, slots=True)
class MapReference:
    """A path named in the context map: 0-based line within the body, 0-based column, the path as written."""

    line: int
    column: int
    path: str


def context_map_span(body: str) -> tuple[int, int] | None:
    """Character offsets [start, end) of the context-map section's text (after its heading), or None."""
    match = CONTEXT_MAP.search(body)
    if match is None:
        return None
    newline = body.find("\n", match.start())
    if newline < 0:
        return None
    start = newline + 1
    heading = body[match.start():match.start() + 7]
    ends = _HEADING_UP_TO[len(heading) - len(heading.lstrip("#"))]  # CONTEXT_MAP matched 1-6 '#'s
    pos = start
    while True:
        following = ends.search(body, pos)
        end = following.start() if following is not None else len(body)
        if following is None or len(_FENCE.findall(body, start, end)) % 2 == 0:
            return start, end
        pos = following.end()  # that heading sits inside an open code fence: the section goes on


def context_map_lines(body: str) -> range | None:
    """0-based body lines of the context-map section (heading excluded), or None when there is none."""
    span = context_map_span(body)
    if span is None:
        return None
    first = body.count("\n", 0, span[0])
    return range(first, first + body.count("\n", span[0], span[1]) + (0 if body.endswith("\n") else 1))


def map_references(body: str) -> list[MapReference]:
    """Every path-like reference in the context map, in order (at most ``MAX_REFERENCES``); one pass of
    one pattern over the section, code fences skipped."""
    span = context_map_span(body)
    if span is None:
        return []
    start, end = span
    fences = [m.start() for m in _FENCE.finditer(body, start, end)]
    out: list[MapReference] = []
    line = body.count("\n", 0, start)
    counted = start
    for match in _REFERENCE.finditer(body, start, end):
        at = match.start(1) if match.group(1) is not None else match.start(2)
        if fences and sum(1 for f in fences if f < at) % 2:
            continue  # inside a fenced block
        text = match.group(1) if match.group(1) is not None else match.group(2)
        if not looks_like_path(text):
            continue
        line += body.count("\n", counted, at)
        counted = at
        out.append(MapReference(line, at - (body.rfind("\n", 0, at) + 1), text))
        if len(out) >= MAX_REFERENCES:
            break
    return out


def looks_like_path(text: str) -> bool:
    """Whether an inline code span or link target reads as a pack-relative path (see the module docstring)."""
    if not text or text[0] in "#@~$/" or text.startswith("..") or "://" in text or text.startswith("mailto:"):
        return False
    bare = text.split("#", 1)[0]
    return bare not in ("", ".", "./") and ("/" in bare or bool(_EXTENSION.search(bare)))


def missing_reference(root: str, path: str) -> bool:
    """True when ``path`` (a context-map reference) names nothing in the pack.

    One ``lstat`` (the file is never opened). Unsafe paths (absolute, ``..``) are not judged. A path that
    exists is never reported, wherever a symlink in it leads; one that does not exist is not in the pack.
    """
    bare = path.split("#", 1)[0]
    if bare.startswith("./"):
        bare = bare[2:]
    if is_unsafe_pointer(bare):
        return False
    try:
        st = os.lstat(os.path.join(root, bare))
    except (OSError, ValueError):
        return True
    if bare.endswith("/") and stat.S_ISLNK(st.st_mode):
        return False  # a symlinked folder: not followed, not judged
    return bare.endswith("/") and not stat.S_ISDIR(st.st_mode)


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
