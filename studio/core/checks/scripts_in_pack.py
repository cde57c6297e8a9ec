"""V49 ``scripts-in-pack``: a scripts/ directory; scripts are outside the protocol and the studio never runs them.

Executable files anywhere in the pack are the content check ``executable_files``.
"""

from __future__ import annotations

from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity

SCRIPTS_IN_PACK = Code("scripts-in-pack", Severity.WARNING,
                       "the pack has a scripts/ folder: scripts are outside the protocol and never run", Behavior.LOAD,
                       "V49", hint="Move maintenance scripts into a Skill or CI.")
CODES = (SCRIPTS_IN_PACK,)


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    if ctx.has_dir("scripts"):
        yield SCRIPTS_IN_PACK("The pack has a scripts/ directory; scripts are outside the protocol and never run",
                              "scripts")
