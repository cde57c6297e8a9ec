"""V26 ``persona-without-boundaries``: a persona pack needs boundary guidance.

Studio heuristic (the standard gives none): a heading in the guide that mentions boundaries, taboos,
limits or "do not" (English or Chinese), or a ``compiled/boundaries.md`` view.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity

PERSONA_WITHOUT_BOUNDARIES = Code(
    "persona-without-boundaries", Severity.WARNING,
    "a persona pack gives no boundary guidance (no boundaries section, no compiled/boundaries.md)",
    Behavior.LOAD_WITH_WARNING, "V26",
    hint="Add a '## Runtime boundaries' section or compiled/boundaries.md: what the persona must never say or claim.")
CODES = (PERSONA_WITHOUT_BOUNDARIES,)

BOUNDARY_HEADING = re.compile(
    r"^#{1,6}\s.*(boundar|taboo|limits|do not|don't|never|边界|禁忌|红线|不要|禁止)",
    re.IGNORECASE | re.MULTILINE,
)


def guide_has_boundaries(body: str) -> bool:
    """Whether a guide body has a boundaries section: the one notion shared by this check and the resolver's
    persona warning (which needs to know whether the guide it loaded carries the boundaries)."""
    return bool(BOUNDARY_HEADING.search(body))


def has_boundary_guidance(ctx: CheckContext) -> bool:
    # Looked at through the pack's descriptors: a boundaries view linked out of the pack is no guidance.
    return guide_has_boundaries(ctx.pack.body) or ctx.fs.exists("compiled/boundaries.md")


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    if ctx.value("runtime", "mode") != "persona" or has_boundary_guidance(ctx):
        return
    yield ctx.at(PERSONA_WITHOUT_BOUNDARIES,
                 "Persona pack without boundary guidance (no boundaries/taboos section, no compiled/boundaries.md)",
                 "runtime", "mode")
