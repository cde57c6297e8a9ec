"""V50-V54: status-aware loading. draft asks first, needs-review and stale warn, disputed needs explicit
confirmation, archived is hidden from the catalog. Never silently treated as ready."""

from __future__ import annotations

from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity

STATUS_DRAFT = Code("status-draft", Severity.INFO, "status is draft: a client asks the user before using the pack",
                    Behavior.REQUIRE_CONFIRMATION, "V50", hint="Review the pack, then set status: ready.")
STATUS_NEEDS_REVIEW = Code("status-needs-review", Severity.WARNING,
                           "status is needs-review: usable, but every use carries a warning",
                           Behavior.LOAD_WITH_WARNING, "V51",
                           hint="Review it and record the decision (pack-studio review).")
STATUS_STALE = Code("status-stale", Severity.WARNING,
                    "status is stale: clients prefer newer alternatives and warn when it is used",
                    Behavior.LOAD_WITH_WARNING, "V52", hint="Refresh the content, then set status: ready.")
STATUS_DISPUTED = Code("status-disputed", Severity.WARNING,
                       "status is disputed: explicit user confirmation is required before use",
                       Behavior.REQUIRE_CONFIRMATION, "V53", hint="Resolve the dispute and record a review decision.")
STATUS_ARCHIVED = Code("status-archived", Severity.INFO, "status is archived: hidden from the model catalog",
                       Behavior.HIDDEN, "V54", hint="Set another status to make it available again.")
CODES = (STATUS_DRAFT, STATUS_NEEDS_REVIEW, STATUS_STALE, STATUS_DISPUTED, STATUS_ARCHIVED)

GATES = {
    "draft": (STATUS_DRAFT, "Draft pack: a client asks the user before using it"),
    "needs-review": (STATUS_NEEDS_REVIEW, "Pack needs review: usable, but every use carries a warning"),
    "stale": (STATUS_STALE, "Stale pack: clients prefer newer alternatives and warn when it is used"),
    "disputed": (STATUS_DISPUTED, "Disputed pack: explicit user confirmation is required before use"),
    "archived": (STATUS_ARCHIVED, "Archived pack: hidden from the model catalog, shown only in diagnostics"),
}


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    gate = GATES.get(str(ctx.value("status")))
    if gate is None:
        return
    code, message = gate
    yield ctx.at(code, message, "status")
