"""V46 ``produced-by`` and V47 ``produced-by-unknown-kind``: Builder Skill provenance is shown as data.

The studio never runs, installs or looks up the named Skill. Known kinds: agent-skill (all examples) and the
adding-support interface's skill, tool, manual, import.
"""

from __future__ import annotations

from collections.abc import Iterator

from studio.core.checks._context import CheckContext
from studio.core.diagnostics import Diagnostic, Severity

KNOWN_KINDS = ("agent-skill", "skill", "tool", "manual", "import")


def check(ctx: CheckContext) -> Iterator[Diagnostic]:
    produced = ctx.value("metadata", "producedBy")
    if produced is None:
        return
    if not isinstance(produced, dict):
        yield ctx.at("produced-by", Severity.WARNING, "metadata.producedBy should be a mapping "
                     "(kind, name, version, digest)", "metadata", "producedBy", rule="V46")
        return
    label = " ".join(str(produced[k]) for k in ("name", "version") if produced.get(k))
    yield ctx.at("produced-by", Severity.INFO,
                 f"Produced by {produced.get('kind', 'unknown kind')} '{label or '?'}' (shown as data; never run)",
                 "metadata", "producedBy", rule="V46", on_value=False,
                 hint="Provenance is informational; the studio does not run or fetch Builder Skills.")
    kind = produced.get("kind")
    if kind is not None and kind not in KNOWN_KINDS:
        yield ctx.at("produced-by-unknown-kind", Severity.INFO,
                     f"metadata.producedBy.kind '{kind}' is not one of {', '.join(KNOWN_KINDS)}",
                     "metadata", "producedBy", "kind", rule="V47", hint="Displayed as written.")
