"""Builder Skill provenance as data: ``metadata.producedBy`` beside the compile runs' ``builder_skill``.

Provenance is shown, never acted on: the studio never runs, installs, looks up or fetches a Builder
Skill, and never verifies a digest against any registry (the standard defines none; digest 8).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from studio.core.checks.produced_by import PRODUCED_BY_UNKNOWN_KIND
from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity
from studio.core.model import Pack
from studio.core.runs.model import RunKind, RunsReport

PROVENANCE_MISMATCH = Code("provenance-mismatch", Severity.WARNING,
                           "metadata.producedBy disagrees with the builder recorded by the latest compile run",
                           Behavior.LOAD, "",
                           hint="Update producedBy after a rebuild, or re-run the compile with the declared builder.")
CODES = (PROVENANCE_MISMATCH,)

NEVER_EXECUTED = (
    "Provenance is shown as data only. Knowledge Pack Studio never runs, installs or fetches a Builder "
    "Skill, and it does not verify digests: the standard defines no registry to check them against."
)
KNOWN_KINDS = ("agent-skill", "skill", "tool", "manual", "import")
_COMPARED = ("name", "version", "digest")


@dataclass(frozen=True, slots=True)
class BuilderRef:
    """Who produced an artifact, as one file states it. Every field is the text found, or None."""

    origin: str
    """Where it was read: ``KNOWLEDGE.md`` or a run record path."""
    kind: str | None = None
    name: str | None = None
    version: str | None = None
    digest: str | None = None
    source: str | None = None
    """Only compile runs carry it; shown verbatim and never opened."""
    compile_run: bool = False
    """True when read from a compile run's ``builder_skill`` (the record the consistency check uses)."""

    def to_dict(self) -> dict[str, str | bool | None]:
        return {"origin": self.origin, "kind": self.kind, "name": self.name, "version": self.version,
                "digest": self.digest, "source": self.source, "compile_run": self.compile_run}


@dataclass(slots=True)
class ProvenanceReport:
    """Declared provenance, what the runs recorded, and where the two disagree."""

    produced_by: BuilderRef | None
    run_builders: list[BuilderRef] = field(default_factory=list)
    """``builder_skill`` of each compile run (and context record), oldest first."""
    diagnostics: list[Diagnostic] = field(default_factory=list)
    statement: str = NEVER_EXECUTED

    @property
    def latest_compile(self) -> BuilderRef | None:
        compiles = [b for b in self.run_builders if b.compile_run]
        return compiles[-1] if compiles else None

    @property
    def consistency(self) -> str:
        """One sentence on how ``producedBy`` compares with the latest compile run, including when it cannot be
        compared (no compile run, no declaration, no field in common) instead of claiming agreement."""
        declared, latest = self.produced_by, self.latest_compile
        mismatches = [d for d in self.diagnostics if d.code == PROVENANCE_MISMATCH.code]
        if declared is None and not self.run_builders:
            return "No producedBy and no builder_skill recorded: hand-authored packs are valid too."
        if declared is None:
            return ("No producedBy declared; nothing to compare the recorded builder_skill with." if latest is None
                    else f"No producedBy declared; the latest compile run ({latest.origin}) records builder "
                    f"{latest.name or '(unnamed)'}.")
        if latest is None:
            return ("Nothing to compare producedBy with: no compile run records a builder_skill "
                    "(context records are not compared).")
        if mismatches:
            return (f"producedBy disagrees with the latest compile run ({latest.origin}) on "
                    f"{len(mismatches)} field(s); see below.")
        shared = [key for key in _COMPARED if getattr(declared, key) is not None and getattr(latest, key) is not None]
        if not shared:
            return (f"producedBy and the latest compile run ({latest.origin}) state no field in common "
                    f"({', '.join(_COMPARED)}); nothing was compared.")
        return f"producedBy agrees with the latest compile run ({latest.origin}) on {', '.join(shared)}."

    def to_dict(self) -> dict[str, Any]:
        return {
            "produced_by": self.produced_by.to_dict() if self.produced_by else None,
            "run_builders": [b.to_dict() for b in self.run_builders],
            "diagnostics": [d.to_dict() for d in self.diagnostics],
            "consistency": self.consistency,
            "statement": self.statement,
        }


def _text(value: Any) -> str | None:
    if value is None or isinstance(value, dict | list):
        return None
    text = str(value).strip()
    return text or None


def _ref(origin: str, data: Any, compile_run: bool = False) -> BuilderRef | None:
    if not isinstance(data, dict):
        return None
    return BuilderRef(origin, _text(data.get("kind")), _text(data.get("name")), _text(data.get("version")),
                      _text(data.get("digest")), _text(data.get("source")), compile_run)


def read_provenance(pack: Pack, runs: RunsReport) -> ProvenanceReport:
    """Collect provenance from the pack's frontmatter and its run records, and compare them.

    The latest compile run's ``builder_skill`` is checked against ``metadata.producedBy``: a different
    name, version or digest is a warning (older runs may legitimately have used older builders).
    """
    report = ProvenanceReport(_ref("KNOWLEDGE.md", pack.produced_by))
    for record in runs.records:
        data = record.data if isinstance(record.data, dict) else {}
        if record.kind is RunKind.COMPILE_RUN and (ref := _ref(record.path, data.get("builder_skill"), True)):
            report.run_builders.append(ref)
        elif record.kind is RunKind.CONTEXT_RESOLUTION:
            entries = data.get("activated_packs")
            entries = entries if isinstance(entries, list) else []  # an invalid record is still read, never trusted
            mine = [e for e in entries if isinstance(e, dict) and e.get("name") == pack.name]
            for entry in mine:
                if ref := _ref(record.path, entry.get("builder_skill")):
                    report.run_builders.append(ref)
    report.diagnostics = _compare(pack, report)
    return report


def _compare(pack: Pack, report: ProvenanceReport) -> list[Diagnostic]:
    declared, latest = report.produced_by, report.latest_compile
    position = pack.frontmatter.position("metadata", "producedBy") if pack.frontmatter else None
    line, column = (position.line, position.column) if position else (1, 1)
    diags: list[Diagnostic] = []
    if declared is not None and declared.kind is not None and declared.kind not in KNOWN_KINDS:
        diags.append(PRODUCED_BY_UNKNOWN_KIND(f"metadata.producedBy.kind '{declared.kind}' is not one of "
                                              f"{', '.join(KNOWN_KINDS)}; shown as-is", line=line, column=column))
    if declared is None or latest is None:
        return diags
    for key in _COMPARED:
        mine, theirs = getattr(declared, key), getattr(latest, key)
        if mine is None or theirs is None or mine == theirs:
            continue
        diags.append(PROVENANCE_MISMATCH(f"metadata.producedBy.{key} is '{mine}' but the latest compile run "
                                         f"({latest.origin}) " f"records builder_skill.{key} '{theirs}'", line=line,
                                         column=column))
    return diags
