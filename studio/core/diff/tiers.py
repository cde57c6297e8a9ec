"""The three texts an agent sees of a pack, before and after: catalog entry, activation guide, runtime fence.

Each is rendered by the same code as ``pack-studio catalog``, ``guide`` and ``fence`` (the fence with the
pack's runtime resources, as ``fence`` without ``--files``), counted with the tokenizer, and compared line by
line. Both versions are rendered as living in the same folder (``display_root``): a ref is read from a
temporary folder, and where a pack lives is not what changed in it.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from studio.core.diff.report import TierDiff
from studio.core.model import Pack
from studio.core.pack_fs import PackFS
from studio.core.render.catalog import CatalogEntry, render_catalog_entry
from studio.core.render.costs import count_tokens
from studio.core.render.escape import neutralise
from studio.core.render.fence import FenceItem, FencePack, render_fence
from studio.core.render.guide import render_guide
from studio.core.render.resources import ResourceKind, ResourceScan, scan_resources
from studio.core.textfiles import is_binary
from studio.core.tokens import Tokenizer

MAX_FENCE_FILE_BYTES = 2 * 1024 * 1024
"""As ``pack-studio fence``: a larger runtime file is left out of the fence."""
MAX_DIFF_LINES = 300
MAX_COMPARED_LINES = 20_000
"""Texts longer than this are compared by token count only (a line diff of them would say little and cost much)."""


def tier_texts(pack: Pack, display_root: Path, read: Mapping[str, bytes] | None = None) -> dict[str, str]:
    """``catalog``, ``guide`` and ``fence`` text of ``pack`` ("" where a client would show none); ``read`` holds
    the bytes of regular files the caller already read (``files.Listing.regular``), so they are not read twice."""
    if pack.knowledge is None:
        return {"catalog": "", "guide": "", "fence": ""}
    catalog = ""
    if pack.in_catalog:
        entry = replace(CatalogEntry.of(pack), location=str(display_root / "KNOWLEDGE.md"))
        catalog = render_catalog_entry(entry)
    scan = scan_resources(pack)  # once for both: the guide lists the resources, the fence reads the runtime ones
    guide = render_guide(pack, scan=scan).replace(f"Pack root: {neutralise(str(pack.root))}",
                                                  f"Pack root: {neutralise(str(display_root))}", 1)
    return {"catalog": catalog, "guide": guide, "fence": _runtime_fence(pack, scan, read or {})}


def _runtime_fence(pack: Pack, scan: ResourceScan, read: Mapping[str, bytes]) -> str:
    """The fence of the pack's runtime resources; unreadable, oversized and binary files are left out."""
    items = []
    with PackFS(pack.root) as fs:
        for resource in scan.resources:
            if resource.kind is not ResourceKind.RUNTIME:
                continue
            data = read.get(resource.path)
            if data is None:  # a link that stays inside the pack, or a file the caller did not read
                found = fs.read(resource.path, MAX_FENCE_FILE_BYTES + 1)
                data = found.data if found.data is not None and found.size <= MAX_FENCE_FILE_BYTES else None
            if data is None or len(data) > MAX_FENCE_FILE_BYTES or is_binary(data):
                continue
            items.append(FenceItem(resource.path, data.decode("utf-8", errors="replace")))
    warnings = [] if pack.status == "ready" else [f"Pack status is {pack.status or 'missing'}."]
    return render_fence([FencePack(pack, items, warnings)])


def diff_tier(tier: str, before: str, after: str, tokenizer: Tokenizer) -> TierDiff:
    tokens_before = count_tokens(before, tokenizer).tokens if before else 0
    tokens_after = count_tokens(after, tokenizer).tokens if after else 0
    if before == after:
        return TierDiff(tier, tokens_before, tokens_after, ())
    a, b = before.splitlines(), after.splitlines()
    if len(a) > MAX_COMPARED_LINES or len(b) > MAX_COMPARED_LINES:
        return TierDiff(tier, tokens_before, tokens_after, (), truncated=True)
    lines: list[str] = []
    for i, line in enumerate(difflib.unified_diff(a, b, f"{tier} (old)", f"{tier} (new)", lineterm="", n=1)):
        if i >= MAX_DIFF_LINES:
            return TierDiff(tier, tokens_before, tokens_after, tuple(lines), truncated=True)
        lines.append(line)
    return TierDiff(tier, tokens_before, tokens_after, tuple(lines))
