"""The check registry: one module per rule, each exposing ``check(ctx) -> Iterable[Diagnostic]``.

The module docstring of each check is its user documentation (``pack-studio rules`` prints it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from types import ModuleType

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Diagnostic

Check = Callable[[CheckContext], Iterable[Diagnostic]]

CHECK_MODULES: list[ModuleType] = []
ALL_CHECKS: list[Check] = [m.check for m in CHECK_MODULES]

__all__ = ["ALL_CHECKS", "CHECK_MODULES", "Check", "CheckContext"]
