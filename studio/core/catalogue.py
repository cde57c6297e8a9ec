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
    # Reading and parsing KNOWLEDGE.md
    "studio.core.paths",
    "studio.core.frontmatter",
    "studio.core.pack",
    # Frontmatter and layout checks, in registry order
    "studio.core.checks.required_name",
    "studio.core.checks.name_format",
    "studio.core.checks.name_matches_directory",
    "studio.core.checks.required_description",
    "studio.core.checks.description_length",
    "studio.core.checks.required_type",
    "studio.core.checks.type_value",
    "studio.core.checks.required_status",
    "studio.core.checks.status_gate",
    "studio.core.checks.profile_value",
    "studio.core.checks.runtime_mode",
    "studio.core.checks.metadata_shape",
    "studio.core.checks.document_first_layout",
    "studio.core.checks.primary_pointers",
    "studio.core.checks.hybrid_primary",
    "studio.core.checks.wiki_first_layout",
    "studio.core.checks.persona_boundaries",
    "studio.core.checks.ontology_layout",
    "studio.core.checks.answers_layout",
    "studio.core.checks.enum_fields",
    "studio.core.checks.compatibility_length",
    "studio.core.checks.updated_date",
    "studio.core.checks.version_semver",
    "studio.core.checks.produced_by",
    "studio.core.checks.unknown_keys",
    "studio.core.checks.scripts_in_pack",
    "studio.core.checks.context_map",
    # Content checks
    "studio.core.checks.ontology_json",
    "studio.core.checks.answers_json",
    "studio.core.checks.index_json",
    "studio.core.checks.source_map_schema",
    "studio.core.checks.executable_files",
    "studio.core.checks.injection_text",
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
