"""Shared by the layout checks of the ontology and answers surfaces: the folder and its manifest pointer agree."""

from __future__ import annotations

from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Code, Diagnostic


def surface_pointer_findings(ctx: CheckContext, folder: str, key: str, without_pointer: Code,
                             pointer_without_folder: Code) -> Iterator[Diagnostic]:
    """``without_pointer`` when ``folder/`` exists but ``metadata.<key>`` is not set; ``pointer_without_folder``
    when the pointer is set but the folder is missing."""
    has_folder = ctx.has_dir(folder)
    has_pointer = ctx.has("metadata", key)
    if has_folder and not has_pointer:
        yield ctx.at(without_pointer, f"{folder}/ exists but metadata.{key} is not set", "metadata")
    if has_pointer and not has_folder:
        yield ctx.at(pointer_without_folder, f"metadata.{key} is set but there is no {folder}/ directory", "metadata",
                     key)
