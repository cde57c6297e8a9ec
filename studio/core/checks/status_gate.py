"""V50-V54: status-aware loading. draft asks first, needs-review and stale warn, disputed needs explicit
confirmation, archived is hidden from the catalog. Never silently treated as ready."""

from __future__ import annotations

from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Diagnostic, Severity

GATES = {
    "draft": ("status-draft", "V50", Severity.INFO, Behavior.REQUIRE_CONFIRMATION,
              "Draft pack: a client asks the user before using it", "Review the pack, then set status: ready."),
    "needs-review": ("status-needs-review", "V51", Severity.WARNING, Behavior.LOAD_WITH_WARNING,
                     "Pack needs review: usable, but every use carries a warning",
                     "Review it and record the decision (pack-studio review)."),
    "stale": ("status-stale", "V52", Severity.WARNING, Behavior.LOAD_WITH_WARNING,
              "Stale pack: clients prefer newer alternatives and warn when it is used",
              "Refresh the content, then set status: ready."),
    "disputed": ("status-disputed", "V53", Severity.WARNING, Behavior.REQUIRE_CONFIRMATION,
                 "Disputed pack: explicit user confirmation is required before use",
                 "Resolve the dispute and record a review decision."),
    "archived": ("status-archived", "V54", Severity.INFO, Behavior.HIDDEN,
                 "Archived pack: hidden from the model catalog, shown only in diagnostics",
                 "Set another status to make it available again."),
}


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    gate = GATES.get(str(ctx.value("status")))
    if gate is None:
        return
    code, rule, severity, behavior, message, hint = gate
    yield ctx.at(code, severity, message, "status", rule=rule, behavior=behavior, hint=hint)
