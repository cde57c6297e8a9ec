"""The resolver's warnings (digest 6.7), declared as catalogue codes like every other finding.

A resolve says why a pack was gated, what to be careful with in what it selected, and what it left out. Each
warning carries one of these codes (``ResolveWarning.code``; ``pack-studio resolve --format json`` prints it), so
a tool can tell them apart without reading the message, and ``pack-studio rules CODE`` explains one. The
records written into ``runs/`` keep the standard's ``{severity, message, path}`` shape, which has no code.
"""

from __future__ import annotations

from studio.core.diagnostics import Code, Severity

PACK_NOT_LOADABLE = Code("resolve-pack-not-loadable", Severity.ERROR,
                         "the pack is skipped or quarantined by validation, so nothing was selected from it",
                         hint="Fix the pack's validation errors first.")
PACK_ARCHIVED = Code("resolve-pack-archived", Severity.WARNING, "the pack's status is archived: it was excluded",
                     hint="Change the status to load it.")
PACK_DISPUTED = Code("resolve-pack-disputed", Severity.ERROR,
                     "the pack's status is disputed: not loaded without explicit confirmation",
                     hint="Confirm the pack (--confirm NAME, or the app's checkbox) to load it.")
PACK_DISPUTED_CONFIRMED = Code("resolve-pack-disputed-confirmed", Severity.WARNING,
                               "a disputed pack was loaded because it was confirmed: verify its claims before use")
PACK_STATUS = Code("resolve-pack-status", Severity.WARNING,
                   "the pack's status is draft, needs-review or stale: its content may not be settled")
PACK_NO_STATUS = Code("resolve-pack-no-status", Severity.WARNING,
                      "the pack declares no status: treat it as unreviewed")
PACK_UNREVIEWED = Code("resolve-pack-unreviewed", Severity.WARNING,
                       "the pack's trust is unreviewed: nobody has checked its content")
NO_PRIMARY_DOCUMENT = Code("resolve-no-primary-document", Severity.WARNING,
                           "a document-first pack has no usable metadata.primaryDocument: compiled/ is used instead")
PRIMARY_DOCUMENT_MISSING = Code("resolve-primary-document-missing", Severity.WARNING,
                                "the file metadata.primaryDocument names does not exist")
SOURCE_MAP_UNUSABLE = Code("resolve-source-map-unusable", Severity.WARNING,
                           "the pack's source map cannot be used, so no selected item has source anchors")
RISKY_CLAIM = Code("resolve-risky-claim", Severity.WARNING,
                   "a selected item carries a claim the source map marks as disputed, stale, missing or unsourced")
UNANCHORED_ITEMS = Code("resolve-unanchored-items", Severity.INFO,
                        "selected items have no source anchors while the pack recommends grounding")
UNSETTLED_ANSWER = Code("resolve-unsettled-answer", Severity.WARNING,
                        "a selected answer's block is not verified or not approved: it may not be presented as settled",
                        hint="Review the answer block (evidenceStatus verified, reviewStatus approved).")
FLAGGED_COMPILE = Code("resolve-flagged-compile", Severity.WARNING,
                       "a selected file was written by a compile run that did not pass: review it first")
EVIDENCE_SOURCES = Code("resolve-evidence-sources", Severity.INFO,
                        "the task asks for evidence, so the anchors in sources/ were considered")
EVIDENCE_WITHOUT_SOURCES = Code("resolve-evidence-without-sources", Severity.WARNING,
                                "the task asks for evidence, but the pack has no sources/ to cite")
PERSONA_WITHOUT_BOUNDARIES = Code("resolve-persona-without-boundaries", Severity.WARNING,
                                  "persona context was selected without any boundaries or taboos beside it")
OVER_BUDGET = Code("resolve-over-budget", Severity.INFO, "items were left out to stay within the token budget",
                   hint="Raise the budget, or narrow the task.")
DUPLICATE_LOADED_ONCE = Code("resolve-duplicate-loaded-once", Severity.INFO,
                             "an item carrying the same statements as one already loaded was left out: loaded once",
                             hint="Keep one copy of the rules, or let one file point at the other.")
NOTHING_SELECTED = Code("resolve-nothing-selected", Severity.WARNING, "nothing was selected: the fence is empty")
TOKENIZER_UNAVAILABLE = Code("resolve-tokenizer-unavailable", Severity.ERROR,
                             "no selection was made: the tokenizer is unavailable or failed, and the studio does not "
                             "guess token counts")
CODES = (PACK_NOT_LOADABLE, PACK_ARCHIVED, PACK_DISPUTED, PACK_DISPUTED_CONFIRMED, PACK_STATUS, PACK_NO_STATUS,
         PACK_UNREVIEWED, NO_PRIMARY_DOCUMENT, PRIMARY_DOCUMENT_MISSING, SOURCE_MAP_UNUSABLE, RISKY_CLAIM,
         UNANCHORED_ITEMS, UNSETTLED_ANSWER, FLAGGED_COMPILE, EVIDENCE_SOURCES, EVIDENCE_WITHOUT_SOURCES,
         PERSONA_WITHOUT_BOUNDARIES, OVER_BUDGET, DUPLICATE_LOADED_ONCE, NOTHING_SELECTED, TOKENIZER_UNAVAILABLE)
