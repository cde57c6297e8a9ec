"""Claim disputes recorded in ``runs/dispute-*.json`` (``pack-studio dispute``), and what their decisions ask for.

``claim-dispute-open`` (warning): a claim has an open dispute; every file carrying it enters context only with a
warning naming the claim until someone decides (keep, amend or retract). One finding per claim, at the first
record of its thread.
``claim-amended-not-recompiled`` (warning): the claim was amended, but this file (listed by the source map, or by
the ontology claim's ``compiledInto``) still carries the old text; recompile so the map holds the new one.
``claim-retracted-still-compiled`` (error): the claim was retracted, but this file still carries it; recompile
without it. Until then the resolver warns wherever the claim's text would enter context.
Malformed dispute records are ``run-*`` findings (``run_records``).
"""

from __future__ import annotations

from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity
from studio.core.disputes.effect import pack_effects

CLAIM_DISPUTE_OPEN = Code("claim-dispute-open", Severity.WARNING,
                          "a claim has an open dispute: files carrying it enter context only with a warning",
                          Behavior.LOAD_WITH_WARNING, "V65",
                          hint="Discuss and decide it: pack-studio dispute decide PACK --claim ID --decision "
                          "keep|amend|retract --reason TEXT.")
CLAIM_AMENDED_NOT_RECOMPILED = Code("claim-amended-not-recompiled", Severity.WARNING,
                                    "a file still carries the old text of an amended claim",
                                    Behavior.LOAD_WITH_WARNING, "V65",
                                    hint="Recompile the file from the amended claim and update the source map.")
CLAIM_RETRACTED_STILL_COMPILED = Code("claim-retracted-still-compiled", Severity.ERROR,
                                      "a file still carries a claim that was retracted",
                                      Behavior.LOAD_WITH_WARNING, "V65",
                                      hint="Recompile without the claim and remove it from the source map.")
CODES = (CLAIM_DISPUTE_OPEN, CLAIM_AMENDED_NOT_RECOMPILED, CLAIM_RETRACTED_STILL_COMPILED)


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    for effect in pack_effects(ctx.pack.root, ctx.fs):
        claim = effect.claim.claim_id
        if effect.status == "disputed":
            where = effect.thread.records[0] if effect.thread.records else "runs/"
            yield CLAIM_DISPUTE_OPEN(f"Claim {claim} has an open dispute since {effect.thread.opened} "
                                     f"({len(effect.thread.steps)} position(s)); {len(effect.files)} file(s) carry "
                                     "it", where)
            continue
        code = CLAIM_RETRACTED_STILL_COMPILED if effect.status == "retracted" else CLAIM_AMENDED_NOT_RECOMPILED
        verb = "retracted" if effect.status == "retracted" else "amended (the file has the old text)"
        for target in dict.fromkeys(f.split("#", 1)[0] for f in effect.files):
            yield code(f"{target} still carries claim {claim}, {verb} on {effect.thread.decided}", target)
