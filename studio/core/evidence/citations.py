"""Find inline ``[source: path#anchor]`` citations in a pack's Markdown (compiled/, documents/, wiki/).

Citations inside fenced code blocks are examples, not claims, and are skipped. One bracket may hold
several references separated by ``;`` or ``,``.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from studio.core.evidence.anchors import split_ref
from studio.core.paths import read_bounded

CITED_SURFACES = ("compiled", "documents", "wiki")
MARKDOWN_SUFFIXES = (".md", ".markdown")
MAX_MARKDOWN_FILES = 2000
MAX_MARKDOWN_BYTES = 2 * 1024 * 1024
# The reference stops at the next "[" as well as at "]": a line of unclosed "[source:" openers is then read in
# one pass instead of one pass per opener (quadratic: a 400 KB line took minutes).
_CITATION = re.compile(r"\[source:\s*+([^\[\]\n]+)\]", re.IGNORECASE)
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")


@dataclass(frozen=True, slots=True)
class Citation:
    """One reference inside a ``[source: …]`` bracket, where it was written and the claim it backs."""

    file: str
    """Pack-relative Markdown file holding the citation."""
    line: int
    column: int
    target: str
    """Pack-relative path the citation points at (without fragment)."""
    fragment: str
    claim: str
    """The claim text: the line without its citations and list marker (or the line above if empty)."""

    @property
    def ref(self) -> str:
        return f"{self.target}#{self.fragment}" if self.fragment else self.target


def parse_citations(text: str, file: str) -> list[Citation]:
    """Every inline citation in one Markdown text."""
    found: list[Citation] = []
    fence: str | None = None
    previous = ""
    for number, line in enumerate(text.splitlines(), start=1):
        if match := _FENCE.match(line):
            if fence is None:
                fence = match[1][0] * 3
            elif match[1].startswith(fence):
                fence = None
            continue
        if fence is not None:
            continue
        matches = list(_CITATION.finditer(line))
        if matches:
            claim = _BULLET.sub("", _CITATION.sub("", line)).strip() or previous
            for match in matches:
                offset = match.start(1)
                for part in re.split(r"[;,]", match[1]):
                    ref = part.strip()
                    if ref:
                        path, fragment = split_ref(ref)
                        column = line.find(part.strip(), offset) + 1
                        found.append(Citation(file, number, max(column, 1), path, fragment, claim))
        stripped = _BULLET.sub("", _CITATION.sub("", line)).strip()
        if stripped:
            previous = stripped
    return found


def scan_citations(root: Path) -> tuple[list[Citation], list[str]]:
    """Citations in every Markdown file under the cited surfaces; also the files that were skipped."""
    citations: list[Citation] = []
    skipped: list[str] = []
    for rel in markdown_files(root):
        data, size, problem = read_bounded(root / rel, MAX_MARKDOWN_BYTES + 1, root=root)
        if problem is not None or data is None or size > MAX_MARKDOWN_BYTES:
            skipped.append(rel)
            continue
        citations.extend(parse_citations(data.decode("utf-8-sig", errors="replace"), rel))
    return citations, skipped


def markdown_files(root: Path) -> list[str]:
    """Pack-relative Markdown files under compiled/, documents/, wiki/; symlinks are not followed."""
    found: list[str] = []
    for surface in CITED_SURFACES:
        top = root / surface
        if top.is_symlink() or not top.is_dir():
            continue
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            for name in sorted(filenames):
                full = Path(dirpath) / name
                if name.lower().endswith(MARKDOWN_SUFFIXES) and not full.is_symlink():
                    found.append(full.relative_to(root).as_posix())
                    if len(found) >= MAX_MARKDOWN_FILES:
                        return found
    return found
