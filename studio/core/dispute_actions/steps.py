"""Checking and writing one dispute step: the claim must be known, texts are bounded, evidence is read.

Everything is checked before anything is written: the claim must be in the source map or ``ontology/claims.json``
(else ``UnknownClaim`` naming the nearest ids), texts are bounded, evidence paths must be regular files inside the
pack (their excerpts come from the evidence reader). The record is written by ``atomic.write_run_record``: by
descriptor, atomically, never over an existing name (``-2``, ``-3`` ... when a name is taken, which is how
concurrent writers each keep their step). A record that cannot be written (read-only ``runs/``, a full disk)
leaves nothing behind (the atomic writer removes its temporary file) and the error says why.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from studio.core.atomic import record_author, storage_problem, write_stamped_record
from studio.core.disputes.claims import Claim, ClaimIndex
from studio.core.disputes.listing import dispute_listing
from studio.core.disputes.model import (
    DECISIONS,
    MAX_TEXT_CHARS,
    RECORD_PREFIX,
    STEPS,
    DisputeError,
    DisputeStep,
    Evidence,
    UnknownClaim,
    record_slug,
)
from studio.core.disputes.threads import Threads
from studio.core.evidence.anchors import parse_anchor
from studio.core.evidence.excerpts import SourceReader
from studio.core.feedback.record import FeedbackError, pack_relative_file
from studio.core.jsonwrite import dumps

MAX_AUTHOR_CHARS = 200
MAX_EVIDENCE = 20
MAX_EXCERPT_CHARS = 1_000
MAX_NAME_ATTEMPTS = 1000


def parse_evidence(spec: str) -> tuple[str, int | None]:
    """``PATH[:LINE]`` -> (path, line); a trailing ``:N`` is a line number only when N is a positive integer."""
    path, sep, tail = spec.rpartition(":")
    if sep and tail.isdigit() and int(tail) > 0 and path:
        return path, int(tail)
    return spec, None


def read_evidence(root: Path, specs: list[str] | tuple[str, ...]) -> tuple[Evidence, ...]:
    """Each ``PATH[:LINE]`` checked (a regular file inside the pack) and given its excerpt."""
    if len(specs) > MAX_EVIDENCE:
        raise DisputeError(f"at most {MAX_EVIDENCE} evidence places per step, not {len(specs)}")
    reader = SourceReader(Path(root))
    out: list[Evidence] = []
    for spec in specs:
        raw_path, line = parse_evidence(spec)
        try:
            rel = pack_relative_file(Path(root), raw_path)
        except FeedbackError as exc:
            raise DisputeError(f"evidence {exc}") from None
        excerpt = reader.excerpt(rel, parse_anchor(f"L{line}" if line else None))
        if line is not None and not excerpt.ok:
            raise DisputeError(f"evidence {rel}:{line}: {excerpt.state.value}")
        out.append(Evidence(rel, line, excerpt.text[:MAX_EXCERPT_CHARS]))
    return tuple(out)


def make_step(root: Path, pack_name: str, claims: ClaimIndex, claim_id: str, step: str, text: str, *,
              evidence: list[str] | tuple[str, ...] = (), decision: str | None = None, new_text: str | None = None,
              author: str | None = None, now: datetime | None = None) -> DisputeStep:
    """Check everything and build (but do not write) one step; raises DisputeError (UnknownClaim) for bad input."""
    if step not in STEPS:
        raise DisputeError(f"step must be one of {', '.join(STEPS)}, not '{step}'")
    claim = claims.get(claim_id)
    if claim is None:
        raise UnknownClaim(claim_id, claims.nearest(claim_id))
    body = _bounded("text" if step == "comment" else "reason", text, MAX_TEXT_CHARS)
    if step == "decide":
        if decision not in DECISIONS:
            raise DisputeError(f"decision must be one of {', '.join(DECISIONS)}, not '{decision}'")
        if decision == "amend":
            new_text = _bounded("new claim text (--text)", new_text or "", MAX_TEXT_CHARS)
        elif new_text is not None:
            raise DisputeError("only an 'amend' decision takes a new claim text")
    elif decision is not None or new_text is not None:
        raise DisputeError("only 'decide' takes a decision")
    who = _bounded("author", record_author(author), MAX_AUTHOR_CHARS)
    moment = (now or datetime.now(UTC)).astimezone(UTC)
    return DisputeStep(pack_name, claim.claim_id, step, who, body, moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
                       read_evidence(root, evidence), decision if step == "decide" else None, new_text,
                       _claim_text(claim))


def check_against_thread(step: DisputeStep, threads: Threads) -> None:
    """Refuse a step the thread cannot take: opening an open dispute, commenting on or deciding a claim with no
    open dispute. (Concurrent writers may still both pass; the thread rebuild copes with that, see ``threads``.)"""
    thread = threads.get(step.claim)
    is_open = thread is not None and thread.is_open
    if step.step == "open" and is_open:
        raise DisputeError(f"claim '{step.claim}' already has an open dispute; add to it with 'dispute comment'")
    if step.step != "open" and not is_open:
        state = "was decided" if thread is not None else "has no dispute"
        raise DisputeError(f"claim '{step.claim}' {state}; open a dispute first with 'dispute open'")


def prepare_step(root: Path, pack_name: str, claim_id: str, step: str, text: str, *,
                 evidence: list[str] | tuple[str, ...] = (), decision: str | None = None,
                 new_text: str | None = None, author: str | None = None) -> DisputeStep:
    """The pack's claims and threads read, the step built and checked against its thread (not written)."""
    threads, claims = dispute_listing(root)
    made = make_step(root, pack_name, claims, claim_id, step, text, evidence=evidence, decision=decision,
                     new_text=new_text, author=author)
    check_against_thread(made, threads)
    return made


def write_step(root: Path, step: DisputeStep) -> Path:
    """Write ``step`` to a new ``runs/dispute-*.json`` (atomic, exclusive); DisputeError when storage refuses."""
    payload = dumps(step.to_dict(), indent=2) + "\n"
    try:
        return write_stamped_record(Path(root), f"{RECORD_PREFIX}{record_slug(step.claim)}-", step.timestamp, payload,
                                    MAX_NAME_ATTEMPTS, refused=DisputeError, what="dispute records")
    except OSError as exc:
        raise DisputeError(f"the dispute record cannot be written: {storage_problem(exc)}; nothing written") \
            from exc


def _claim_text(claim: Claim) -> str:
    return claim.text[:MAX_TEXT_CHARS]


def _bounded(label: str, value: str, limit: int) -> str:
    text = value.strip()
    if not text:
        raise DisputeError(f"the {label} must not be empty")
    if len(text) > limit:
        raise DisputeError(f"the {label} is {len(text):,} characters; at most {limit:,} are recorded")
    return text



__all__ = ["MAX_EVIDENCE", "check_against_thread", "make_step", "parse_evidence", "prepare_step", "read_evidence",
           "write_step"]
