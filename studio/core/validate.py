"""Run every registered check over a loaded pack and collect the diagnostics."""

from __future__ import annotations

import threading
from collections import OrderedDict

from studio.core.checks import ALL_CHECKS, CheckContext, content_check_modules
from studio.core.diagnostics import Diagnostic
from studio.core.model import Pack

_CACHE_SIZE = 16
_cache: OrderedDict[tuple[object, ...], list[Diagnostic]] = OrderedDict()
_cache_lock = threading.Lock()


def validate_pack(pack: Pack, *, content: bool = False, reuse_files: bool = False) -> list[Diagnostic]:
    """Diagnostics from every check (parse problems are added by ``load_pack``, not here).

    ``content`` adds the checks that read the pack's other files (JSON, runs/, modes, links, every text file).
    With ``reuse_files`` (the editor's live check of an unsaved ``KNOWLEDGE.md``, every few hundred ms), the
    findings about files other than ``KNOWLEDGE.md`` are reused while the walk of the pack sees the same files
    (path, size, mtime, mode): the counts stay those of a full check, at the cost of a walk.
    """
    ctx = CheckContext.for_pack(pack)
    out: list[Diagnostic] = []
    try:
        for check in ALL_CHECKS:
            out.extend(check(ctx))
        if content:
            out.extend(_file_findings(ctx, reuse_files))
            # A content check that also reads KNOWLEDGE.md's text splits itself into check_knowledge and
            # check_files: the text part always runs, since the text may be an unsaved buffer.
            for module in content_check_modules():
                if hasattr(module, "check_knowledge"):
                    out.extend(module.check_knowledge(ctx))
    finally:
        ctx.close()
    return out


def _file_findings(ctx: CheckContext, reuse: bool) -> list[Diagnostic]:
    """What the content checks find in the pack's files (not in KNOWLEDGE.md's text)."""
    key: tuple[object, ...] | None = None
    if reuse:
        tree = ctx.tree
        key = (str(ctx.pack.root), tuple((e.rel, e.size, e.mtime_ns, e.mode) for e in tree.files),
               tuple(tree.dirs), tuple((link.rel, link.target) for link in tree.links))
        with _cache_lock:
            hit = _cache.get(key)
        if hit is not None:
            return list(hit)
    found: list[Diagnostic] = []
    for module in content_check_modules():
        check = getattr(module, "check_files", module.check)
        found.extend(check(ctx))
    if key is not None:
        with _cache_lock:
            _cache[key] = list(found)
            while len(_cache) > _CACHE_SIZE:
                _cache.popitem(last=False)
    return found
