"""Walk a pack once and turn its files into resolver candidates, or into skips with a reason.

What becomes a candidate (digest 1.1-1.2): the ``KNOWLEDGE.md`` body (usage guide / context map),
``compiled/`` Markdown views, ``compiled/splits/<document>/`` files, every heading section of Markdown under
``documents/``, ``wiki/`` pages and text files under ``sources/`` (the selector only uses those when the task
asks for evidence). Splits, views and wiki pages stay whole files: they are already written to be
section-sized, and cutting them further would separate facts from the boundaries beside them.

With ``metadata.primaryAnswers``, the questions of the question map and their answer blocks are candidates too
(``resolver.answers``; one per question).

Never candidates: ``indexes/`` (candidate search only), ``runs/``, ``schemas/``, ``evals/`` and other
non-runtime files, ``ontology/`` and the rest of ``answers/`` (subgraph selection is not simulated), ``assets/``
(on demand only), symlinks that lead outside the pack, huge and binary files. The walk never follows a
symlinked directory, reads at most ``MAX_FILE_BYTES`` per file, stops after ``MAX_FILES`` candidate files and
does not enter folders deeper than ``pack_fs.MAX_WALK_DEPTH`` (both reported as skips).

``runs/``, ``schemas/`` and ``evals/`` at the top are not entered at all: they are one skip each. A pack that
records every resolve or eval grows thousands of files in ``runs/``; walking them cost time on every resolve
and used up ``MAX_FILES`` before the pack's real views were reached. Only files that could become candidates
count toward ``MAX_FILES``.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from studio.core.pack_fs import LinkEntry, LinkState, PackFS
from studio.core.paths import from_read_result
from studio.core.resolver.answers import answer_items
from studio.core.resolver.sections import split_sections
from studio.core.runtime_files import MAX_FILE_BYTES, MAX_FILES, NEVER_CONTEXT, Skip, file_layer
from studio.core.textfiles import NotText, read_text_bytes

MAX_WALK_ENTRIES = 20_000
"""Entries (files, folders, links) the walk looks at; past that it stops and says so."""

# File stems and heading words that mark an item's role; English and Chinese, matched as substrings.
ROLE_WORDS: dict[str, tuple[str, ...]] = {
    "boundaries": ("boundar", "constraint", "forbidden", "taboo", "compliance", "do-not", "dont",
                   "禁忌", "边界", "禁止", "红线", "合规", "不要"),
    "voice": ("voice", "tone", "style", "persona", "语气", "语调", "风格", "口吻", "人设", "表达"),
    "values": ("values", "principles", "价值观", "原则"),
    "briefing": ("briefing", "overview", "summary", "概述", "简介", "概要"),
    "facts": ("facts", "事实"),
    "usage": ("usage", "how-to-use", "使用"),
}


@dataclass(frozen=True, slots=True)
class Candidate:
    """One selectable item: a whole file or one heading section of a document."""

    path: str
    layer: str
    """``guide``, ``compiled``, ``split``, ``document`` or ``source``... (``wiki`` for wiki pages)."""
    text: str
    section: str | None = None
    slug: str | None = None
    lines: tuple[int, int] | None = None
    roles: frozenset[str] = frozenset()
    doc_stem: str | None = None
    """For splits, the ``<document-stem>`` folder; for document sections, the document's stem."""
    is_primary: bool = False
    """A section of ``metadata.primaryDocument``."""
    caution: str | None = None
    """For an answer: why its answer block is not settled (``resolver.answers``); selected, it warns."""

    @property
    def key(self) -> str:
        return f"{self.path}#{self.slug}" if self.slug is not None else self.path


@dataclass(slots=True)
class PackFiles:
    """The result of one walk."""

    candidates: list[Candidate] = field(default_factory=list)
    skipped: list[Skip] = field(default_factory=list)
    has_sources: bool = False
    split_stems: set[str] = field(default_factory=set)


