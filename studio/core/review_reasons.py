"""Why a pack needs a curator: the reasons behind a disputed, needs-review or stale pack, gathered in one place.

Reads the pack's frontmatter, its run records, its source map and the folder listing of
``wiki/contradictions/``, ``wiki/open-questions/`` and ``documents/open-questions.md``. It reads nothing
outside the pack, follows no symlink out of it and writes nothing; deciding is the curator's job.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from studio.core.evidence.source_map import SOURCE_MAP, read_source_map
from studio.core.model import Pack
from studio.core.pack_fs import PackFS
from studio.core.paths import is_inside
from studio.core.runs.model import RunKind, RunsReport

REVIEW_STATUSES = ("disputed", "needs-review")
"""Statuses that always put a pack in the review queue; ``stale`` joins only when asked for."""
QUEUE_ORDER = {"disputed": 0, "needs-review": 1, "stale": 2}
MAX_LISTED_PAGES = 200
"""A pack with thousands of question pages still gets a readable list (the rest are counted)."""
_QUESTION_FILES = ("documents/open-questions.md", "wiki/open-questions.md")
_PAGE_SUFFIXES = (".md", ".markdown")


@dataclass(frozen=True, slots=True)
class ReviewReason:
    """One reason to look at the pack, with where to look."""

    kind: str
    """``status``, ``compile-run``, ``claim``, ``contradiction`` or ``open-question``."""
    summary: str
    """One sentence for the list."""
    file: str | None = None
    """Pack-relative path to open, or None."""
    line: int = 1


def in_review_queue(pack: Pack, include_stale: bool = False) -> bool:
    """Whether ``pack`` belongs in the review queue (disputed or needs-review; stale on request)."""
    status = pack.status
    return status in REVIEW_STATUSES or (include_stale and status == "stale")


def review_queue(packs: list[Pack], include_stale: bool = False) -> list[Pack]:
    """Packs waiting for review, most urgent first (disputed, needs-review, stale), then by name."""
    queued = [p for p in packs if in_review_queue(p, include_stale)]
    return sorted(queued, key=lambda p: (QUEUE_ORDER.get(p.status or "", 3), p.name, str(p.root)))


def gather_review_reasons(pack: Pack, runs: RunsReport | None = None) -> list[ReviewReason]:
    """Every reason found for ``pack``, in a stable order: status, compile runs, claims, pages.

    ``runs`` is the pack's already-read run report; without it, compile runs are not consulted (the
    caller decides whether reading ``runs/`` is worth it).
    """
    root = Path(os.path.abspath(pack.root))
    reasons: list[ReviewReason] = []
    reasons.extend(_status_reasons(pack))
    if runs is not None:
        reasons.extend(_compile_reasons(runs))
    reasons.extend(_claim_reasons(root))
    reasons.extend(_page_reasons(root, "wiki/contradictions", "contradiction", "Contradiction recorded"))
    reasons.extend(_page_reasons(root, "wiki/open-questions", "open-question", "Open question"))
    for rel in _QUESTION_FILES:
        target = root / rel
        if target.is_file() and is_inside(root, target):
            reasons.append(ReviewReason("open-question", f"Open questions are listed in {rel}", rel))
    return reasons


def _status_reasons(pack: Pack) -> list[ReviewReason]:
    status = pack.status
    if status not in QUEUE_ORDER:
        return []
    position = pack.frontmatter.position("status") if pack.frontmatter else None
    line = position.line if position else 1
    words = {
        "disputed": "The pack is marked disputed: a client must not use it without explicit confirmation.",
        "needs-review": "The pack is marked needs-review: clients load it with a warning.",
        "stale": "The pack is marked stale: its sources changed after it was compiled.",
    }
    return [ReviewReason("status", words[status], "KNOWLEDGE.md", line)]


def _compile_reasons(runs: RunsReport) -> list[ReviewReason]:
    """Compile runs whose status is not ``passed`` or that ask for review themselves."""
    out: list[ReviewReason] = []
    for record in runs.by_kind(RunKind.COMPILE_RUN):
        data = record.data if isinstance(record.data, dict) else {}
        status = data.get("status")
        review = data.get("review") if isinstance(data.get("review"), dict) else {}
        wants_review = review.get("required") is True
        if status in (None, "passed") and not wants_review:
            continue
        why = review.get("reason") if isinstance(review.get("reason"), str) else ""
        text = f"Compile run {record.name} finished with status {status or 'unknown'}"
        if wants_review:
            text += "; it asks for review" + (f": {why.strip()}" if why.strip() else "")
        out.append(ReviewReason("compile-run", text, record.path))
    return out


def _claim_reasons(root: Path) -> list[ReviewReason]:
    source_map = read_source_map(root)
    out: list[ReviewReason] = []
    for claim in source_map.claims:
        if claim.status in ("disputed", "stale"):
            label = claim.claim_id or "(no id)"
            out.append(ReviewReason("claim", f"Claim {label} is {claim.status}: {claim.text}", SOURCE_MAP,
                                    claim.line))
    return out


def _page_reasons(root: Path, folder: str, kind: str, label: str) -> list[ReviewReason]:
    """One reason per Markdown page under ``folder`` (index pages included; they often hold the list)."""
    with PackFS(root) as fs:  # one bounded walk by descriptor; symlinks are never followed
        tree = fs.walk(folder, enter=lambda _rel, name: not name.startswith("."), classify_links=False)
    pages = [e.rel for e in tree.files if e.is_regular and not e.rel.rsplit("/", 1)[-1].startswith(".")
             and e.rel.lower().endswith(_PAGE_SUFFIXES)]
    out = [ReviewReason(kind, f"{label}: {rel}", rel) for rel in sorted(pages)[:MAX_LISTED_PAGES]]
    if len(pages) > MAX_LISTED_PAGES:
        out.append(ReviewReason(kind, f"... and {len(pages) - MAX_LISTED_PAGES} more pages under {folder}/"))
    return out
