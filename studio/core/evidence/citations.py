"""Find inline ``[source: path#anchor]`` citations in a pack's Markdown (compiled/, documents/, wiki/).

Citations inside fenced code blocks are examples, not claims, and are skipped. One bracket may hold
several references separated by ``;`` or ``,``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from studio.core.diagnostics import Diagnostic
from studio.core.evidence.anchors import split_ref
from studio.core.pack_fs import PackFS, PackTree, Status, held
from studio.core.text.code_fences import CodeFences
from studio.core.tree_findings import limit_findings

CITED_SURFACES = ("compiled", "documents", "wiki")
MARKDOWN_SUFFIXES = (".md", ".markdown")
MAX_MARKDOWN_FILES = 2000
MAX_MARKDOWN_BYTES = 2 * 1024 * 1024
# The reference stops at the next "[" as well as at "]": a line of unclosed "[source:" openers is then read in
# one pass instead of one pass per opener (quadratic: a 400 KB line took minutes).
_CITATION = re.compile(r"\[source:\s*+([^\[\]\n]+)\]", re.IGNORECASE)
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
    fences = CodeFences()
    previous = ""
    for number, line in enumerate(text.splitlines(), start=1):
        if fences.is_code(line):
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


def scan_citations(root: Path, fs: PackFS | None = None) -> tuple[list[Citation], list[str], list[Diagnostic]]:
    """Citations in every Markdown file under the cited surfaces; the files that were skipped; and a
    ``walk-limit`` finding for each walk that stopped early (folders too deep, too many entries). Read through
    ``fs`` when the caller holds the pack open."""
    citations: list[Citation] = []
    skipped: list[str] = []
    stopped: list[Diagnostic] = []
    with held(root, fs) as fs:
        files, trees = markdown_files(fs)
        for surface, tree in zip(CITED_SURFACES, trees, strict=False):
            stopped.extend(limit_findings(tree, f"{surface}/", surface))
        for rel in files:
            result = fs.read(rel, MAX_MARKDOWN_BYTES + 1, follow=False)
            if result.status is not Status.OK or result.data is None or result.size > MAX_MARKDOWN_BYTES:
                skipped.append(rel)
                continue
            citations.extend(parse_citations(result.data.decode("utf-8-sig", errors="replace"), rel))
    return citations, skipped, stopped


def markdown_files(fs: PackFS) -> tuple[list[str], list[PackTree]]:
    """Pack-relative Markdown files under compiled/, documents/, wiki/ (symlinks are not followed), and the
    walks that found them (their limits say whether they stopped early)."""
    found: list[str] = []
    trees: list[PackTree] = []
    for surface in CITED_SURFACES:
        tree = fs.walk(surface, enter=lambda _rel, name: not name.startswith("."), classify_links=False)
        trees.append(tree)
        for entry in tree.files:
            if entry.is_regular and entry.rel.lower().endswith(MARKDOWN_SUFFIXES):
                found.append(entry.rel)
                if len(found) >= MAX_MARKDOWN_FILES:
                    return found, trees
    return found, trees
