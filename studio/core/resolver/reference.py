"""The reference CLI's ``resolve-context --dry-run``, reproduced exactly (digest 6.8) for comparison.

Its method, step by step: profile defaults to ``wiki-first``; candidates are ``compiled/briefing.md``,
``compiled/facts.md``, ``compiled/boundaries.md``, then ``metadata.primaryDocument`` (document-first) or
``wiki/index.md`` (other profiles); only those that exist are kept; document-first packs add up to five
``.md`` files from ``compiled/splits/`` (sorted path order); a warning when the query mentions "source",
"citation", "引用" or "来源" and ``sources/`` exists; a warning when the status is not ``ready``; tokens are
estimated as ``ceil(characters / 4)``. Like everything in the studio it never reads outside the pack.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from studio.core.model import Pack
from studio.core.paths import is_file, is_inside, read_bounded, resolve_inside
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
    path = root / rel
    return is_file(path) and is_inside(root, path)


def _splits(root: Path) -> list[str]:
    base = root / "compiled" / "splits"
    if not base.is_dir() or not is_inside(root, base):
        return []
    found: list[str] = []
    for dirpath, dirnames, filenames in os.walk(base, followlinks=False):
        dirnames.sort()
        for name in filenames:
            path = Path(dirpath) / name
            if name.endswith(".md") and path.is_file() and is_inside(root, path):
                found.append(path.relative_to(root).as_posix())
    return sorted(found)
