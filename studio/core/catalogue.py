"""The catalogue of every diagnostic code the studio can emit, gathered from the modules that declare them.

Each module that makes findings declares its codes in a module-level ``CODES`` tuple of ``Code`` values and is
listed in ``EMITTERS`` below (a test fails for a module that declares codes without being listed, and for any
emitted code missing from the catalogue). ``pack-studio rules`` prints the catalogue; the README's rules
section and SARIF's ``tool.driver.rules`` are generated from it.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache

from studio.core.diagnostics import Code

EMITTERS: tuple[str, ...] = (
    "studio.core.paths",
    "studio.core.search.store",
    "studio.core.search.compressed",
)
"""Modules that declare ``CODES``, in the order the catalogue lists them."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One catalogue row: a declared code and the module that emits it."""

    code: Code
    module: str
    """Dotted name of the declaring module (its docstring explains the rule in full)."""


@cache
def catalogue() -> tuple[Entry, ...]:
    """Every declared code, once; raises ``ValueError`` when two modules declare the same code."""
    seen: dict[str, str] = {}
    out: list[Entry] = []
    for name in EMITTERS:
        module = importlib.import_module(name)
        for code in getattr(module, "CODES", ()):
            if code.code in seen:
                raise ValueError(f"code {code.code!r} is declared by both {seen[code.code]} and {name}")
            seen[code.code] = name
            out.append(Entry(code, name))
    return tuple(out)


def lookup(code: str) -> Entry | None:
    """The catalogue entry for ``code``, or None for a code nobody declared."""
    return _by_code().get(code)


@cache
def _by_code() -> dict[str, Entry]:
    return {entry.code.code: entry for entry in catalogue()}