# One alternation per role instead of a Python loop over the words, and one for all roles first, since
# most names carry none (this runs for every section).
_ROLE_PATTERNS = [(role, re.compile("|".join(map(re.escape, words)))) for role, words in ROLE_WORDS.items()]
_ANY_ROLE = re.compile("|".join(re.escape(w) for words in ROLE_WORDS.values() for w in words))


def roles_for(*names: str) -> frozenset[str]:
    """Roles whose marker words occur in any of ``names`` (file stems, heading titles)."""
    hay = " ".join(n.lower() for n in names if n)
    if not _ANY_ROLE.search(hay):
        return frozenset()
    return frozenset(role for role, pattern in _ROLE_PATTERNS if pattern.search(hay))


FileCache = dict[tuple[str, int, int, bool], tuple[list[Candidate], list[Skip]]]
"""Per-file walk results keyed by (path, mtime_ns, size, is-primary): unchanged files are not re-read."""


def collect(root: Path, primary_document: str | None, guide_body: str, cache: FileCache | None = None,
            primary_answers: str | None = None) -> PackFiles:
    """Walk ``root`` (never following symlinked directories) and classify every file.

    One bounded, descriptor-based walk (``pack_fs``): no folder or file swapped for a symlink while this runs
    can make it read outside the pack. With ``cache``, a file whose path, mtime and size are unchanged is not
    read or parsed again.
    """
    out = PackFiles()
    if guide_body.strip():
        out.candidates.append(Candidate("KNOWLEDGE.md", "guide", guide_body.strip("\n"), roles=frozenset({"usage"})))
    fresh: FileCache = {}
    seen = 0
    pruned: list[str] = []

    def enter(rel: str, name: str) -> bool:
        if rel in NEVER_CONTEXT:  # a top-level records, schemas or evals folder: never context, never walked
            pruned.append(rel)
            return False
        return not name.startswith(".")

    with PackFS(root) as fs:
        tree = fs.walk(enter=enter, max_entries=MAX_WALK_ENTRIES)
        links = {link.rel: link for link in tree.links}
        out.skipped.extend(Skip(f"{top}/", "not-a-runtime-surface", f"{top}/ holds audit, validation or CI "
                                "material, never model context; its files are not examined.") for top in pruned)
        answer_files = _add_answers(fs, primary_answers, out) if primary_answers else set()
        for rel in tree.too_deep:
            out.skipped.append(Skip(rel, "too-deep", f"Folders more than {tree.max_depth} levels deep are not "
                                    "walked; move the files up."))
        if tree.stopped_at is not None:
            out.skipped.append(Skip(tree.stopped_at, "too-many-files", f"The walk stopped after {tree.max_entries} "
                                    "entries; the rest of the pack was not examined."))
        for entry in tree.files:
            name = entry.rel.rsplit("/", 1)[-1]
            if name.startswith("."):
                continue
            link = links.get(entry.rel)
            if link is not None and link.state in (LinkState.DIR, LinkState.LOOP) and link.resolved is not None:
                out.skipped.append(Skip(entry.rel, "not-a-runtime-surface", "Symlinked directories are not "
                                        "followed; move the files into the pack."))
                continue
            rel = entry.rel
            if not isinstance(file_layer(rel), Skip):  # only files that could be context use up the limit
                seen += 1
            if seen > MAX_FILES:
                out.skipped.append(Skip(rel, "too-many-files", f"Only the first {MAX_FILES} files that could be "
                                        "context are examined."))
                break
            if rel.startswith("sources/"):
                out.has_sources = True
            key = (rel, entry.mtime_ns, entry.size, rel == primary_document)
            if rel in answer_files:
                fresh[key] = ([], [])  # read by _add_answers; its stamp still tells a session the file changed
                continue
            hit = cache.get(key) if cache is not None else None
            if hit is None and primary_answers and rel.startswith("answers/"):
                hit = ([], [Skip(rel, "not-simulated", "Only the question map (metadata.primaryAnswers) and its "
                                 "answer blocks are simulated; citation targets, surfaces and monitoring runs are "
                                 "citation candidates and observations, never context.")])
            if hit is None:
                piece = PackFiles()
                _classify(fs, rel, primary_document, piece, link)
                hit = (piece.candidates, piece.skipped)
            fresh[key] = hit
            out.candidates.extend(hit[0])
            out.skipped.extend(hit[1])
    out.split_stems = {c.doc_stem for c in out.candidates if c.layer == "split" and c.doc_stem}
    if cache is not None:
        cache.clear()
        cache.update(fresh)
    return out


