"""The check registry: one module per rule, each exposing ``check(ctx) -> Iterable[Diagnostic]``.

The module docstring of each check is its user documentation (``pack-studio rules`` prints it).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from functools import cache
from types import ModuleType

from studio.core.checks import (
    answers_layout,
    compatibility_length,
    description_length,
    document_first_layout,
    enum_fields,
    hybrid_primary,
    metadata_shape,
    name_format,
    name_matches_directory,
    ontology_layout,
    persona_boundaries,
    primary_pointers,
    produced_by,
    profile_value,
    required_description,
    required_name,
    required_status,
    required_type,
    runtime_mode,
    scripts_in_pack,
    status_gate,
    type_value,
    unknown_keys,
    updated_date,
    version_semver,
    wiki_first_layout,
)
from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Diagnostic

Check = Callable[[CheckContext], Iterable[Diagnostic]]

# Registry order is the order findings are produced in (they are sorted by position afterwards).
CHECK_MODULES: list[ModuleType] = [
    required_name,
    name_format,
    name_matches_directory,
    required_description,
    description_length,
    required_type,
    type_value,
    required_status,
    status_gate,
    profile_value,
    runtime_mode,
    metadata_shape,
    document_first_layout,
    primary_pointers,
    hybrid_primary,
    wiki_first_layout,
    persona_boundaries,
    ontology_layout,
    answers_layout,
    enum_fields,
    compatibility_length,
    updated_date,
    version_semver,
    produced_by,
    unknown_keys,
    scripts_in_pack,
]
ALL_CHECKS: list[Check] = [m.check for m in CHECK_MODULES]

# Content checks read beyond KNOWLEDGE.md and the pack's layout: ontology/ and answers/ JSON, source maps
# and eval suites (JSON syntax and shape), runs/ records, the modes and links the shared walk of the pack saw,
# every text file for injection, the files the guide's context map names. They run in every validation (the
# CLI, CI and the app alike); only ``validate --fast`` leaves them out.
# Imported on first use: they pull in the fence escaper, RE2 and jsonschema (~150 ms), which a
# ``validate --fast`` run and every command that loads one pack would otherwise pay for nothing.
CONTENT_CHECK_NAMES = (
    "context_map", "ontology_json", "answers_json", "index_json", "source_map_schema", "run_records",
    "executable_files", "pack_tree", "injection_text", "claim_disputes",
)


def check_module_names() -> tuple[str, ...]:
    """Every check's module, in registry order: the catalogue (``studio.core.catalogue``) lists the codes of the
    checks in this order, so the registry above is the one list of checks. Names only: nothing is imported."""
    return (*(m.__name__ for m in CHECK_MODULES), *(f"{__name__}.{name}" for name in CONTENT_CHECK_NAMES))


@cache
def content_check_modules() -> tuple[ModuleType, ...]:
    return tuple(importlib.import_module(f"{__name__}.{name}") for name in CONTENT_CHECK_NAMES)


def content_checks() -> list[Check]:
    return [m.check for m in content_check_modules()]


__all__ = ["ALL_CHECKS", "CHECK_MODULES", "CONTENT_CHECK_NAMES", "Check", "CheckContext", "check_module_names",
           "content_check_modules", "content_checks"]
