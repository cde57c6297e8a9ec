"""Which files of a pack a client can load as context, decided from the path alone: one rule for the resolver
and the search index.

``file_layer`` names a file's layer (``guide``, ``compiled``, ``split``, ``document``, ``wiki``, ``source``) or
the ``Skip`` that keeps it out, without reading it; ``MAX_FILE_BYTES`` and ``MAX_FILES`` bound what is read.
It lives below both users: search must cover exactly the files the resolver could use, and a warm
``pack-studio search`` must not pay for importing the resolver (its session, ranking and Markdown parser) to
learn a rule that needs none of them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

MAX_FILE_BYTES = 1_048_576
MAX_FILES = 5000
TEXT_SOURCE_SUFFIXES = (".md", ".markdown", ".txt", ".csv", ".tsv", ".vtt", ".srt", ".json", ".yaml", ".yml")
NEVER_CONTEXT = frozenset({"runs", "schemas", "evals"})
"""Top-level folders of records, schemas and evals: never context."""
RUNTIME_TOPS = frozenset({"compiled", "documents", "wiki", "sources"})
"""Top-level folders whose files can be context (besides ``KNOWLEDGE.md`` at the root)."""


@dataclass(frozen=True, slots=True)
class Skip:
    """A file the walk refused, with its reason code and a sentence for the curator."""

    path: str
    reason: str
    detail: str


def file_layer(rel: str) -> str | Skip:
    """The layer a pack-relative file would be a candidate of, or the walk's skip for it, without reading it.

    Layers: ``guide`` (``KNOWLEDGE.md``), ``compiled``, ``split``, ``document``, ``wiki``, ``source``. The file
    may still be skipped once read (too large, binary, a symlink leading out).
    """
    parts = rel.split("/")
    top = parts[0]
    if len(parts) == 1:
        if rel == "KNOWLEDGE.md":
            return "guide"
        return Skip(rel, "not-a-runtime-surface", "Top-level files other than KNOWLEDGE.md are not model context.")
    reason = _static_reason(top)
    if reason is not None:
        return Skip(rel, *reason)
    suffix = os.path.splitext(parts[-1])[1].lower()
    if top == "sources":
        if suffix not in TEXT_SOURCE_SUFFIXES:
            return Skip(rel, "binary-file", "Only text evidence can be quoted; cite this file by anchor.")
        return "source"
    if suffix not in (".md", ".markdown"):
        code = "index-candidate-only" if suffix == ".json" and top == "compiled" else "not-markdown"
        return Skip(rel, code, "Only Markdown views, documents and pages are loaded as context.")
    if top == "compiled":
        return "split" if len(parts) >= 4 and parts[1] == "splits" else "compiled"
    return "wiki" if top == "wiki" else "document"


def _static_reason(top: str) -> tuple[str, str] | None:
    if top == "indexes":
        return ("index-candidate-only", "Indexes only help find candidates; they are never fact authority.")
    if top in NEVER_CONTEXT:
        return ("not-a-runtime-surface", f"{top}/ holds audit, validation or CI material, never model context.")
    if top in ("ontology", "answers"):
        return ("not-simulated", f"{top}/ subgraph selection is not simulated by the studio yet.")
    if top == "assets":
        return ("assets-on-demand", "Assets are loaded on demand only and are never fact authority.")
    if top not in RUNTIME_TOPS:
        return ("not-a-runtime-surface", f"{top}/ is not a directory the standard loads at runtime.")
    return None
