"""Acting on claim disputes: checking and writing a step (``steps``) and the before/after fences (``preview``).

Above ``studio.core.disputes`` (which the resolver and the checks read) because it needs the evidence reader
for excerpts and the resolver for fences.
"""

from __future__ import annotations

from studio.core.dispute_actions.preview import FencePair, decision_fences
from studio.core.dispute_actions.steps import (
    check_against_thread,
    make_step,
    parse_evidence,
    prepare_step,
    read_evidence,
    write_step,
)

__all__ = ["FencePair", "check_against_thread", "decision_fences", "make_step", "parse_evidence", "prepare_step",
           "read_evidence", "write_step"]
