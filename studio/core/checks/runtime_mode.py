"""V19 ``invalid-runtime-mode``: ``runtime`` must be a mapping and ``runtime.mode`` data or persona."""

from __future__ import annotations

from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity
from studio.core.model import RUNTIME_MODES

INVALID_RUNTIME_MODE = Code("invalid-runtime-mode", Severity.WARNING,
                            "'runtime' is not a mapping, or 'runtime.mode' is not data or persona: data is used",
                            Behavior.LOAD_WITH_WARNING, "V19", hint="Write 'runtime: {mode: data}'.")
CODES = (INVALID_RUNTIME_MODE,)


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    if not ctx.has("runtime"):
        return
    runtime = ctx.value("runtime")
    if not isinstance(runtime, dict):
        yield ctx.at(INVALID_RUNTIME_MODE,
                     "'runtime' must be a mapping such as 'runtime: {mode: data}'; treated as data mode", "runtime")
    elif "mode" in runtime and runtime["mode"] not in RUNTIME_MODES:
        yield ctx.at(INVALID_RUNTIME_MODE, f"'runtime.mode: {runtime['mode']}' is not data or persona; treated as data",
                     "runtime", "mode", hint="Use 'mode: data' or 'mode: persona'.")
