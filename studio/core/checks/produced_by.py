"""V46 ``produced-by`` and V47 ``produced-by-unknown-kind``: Builder Skill provenance is shown as data.

The studio never runs, installs or looks up the named Skill. Known kinds: agent-skill (all examples) and the
adding-support interface's skill, tool, manual, import.
"""

from __future__ import annotations

from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity

PRODUCED_BY = Code("produced-by", Severity.INFO,
                   "metadata.producedBy names the tool or Skill that built the pack (shown as data, never run)",
                   Behavior.LOAD, "V46",
                   hint="Provenance is informational; the studio does not run or fetch Builder Skills.")
PRODUCED_BY_NOT_MAPPING = Code("produced-by-not-mapping", Severity.WARNING,
                               "metadata.producedBy is not a mapping of kind, name, version and digest",
                               Behavior.LOAD, "V46", hint="Write producedBy as indented 'key: value' lines.")
PRODUCED_BY_UNKNOWN_KIND = Code("produced-by-unknown-kind", Severity.INFO,
                                "metadata.producedBy.kind is not one of the kinds the standard uses", Behavior.LOAD,
                                "V47", hint="Displayed as written.")
CODES = (PRODUCED_BY, PRODUCED_BY_NOT_MAPPING, PRODUCED_BY_UNKNOWN_KIND)

KNOWN_KINDS = ("agent-skill", "skill", "tool", "manual", "import")


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    produced = ctx.value("metadata", "producedBy")
    if produced is None:
        return
    if not isinstance(produced, dict):
        yield ctx.at(PRODUCED_BY_NOT_MAPPING, "metadata.producedBy should be a mapping (kind, name, version, digest)",
                     "metadata", "producedBy")
        return
    label = " ".join(str(produced[k]) for k in ("name", "version") if produced.get(k))
    yield ctx.at(PRODUCED_BY,
                 f"Produced by {produced.get('kind', 'unknown kind')} '{label or '?'}' (shown as data; never run)",
                 "metadata", "producedBy",
                 hint="Provenance is informational; the studio does not run or fetch Builder Skills.",
                 severity=Severity.INFO, on_value=False)
    kind = produced.get("kind")
    if kind is not None and kind not in KNOWN_KINDS:
        yield ctx.at(PRODUCED_BY_UNKNOWN_KIND,
                     f"metadata.producedBy.kind '{kind}' is not one of {', '.join(KNOWN_KINDS)}", "metadata",
                     "producedBy", "kind")
