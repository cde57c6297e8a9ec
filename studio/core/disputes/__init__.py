"""Claim-level disputes: threads per claim rebuilt from ``runs/dispute-*.json`` records, and their effect.

``claims`` lists the claims a dispute can be about (source map and ``ontology/claims.json``), ``model`` is one
step as a value, ``threads`` rebuilds the conversation from the records, ``effect`` says what an open or decided
dispute changes (claim statuses for the resolver, files for ``validate``). Checking and writing a step, and the
before/after fences, are ``studio.core.dispute_actions`` (they need the evidence reader and the resolver, which
sit on higher floors).
"""

from __future__ import annotations

from studio.core.disputes.claims import Claim, ClaimIndex, read_claims
from studio.core.disputes.effect import ClaimEffect, claim_effects, current_threads, pack_effects, with_disputes
from studio.core.disputes.model import DECISIONS, STEPS, DisputeError, DisputeStep, Evidence, UnknownClaim
from studio.core.disputes.threads import Thread, Threads, build_threads, load_threads

__all__ = ["DECISIONS", "STEPS", "Claim", "ClaimEffect", "ClaimIndex", "DisputeError", "DisputeStep", "Evidence",
           "Thread", "Threads", "UnknownClaim", "build_threads", "claim_effects", "current_threads",
           "load_threads", "pack_effects", "read_claims", "with_disputes"]
