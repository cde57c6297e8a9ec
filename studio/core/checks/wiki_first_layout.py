"""V25 ``wiki-first-without-wiki``: a wiki-first pack (declared or implied) with neither wiki/ nor compiled/
can only offer its guide."""

from __future__ import annotations

from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Diagnostic, Severity


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    if ctx.fm is None or ctx.pack.effective_profile != "wiki-first":
        return
    if not ctx.has_dir("wiki") and not ctx.has_dir("compiled"):
        implied = " (implied)" if ctx.pack.profile_is_implied else ""
        yield ctx.at("wiki-first-without-wiki", Severity.WARNING,
                     f"profile is wiki-first{implied} but there is no wiki/ or compiled/ directory; "
                     "only the guide can be loaded", "profile", rule="V25",
                     behavior=Behavior.LOAD_WITH_WARNING,
                     hint="Add wiki/ pages or compiled/ views, or declare the profile that fits.")
