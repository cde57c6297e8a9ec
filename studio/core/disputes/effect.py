"""What a dispute does to the rest of the studio: the claim statuses the resolver sees, and validate's findings.

- An **open** dispute makes its claim ``disputed``: every file carrying it enters context only with a warning
  naming the claim and the thread (the standard: disputed claims "may only enter context with an explicit
  warning").
- ``keep`` ends that: the claim reads as the source map (or the ontology) has it.
- ``amend`` records a new text. While the source map still holds the old text, the claim reads as ``amended`` and
  every file that carries it is flagged (a resolver warning and a ``validate`` warning); once the claim is
  recompiled with the new text (or leaves the map) the flag goes.
- ``retract``: while any file still carries the claim it reads as ``retracted``; the resolver warns wherever its
  text would enter context and ``validate`` reports each such file as an error, until a recompile drops it.

A file "carries" a claim when the source map (or the ontology claim's ``compiledInto``) lists it. The effect is
applied to the source map the resolver already reads (``with_disputes``): the resolver's existing warning for
risky claim statuses does the rest, so the resolver needs no dispute logic of its own.

``preview`` lets a caller ask what a decision *would* do (the before/after fences) without writing a record: the
hypothetical steps are added to those on disk for the duration of a ``with`` block, in this thread only.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from pathlib import Path

from studio.core.disputes.claims import Claim, ClaimIndex, read_claims
from studio.core.disputes.model import DisputeStep
from studio.core.disputes.threads import Thread, Threads, build_threads, read_steps
from studio.core.pack_fs import PackFS, held
from studio.core.sourcemap import SourceClaim, SourceMap

_PREVIEW: ContextVar[tuple[DisputeStep, ...]] = ContextVar("dispute_preview", default=())


@dataclass(frozen=True, slots=True)
class ClaimEffect:
    """One claim whose dispute changes how it may be used, and the files that still carry it."""

    claim: Claim
    status: str
    """``disputed`` (open), ``amended`` (old text still compiled) or ``retracted`` (still compiled)."""
    thread: Thread
    files: tuple[str, ...]

    @property
    def note(self) -> str:
        """The sentence the resolver's warning ends with: what happened and where the thread is."""
        where = self.thread.records[0] if self.thread.records else "runs/dispute-*.json"
        if self.status == "disputed":
            return f"Open dispute: see {where} (pack-studio dispute list)."
        if self.status == "amended":
            return (f"The claim was amended ({self.thread.decided}); this file still carries the old text. "
                    f"Thread: {where}.")
        return f"The claim was retracted ({self.thread.decided}); recompile to drop it. Thread: {where}."


def current_threads(root: Path, fs: PackFS | None = None) -> Threads:
    """The pack's threads from ``runs/``, plus the hypothetical steps of an active ``preview``."""
    steps, complete = read_steps(root, fs)
    return build_threads([*steps, *_PREVIEW.get()], complete)


@contextmanager
def preview(*steps: DisputeStep) -> Iterator[None]:
    """Within the block, ``steps`` count as if recorded (for before/after views); nothing is written."""
    token = _PREVIEW.set((*_PREVIEW.get(), *steps))
    try:
        yield
    finally:
        _PREVIEW.reset(token)


def claim_effects(threads: Threads, claims: ClaimIndex) -> list[ClaimEffect]:
    """The claims whose threads change how they may be used now, given the pack's current claims."""
    out: list[ClaimEffect] = []
    for claim_id, thread in sorted(threads.by_claim.items()):
        claim = claims.get(claim_id)
        if claim is None:
            continue  # the claim left the pack: nothing carries it any more
        status = _status(thread, claim)
        if status is not None:
            out.append(ClaimEffect(claim, status, thread, claim.files))
    return out


def _status(thread: Thread, claim: Claim) -> str | None:
    if thread.is_open:
        return "disputed"
    if thread.decision == "amend" and thread.new_text is not None and claim.text != thread.new_text:
        return "amended"
    if thread.decision == "retract":
        return "retracted"
    return None


def pack_effects(root: Path, fs: PackFS | None = None) -> list[ClaimEffect]:
    """``claim_effects`` for the pack at ``root`` (its records and claims read once)."""
    with held(root, fs) as pack:
        threads = current_threads(Path(root), pack)
        if not threads.by_claim:
            return []
        return claim_effects(threads, read_claims(Path(root), pack))


def with_disputes(source_map: SourceMap, root: Path) -> SourceMap:
    """``source_map`` with the claims under dispute (or decided but not recompiled) carrying their new status.

    The map itself when no dispute applies (the usual case costs one look at ``runs/``). An ontology claim under
    dispute is added as a claim of its own, so the files it names are warned about the same way.
    """
    try:
        effects = pack_effects(root)
    except OSError:
        return source_map  # the records cannot be read: the map as it is (validate-run says why)
    if not effects:
        return source_map
    by_id = {e.claim.claim_id: e for e in effects}
    claims: list[SourceClaim] = []
    for claim in source_map.claims:
        effect = by_id.pop(claim.claim_id, None)
        claims.append(claim if effect is None else replace(claim, status=effect.status, note=effect.note))
    for effect in by_id.values():  # ontology claims: not in the map
        path, _, fragment = effect.claim.source.partition("#")
        claims.append(SourceClaim(effect.claim.claim_id, effect.claim.text, effect.status, path, fragment,
                                  compiled_into=effect.files, note=effect.note))
    return source_map.with_claims(claims)


__all__ = ["ClaimEffect", "claim_effects", "current_threads", "pack_effects", "preview", "with_disputes"]