def _add_answers(fs: PackFS, question_map: str, out: PackFiles) -> set[str]:
    def read(rel: str) -> bytes | None:
        data, size, problem = from_read_result(fs.read(rel, MAX_FILE_BYTES + 1), rel)
        return data if problem is None and data is not None and size <= MAX_FILE_BYTES else None

    items, used = answer_items(question_map, read)
    out.candidates.extend(Candidate(i.path, "answer", i.text, section=i.title, slug=i.record_id, caution=i.caution)
                          for i in items)
    return set(used)


def _classify(fs: PackFS, rel: str, primary: str | None, out: PackFiles, link: LinkEntry | None = None) -> None:
    """``link`` is the walk's view of the file when it is a symlink (None for a plain file)."""
    parts = rel.split("/")
    if link is not None and link.state is LinkState.OUTSIDE:
        out.skipped.append(Skip(rel, "symlink-escape", "This file is a symlink leading outside the pack; it is "
                                "never read or loaded."))
        return
    layer = file_layer(rel)
    if isinstance(layer, Skip):
        out.skipped.append(layer)
        return
    if layer == "guide":
        return  # the guide body is a candidate already (``collect``)
    text = _read_text(fs, rel, out)
    if text is None:
        return
    stem = os.path.splitext(parts[-1])[0]
    if layer == "split":
        out.candidates.append(Candidate(rel, "split", text, roles=roles_for(stem, _first_heading(text)),
                                        doc_stem=parts[2]))
    elif layer == "compiled":
        out.candidates.append(Candidate(rel, "compiled", text, roles=roles_for(stem)))
    elif layer == "wiki":
        out.candidates.append(Candidate(rel, "wiki", text, roles=roles_for(stem, _first_heading(text))))
    elif layer == "source":
        out.candidates.append(Candidate(rel, "source", text))
    else:  # documents/
        for sec in split_sections(text):
            # A heading with nothing under it (a document title before its first subsection) says nothing.
            if not sec.text.strip() or (sec.title is not None and not sec.text.partition("\n")[2].strip()):
                continue
            out.candidates.append(Candidate(
                rel, "document", sec.text, section=sec.title, slug=sec.slug,
                lines=(sec.start_line, sec.end_line), roles=roles_for(sec.title or ""), doc_stem=stem,
                is_primary=rel == primary,
            ))


def _read_text(fs: PackFS, rel: str, out: PackFiles) -> str | None:
    # Reached by descriptor from the root; a symlink is followed only while it stays inside the pack.
    data = read_text_bytes(fs, rel, MAX_FILE_BYTES)
    if isinstance(data, NotText):
        out.skipped.append(Skip(rel, data.reason, _skip_words(data)))
        return None
    return data.decode("utf-8", errors="replace").replace("\r\n", "\n").lstrip("\ufeff")


def _skip_words(refused: NotText) -> str:
    """What the resolver's skip list says about a file ``read_text_bytes`` refused."""
    if refused.reason == "too-large":
        return f"{refused.size} bytes is over the {refused.limit}-byte read limit; split the file."
    if refused.reason == "binary-file":
        return "The file contains NUL bytes; it is not text."
    return refused.problem.message if refused.problem is not None else "The file could not be read."


def _first_heading(text: str) -> str:
    for line in text.split("\n", 20)[:20]:
        if line.startswith("#"):
            return line.lstrip("#").strip()
    return ""
