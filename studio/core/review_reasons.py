"""Why a pack needs a curator: the reasons behind a disputed, needs-review or stale pack, gathered in one place.

Reads the pack's frontmatter, its run records, its source map and the folder listing of
``wiki/contradictions/``, ``wiki/open-questions/`` and ``documents/open-questions.md``. It reads nothing
outside the pack, follows no symlink out of it and writes nothing; deciding is the curator's job.

``last_decision`` reads the newest review record (``runs/review-<UTC>.json``) so the queue can show who decided
what and when, and whether that decision still stands for the pack as it is now.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.core.model import Pack
from studio.core.pack_fs import PackFS
from studio.core.runs.model import RunKind, RunsReport
from studio.core.runs.reader import read_run_in
from studio.core.runs.timestamps import parse_time_text, time_from_name
from studio.core.sourcemap import SOURCE_MAP, read_source_map

REVIEW_STATUSES = ("disputed", "needs-review")
"""Statuses that always put a pack in the review queue; ``stale`` joins only when asked for."""
QUEUE_ORDER = {"disputed": 0, "needs-review": 1, "stale": 2}
MAX_LISTED_PAGES = 200
"""A pack with thousands of question pages still gets a readable list (the rest are counted)."""
MAX_LISTED_RUNS = 10_000
"""Entries of ``runs/`` looked at for review records (a folder of millions is cut short, never walked whole)."""
MAX_REVIEW_READS = 20
"""Newest review records read before giving up on finding one about this pack."""
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


@dataclass(frozen=True, slots=True)
class LastDecision:
    """The newest recorded review of a pack, and whether it still stands."""

    decision: str
    """``confirm``, ``reject`` or ``needs-review``."""
    reviewer: str
    timestamp: str
    """As recorded (ISO 8601 UTC)."""
    reason: str
    record: str
    """Pack-relative path of the review record."""
    stands: bool
    """True when the pack's status and trust are still what the decision left and no compile run came after it:
    the queue then shows the pack as decided."""
    newer_run: str = ""
    """A compile run recorded after the decision (what reopened it), when there is one."""

    @property
    def summary(self) -> str:
        """``confirm, alice, 2026-05-01`` (the queue's Last decision column; the time is in ``timestamp``)."""
        return f"{self.decision}, {self.reviewer}, {self.timestamp[:10]}"


def last_decision(pack: Pack) -> LastDecision | None:
    """The newest readable review record about ``pack`` in its ``runs/`` folder, or None.

    Looks at the top of ``runs/`` only (where ``review.write_review_record`` writes), reads at most
    ``MAX_REVIEW_READS`` records, newest first by the time in their names, and never follows a symlink.
    """
    with PackFS(os.path.abspath(pack.root)) as fs:
        names = _run_names(fs)
        reviews = sorted((n for n in names if n.startswith("review-") and n.endswith(".json")), key=_name_order,
                         reverse=True)
        for name in reviews[:MAX_REVIEW_READS]:
            record = read_run_in(fs, f"runs/{name}")
            decision = _decision(pack, record.data, record.path, name, names)
            if decision is not None:
                return decision
    return None


def _decision(pack: Pack, found: Any, record: str, name: str, names: list[str]) -> LastDecision | None:
    """The decision a review record holds, if it is one about ``pack``."""
    data = found if isinstance(found, dict) else None
    if data is None or not isinstance(data.get("decision"), str) or data.get("pack") not in (None, pack.name):
        return None
    recorded = data.get("after")
    after: dict[str, Any] = recorded if isinstance(recorded, dict) else {}
    when = parse_time_text(str(data.get("timestamp", ""))) or time_from_name(name)
    newer = [n for n in names if n.startswith("compile-") and when is not None
             and (t := time_from_name(n)) is not None and t > when]
    stands = after.get("status", pack.status) == pack.status and after.get("trust", pack.trust) == pack.trust
    return LastDecision(_text(data.get("decision")), _text(data.get("reviewer")) or "unknown",
                        _text(data.get("timestamp")), _text(data.get("reason")), record,
                        stands and not newer, max(newer) if newer else "")


def _text(value: Any) -> str:
    """A record value as one printable line (records are pack content: no control characters)."""
    text = value if isinstance(value, str) else ""
    return "".join(ch if ch.isprintable() else " " for ch in text[:500]).strip()


def _run_names(fs: PackFS) -> list[str]:
    """Names of the regular files directly in ``runs/`` (bounded; empty for a symlink or no folder)."""
    tree = fs.walk("runs", max_depth=0, max_entries=MAX_LISTED_RUNS, classify_links=False)
    return [e.rel.rsplit("/", 1)[-1] for e in tree.files if e.is_regular]


def _name_order(name: str) -> tuple[float, int, str]:
    """Newest last: the time in the name, then the ``-2`` a second review in the same second gets."""
    when = time_from_name(name)
    stem = name.removesuffix(".json")
    tail = stem.rsplit("-", 1)[-1]
    return (when.timestamp() if when else 0.0, int(tail) if tail.isdigit() and len(tail) < 4 else 1, name)


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
    reasons: list[ReviewReason] = []
    reasons.extend(_status_reasons(pack))
    if runs is not None:
        reasons.extend(_compile_reasons(runs))
    with PackFS(os.path.abspath(pack.root)) as fs:  # one pack held open: every read and walk by descriptor
        reasons.extend(_claim_reasons(fs))
        reasons.extend(_page_reasons(fs, "wiki/contradictions", "contradiction", "Contradiction recorded"))
        reasons.extend(_page_reasons(fs, "wiki/open-questions", "open-question", "Open question"))
        reasons.extend(ReviewReason("open-question", f"Open questions are listed in {rel}", rel)
                       for rel in _QUESTION_FILES if fs.exists(rel))
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
        found = data.get("review")
        review: dict[str, Any] = found if isinstance(found, dict) else {}
        wants_review = review.get("required") is True
        if status in (None, "passed") and not wants_review:
            continue
        reason = review.get("reason")
        why = reason if isinstance(reason, str) else ""
        text = f"Compile run {record.name} finished with status {status or 'unknown'}"
        if wants_review:
            text += "; it asks for review" + (f": {why.strip()}" if why.strip() else "")
        out.append(ReviewReason("compile-run", text, record.path))
    return out


def _claim_reasons(fs: PackFS) -> list[ReviewReason]:
    source_map = read_source_map(Path(fs.root), fs)
    out: list[ReviewReason] = []
    for claim in source_map.claims:
        if claim.status in ("disputed", "stale"):
            label = claim.claim_id or "(no id)"
            out.append(ReviewReason("claim", f"Claim {label} is {claim.status}: {claim.text}", SOURCE_MAP,
                                    claim.line))
    return out


def _page_reasons(fs: PackFS, folder: str, kind: str, label: str) -> list[ReviewReason]:
    """One reason per Markdown page under ``folder`` (index pages included; they often hold the list)."""
    # One bounded walk by descriptor; symlinks are never followed.
    tree = fs.walk(folder, enter=lambda _rel, name: not name.startswith("."), classify_links=False)
    pages = [e.rel for e in tree.files if e.is_regular and not e.rel.rsplit("/", 1)[-1].startswith(".")
             and e.rel.lower().endswith(_PAGE_SUFFIXES)]
    out = [ReviewReason(kind, f"{label}: {rel}", rel) for rel in sorted(pages)[:MAX_LISTED_PAGES]]
    if len(pages) > MAX_LISTED_PAGES:
        out.append(ReviewReason(kind, f"... and {len(pages) - MAX_LISTED_PAGES} more pages under {folder}/"))
    return out
