"""The reference CLI's ``resolve-context --dry-run``, reproduced exactly (digest 6.8) for comparison.

Its method, step by step: profile defaults to ``wiki-first``; candidates are ``compiled/briefing.md``,
``compiled/facts.md``, ``compiled/boundaries.md``, then ``metadata.primaryDocument`` (document-first) or
``wiki/index.md`` (other profiles); only those that exist are kept; document-first packs add up to five
``.md`` files from ``compiled/splits/`` (sorted path order); a warning when the query mentions "source",
"citation", "引用" or "来源" and ``sources/`` exists; a warning when the status is not ``ready``; tokens are
estimated as ``ceil(characters / 4)``. Like everything in the studio it never reads outside the pack.
"""

from __future__ import annotations

from typing import Any

from studio.core.model import Pack
from studio.core.pack_fs import PackFS, Status, held
from studio.core.paths import is_unsafe_pointer
from studio.core.resolver.intent import reference_asks_for_sources
from studio.core.runtime_files import MAX_FILE_BYTES
from studio.core.tokens import CharEstimator

MAX_SPLITS = 5


def reference_candidates(pack: Pack, fs: PackFS | None = None) -> list[str]:
    """The reference CLI's selected files for ``pack``, in its order (looked at through ``fs``, the pack held
    open, or one opened here: a file linked out of the pack does not exist for it)."""
    with held(pack.root, fs) as pack_fs:
        return _candidates(pack, pack_fs)


def _candidates(pack: Pack, fs: PackFS) -> list[str]:
    profile = pack.profile or "wiki-first"
    wanted = ["compiled/briefing.md", "compiled/facts.md", "compiled/boundaries.md"]
    primary = pack.field("metadata", "primaryDocument")
    if profile == "document-first":
        if isinstance(primary, str) and not is_unsafe_pointer(primary):
            wanted.append(primary)
    else:
        wanted.append("wiki/index.md")
    chosen = [rel for rel in wanted if fs.exists(rel)]
    if profile == "document-first":
        chosen.extend(_splits(fs)[:MAX_SPLITS])
    return list(dict.fromkeys(chosen))


def reference_dry_run(pack: Pack, query: str, pack_arg: str | None = None) -> dict[str, Any]:
    """``{ok, command, pack, dry_run, query, selected_files, warnings, token_estimate}`` as the reference prints."""
    with PackFS(pack.root) as fs:  # one pack held open for the whole run: every look and read by descriptor
        files = reference_candidates(pack, fs)
        warnings: list[str] = []
        if reference_asks_for_sources(query) and fs.is_dir("sources"):
            warnings.append("Query asks for sources or citations; load anchors from sources/ for citation.")
        if pack.status != "ready":
            warnings.append(f"Pack status is {pack.status}.")
        chars = 0
        for rel in files:
            found = fs.read(rel, MAX_FILE_BYTES)
            if found.status is Status.OK and found.data is not None:
                chars += len(found.data.decode("utf-8", errors="replace"))
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


def _splits(fs: PackFS) -> list[str]:
    """Markdown files under ``compiled/splits/`` (one bounded ``pack_fs`` walk; symlinks never followed)."""
    tree = fs.walk("compiled/splits", classify_links=False)
    return sorted(e.rel for e in tree.files if e.is_regular and e.rel.endswith(".md"))
