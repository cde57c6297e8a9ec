"""The catalogue of every diagnostic code the studio can emit, gathered from the modules that declare them.

Each module that makes findings declares its codes in a module-level ``CODES`` tuple of ``Code`` values. The
checks are listed once, by their registry (``studio.core.checks``); the other modules in ``READERS`` and ``OTHERS``
below (a test fails for a module that declares codes without being listed, and for any emitted code missing from
the catalogue). ``pack-studio rules`` prints the catalogue; the README's rules
section and SARIF's ``tool.driver.rules`` are generated from it.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache

from studio.core.checks import check_module_names
from studio.core.diagnostics import Code

READERS: tuple[str, ...] = (
    # Reading and parsing KNOWLEDGE.md
    "studio.core.paths",
    "studio.core.frontmatter",
    "studio.core.pack",
)
"""Modules listed before the checks: what reads the pack before any check runs."""
OTHERS: tuple[str, ...] = (
    # The pack's folder tree (links, hard links, walk limits), from every walk of a pack
    "studio.core.tree_findings",
    # Discovery and the workspace
    "studio.core.scan",
    "studio.core.workspace",
    "studio.core.pack_loader",
    "studio.core.result_cache",
    "studio.core.shadowing",
    "studio.core.lookalike",
    # runs/, evidence and provenance
    "studio.core.jsonread",
    "studio.core.runs.reader",
    "studio.core.runs.schemas",
    "studio.core.sourcemap",
    "studio.core.evidence.report",
    "studio.core.provenance",
    "studio.core.feedback.aggregate",
    "studio.core.evals.suites",
    "studio.core.resources",
    "studio.core.search.store",
    "studio.core.search.compressed",
    # The resolver's warnings
    "studio.core.resolver.warning_codes",
)
"""Modules listed after the checks: discovery, the workspace, records and the other readers."""


@cache
def emitters() -> tuple[str, ...]:
    """Modules that declare ``CODES``, in the order the catalogue lists them: the readers, then every check of the
    registry (``studio.core.checks``, in its order) that declares codes of its own, then the others. A check that
    only re-emits other modules' codes (``pack_tree``, ``run_records``) is left out."""
    checks = tuple(name for name in check_module_names() if getattr(importlib.import_module(name), "CODES", ()))
    return (*READERS, *checks, *OTHERS)


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
    for name in emitters():
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
