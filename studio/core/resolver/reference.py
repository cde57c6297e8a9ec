"""The reference CLI's ``resolve-context --dry-run``, reproduced exactly (digest 6.8) for comparison.

Its method, step by step: profile defaults to ``wiki-first``; candidates are ``compiled/briefing.md``,
``compiled/facts.md``, ``compiled/boundaries.md``, then ``metadata.primaryDocument`` (document-first) or
``wiki/index.md`` (other profiles); only those that exist are kept; document-first packs add up to five
``.md`` files from ``compiled/splits/`` (sorted path order); a warning when the query mentions "source",
"citation", "引用" or "来源" and ``sources/`` exists; a warning when the status is not ``ready``; tokens are
estimated as ``ceil(characters / 4)``. Like everything in the studio it never reads outside the pack.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from studio.core.model import Pack
from studio.core.pack_fs import PackFS
from studio.core.paths import read_bounded, resolve_inside
from studio.core.resolver.candidates import MAX_FILE_BYTES
from studio.core.resolver.intent import reference_asks_for_sources
from studio.core.tokens import CharEstimator

MAX_SPLITS = 5


def reference_candidates(pack: Pack) -> list[str]:
    """The reference CLI's selected files for ``pack``, in its order."""
    root = pack.root
    profile = pack.profile or "wiki-first"
    wanted = ["compiled/briefing.md", "compiled/facts.md", "compiled/boundaries.md"]
    primary = pack.field("metadata", "primaryDocument")
    if profile == "document-first":
        if isinstance(primary, str) and resolve_inside(root, primary) is not None:
            wanted.append(primary)
    else:
        wanted.append("wiki/index.md")
    chosen = [rel for rel in wanted if _is_file(root, rel)]
    if profile == "document-first":
        chosen.extend(_splits(root)[:MAX_SPLITS])
    return list(dict.fromkeys(chosen))


def reference_dry_run(pack: Pack, query: str, pack_arg: str | None = None) -> dict[str, Any]:
    """``{ok, command, pack, dry_run, query, selected_files, warnings, token_estimate}`` as the reference prints."""
    files = reference_candidates(pack)
    warnings: list[str] = []
    if reference_asks_for_sources(query) and (pack.root / "sources").is_dir():
        warnings.append("Query asks for sources or citations; load anchors from sources/ for citation.")
    if pack.status != "ready":
        warnings.append(f"Pack status is {pack.status}.")
    chars = 0
    for rel in files:
        data, _, problem = read_bounded(pack.root / rel, MAX_FILE_BYTES, root=pack.root)
        if problem is None and data is not None:
            chars += len(data.decode("utf-8", errors="replace"))
    estimate = CharEstimator().count("x" * chars)
    return {
        "ok": True,
        "command": "resolve-context",
        "pack": pack_arg if pack_arg is not None else str(pack.root),
        "dry_run": True,
        "query": query,
        "selected_files": files,
        "warnings": warnings,
        "token_estimate": estimate,
    }


def _is_file(root: Path, rel: str) -> bool:
    with PackFS(root) as fs:
        return fs.exists(rel)


def _splits(root: Path) -> list[str]:
    """Markdown files under ``compiled/splits/`` (one bounded ``pack_fs`` walk; symlinks never followed)."""
    with PackFS(root) as fs:
        tree = fs.walk("compiled/splits", classify_links=False)
    return sorted(e.rel for e in tree.files if e.is_regular and e.rel.endswith(".md"))
