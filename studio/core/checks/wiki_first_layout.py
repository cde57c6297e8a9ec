"""V25 ``wiki-first-without-wiki``: a wiki-first pack (declared or implied) with neither wiki/ nor compiled/
can only offer its guide."""

from __future__ import annotations

from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity

WIKI_FIRST_WITHOUT_WIKI = Code("wiki-first-without-wiki", Severity.WARNING,
                               "a wiki-first pack has neither wiki/ nor compiled/: only the guide can load",
                               Behavior.LOAD_WITH_WARNING, "V25",
                               hint="Add wiki/ pages or compiled/ views, or declare the profile that fits.")
CODES = (WIKI_FIRST_WITHOUT_WIKI,)


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    if ctx.fm is None or ctx.pack.effective_profile != "wiki-first":
        return
    if not ctx.has_dir("wiki") and not ctx.has_dir("compiled"):
        implied = " (implied)" if ctx.pack.profile_is_implied else ""
        yield ctx.at(WIKI_FIRST_WITHOUT_WIKI, f"profile is wiki-first{implied} but there is no wiki/ or compiled/ "
                     "directory; only the guide can be loaded", "profile")
