"""V19 ``invalid-runtime-mode``: ``runtime`` must be a mapping and ``runtime.mode`` data or persona."""

from __future__ import annotations

from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Diagnostic, Severity
from studio.core.model import RUNTIME_MODES


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    if not ctx.has("runtime"):
        return
    runtime = ctx.value("runtime")
    if not isinstance(runtime, dict):
        yield ctx.at("invalid-runtime-mode", Severity.WARNING,
                     "'runtime' must be a mapping such as 'runtime: {mode: data}'; treated as data mode",
                     "runtime", rule="V19", behavior=Behavior.LOAD_WITH_WARNING,
                     hint="Write 'runtime: {mode: data}'.")
    elif "mode" in runtime and runtime["mode"] not in RUNTIME_MODES:
        yield ctx.at("invalid-runtime-mode", Severity.WARNING,
                     f"'runtime.mode: {runtime['mode']}' is not data or persona; treated as data",
                     "runtime", "mode", rule="V19", behavior=Behavior.LOAD_WITH_WARNING,
                     hint="Use 'mode: data' or 'mode: persona'.")
