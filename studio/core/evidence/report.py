"""The tier-4 evidence view: every source-map claim and inline citation, resolved to its excerpt.

Reports claims whose source is missing, outside the pack (never read), changed since the last compile run
(stale) or marked stale/disputed, anchors that name nothing, and ``compiled_into`` paths that do not exist.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity
from studio.core.evidence.anchors import AnchorKind, find_headings, parse_anchor, split_ref
from studio.core.evidence.citations import Citation, scan_citations
from studio.core.evidence.excerpts import Excerpt, ExcerptState, SourceReader
from studio.core.pack_fs import PackFS
from studio.core.runs.model import RunKind, RunsReport
from studio.core.runs.stats import MAX_HASH_BYTES
from studio.core.sourcemap import SOURCE_MAP, DocumentSection, SourceClaim, read_source_map

EVIDENCE_SOURCE_CHANGED = Code("evidence-source-changed", Severity.WARNING,
                               "a claim's source changed since the last compile run recorded its sha256",
                               hint="Recompile so the claim is checked against the new text.")
EVIDENCE_COMPILED_INTO_MISSING = Code("evidence-compiled-into-missing", Severity.WARNING,
                                      "a claim is compiled into a file that does not exist or lies outside the pack",
                                      hint="Rebuild the source map after moving compiled files.")
EVIDENCE_SECTION_DOCUMENT_MISSING = Code("evidence-section-document-missing", Severity.WARNING,
                                         "a source-map document section names a document that does not exist")
EVIDENCE_SOURCE_MISSING = Code("evidence-source-missing", Severity.ERROR,
                               "a claim or citation names a source file that does not exist", Behavior.LOAD, "V39",
                               hint="Add the source under sources/ or correct the path.")
EVIDENCE_SOURCE_OUTSIDE = Code("evidence-source-outside", Severity.ERROR,
                               "a claim or citation names a source outside the pack; it is never opened",
                               hint="Copy the evidence into sources/ and cite it by a pack-relative path.")
EVIDENCE_ANCHOR_OUT_OF_RANGE = Code("evidence-anchor-out-of-range", Severity.WARNING,
                                    "a line anchor points past the end of its source",
                                    hint="The source changed; update the line anchor.")
EVIDENCE_ANCHOR_NOT_FOUND = Code("evidence-anchor-not-found", Severity.WARNING,
                                 "a heading anchor names no heading of its source",
                                 hint="Point the anchor at an existing heading.")
EVIDENCE_ANCHOR_BLANK = Code("evidence-anchor-blank", Severity.WARNING, "a line anchor points at a blank line",
                             hint="The source changed; update the line anchor.")
EVIDENCE_SOURCE_TOO_LARGE = Code("evidence-source-too-large", Severity.INFO,
                                 "a cited source is too large to show an excerpt from")
EVIDENCE_CLAIM_DISPUTED = Code("evidence-claim-disputed", Severity.WARNING,
                               "a source-map claim is disputed: it needs confirmation before use")
EVIDENCE_CLAIM_STALE = Code("evidence-claim-stale", Severity.WARNING, "a source-map claim is marked stale")
EVIDENCE_CLAIM_MISSING = Code("evidence-claim-missing", Severity.INFO,
                              "a source-map claim is marked missing: no source backs it yet")
EVIDENCE_CLAIM_SOURCE_REQUIRED = Code("evidence-claim-source-required", Severity.INFO,
                                      "a source-map claim still needs a source")
EVIDENCE_CLAIM_INFERRED = Code("evidence-claim-inferred", Severity.INFO,
                               "a source-map claim is inferred, not stated by its source")
CODES = (EVIDENCE_SOURCE_CHANGED, EVIDENCE_COMPILED_INTO_MISSING, EVIDENCE_SECTION_DOCUMENT_MISSING,
         EVIDENCE_SOURCE_MISSING, EVIDENCE_SOURCE_OUTSIDE, EVIDENCE_ANCHOR_OUT_OF_RANGE, EVIDENCE_ANCHOR_NOT_FOUND,
         EVIDENCE_ANCHOR_BLANK, EVIDENCE_SOURCE_TOO_LARGE, EVIDENCE_CLAIM_DISPUTED, EVIDENCE_CLAIM_STALE,
         EVIDENCE_CLAIM_MISSING, EVIDENCE_CLAIM_SOURCE_REQUIRED, EVIDENCE_CLAIM_INFERRED)

_CLAIM_STATUS_FINDINGS = {
    "disputed": (EVIDENCE_CLAIM_DISPUTED, "is disputed; it needs confirmation before use"),
    "stale": (EVIDENCE_CLAIM_STALE, "is marked stale"),
    "missing": (EVIDENCE_CLAIM_MISSING, "is marked missing: no source backs it yet"),
    "source-required": (EVIDENCE_CLAIM_SOURCE_REQUIRED, "still needs a source"),
    "inferred": (EVIDENCE_CLAIM_INFERRED, "is inferred, not stated by its source"),
}


@dataclass(slots=True)
class ClaimEvidence:
    """A source-map claim with its resolved excerpt and the state of each ``compiled_into`` target."""

    claim: SourceClaim
    excerpt: Excerpt
    compiled_into: list[tuple[str, str]] = field(default_factory=list)
    """(path as written, ``ok`` | ``missing`` | ``outside`` | ``section-missing``)."""
    source_changed: bool = False
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        c = self.claim
        return {"claim_id": c.claim_id, "text": c.text, "status": c.status, "source": c.source_path,
                "anchor": c.fragment, "excerpt": self.excerpt.to_dict(), "source_changed": self.source_changed,
                "compiled_into": [{"path": p, "state": s} for p, s in self.compiled_into],
                "diagnostics": [d.to_dict() for d in self.diagnostics]}


@dataclass(slots=True)
class CitationEvidence:
    citation: Citation
    excerpt: Excerpt

    def to_dict(self) -> dict[str, Any]:
        c = self.citation
        return {"file": c.file, "line": c.line, "column": c.column, "ref": c.ref, "claim": c.claim,
                "excerpt": self.excerpt.to_dict()}


@dataclass(slots=True)
class EvidenceReport:
    claims: list[ClaimEvidence] = field(default_factory=list)
    citations: list[CitationEvidence] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    source_map_present: bool = False

    def claim(self, claim_id: str) -> ClaimEvidence | None:
        return next((c for c in self.claims if c.claim.claim_id == claim_id), None)

    def to_dict(self) -> dict[str, Any]:
        return {"source_map": SOURCE_MAP if self.source_map_present else None,
                "claims": [c.to_dict() for c in self.claims],
                "citations": [c.to_dict() for c in self.citations],
                "diagnostics": [d.to_dict() for d in self.diagnostics]}


def build_evidence(pack_root: Path, runs: RunsReport | None = None) -> EvidenceReport:
    """Resolve the pack's source map and inline citations. ``runs`` (if given) lets stale sources be found."""
    root = Path(os.path.abspath(pack_root))
    with PackFS(root) as fs:  # one pack held open: every look and read of the report by descriptor
        return _build(root, fs, runs)


def _build(root: Path, fs: PackFS, runs: RunsReport | None) -> EvidenceReport:
    reader = SourceReader(root, fs)
    recorded = _recorded_hashes(runs)
    current: dict[str, str | None] = {}
    source_map = read_source_map(root, fs)
    report = EvidenceReport(source_map_present=source_map.present)
    report.diagnostics.extend(source_map.diagnostics)
    report.diagnostics.extend(source_map.schema_findings())
    for claim in source_map.claims:
        evidence = _claim_evidence(claim, reader, fs, recorded, current)
        report.claims.append(evidence)
        report.diagnostics.extend(evidence.diagnostics)
    for section in source_map.sections:
        report.diagnostics.extend(_section_problems(section, reader))
    citations, _skipped, stopped = scan_citations(root, fs)
    report.diagnostics.extend(stopped)
    for citation in citations:
        excerpt = reader.excerpt(citation.target, parse_anchor(citation.fragment))
        report.citations.append(CitationEvidence(citation, excerpt))
        if (problem := _excerpt_problem(excerpt, citation.file, citation.line, citation.column,
                                        f"citation {citation.ref}")) is not None:
            report.diagnostics.append(problem)
    return report


def _claim_evidence(claim: SourceClaim, reader: SourceReader, fs: PackFS, recorded: dict[str, str],
                    current: dict[str, str | None]) -> ClaimEvidence:
    label = f"claim {claim.claim_id or '(no id)'}"
    excerpt = reader.excerpt(claim.source_path, parse_anchor(claim.fragment))
    evidence = ClaimEvidence(claim, excerpt)
    diags = evidence.diagnostics
    if (problem := _excerpt_problem(excerpt, SOURCE_MAP, claim.line, 1, label)) is not None:
        diags.append(problem)
    if claim.status in _CLAIM_STATUS_FINDINGS:
        code, what = _CLAIM_STATUS_FINDINGS[claim.status]
        diags.append(code(f"{label} {what}", SOURCE_MAP, claim.line))
    if excerpt.state not in (ExcerptState.MISSING, ExcerptState.OUTSIDE) and claim.source_path in recorded:
        if claim.source_path not in current:
            current[claim.source_path] = fs.sha256(claim.source_path, MAX_HASH_BYTES)
        now = current[claim.source_path]
        if now is not None and now != recorded[claim.source_path]:
            evidence.source_changed = True
            diags.append(EVIDENCE_SOURCE_CHANGED(f"{label}: {claim.source_path} changed since the last compile run "
                                                 "recorded its sha256", file=SOURCE_MAP, line=claim.line))
    for target in claim.compiled_into:
        state = _compiled_state(reader, target)
        evidence.compiled_into.append((target, state))
        if state != "ok":
            diags.append(EVIDENCE_COMPILED_INTO_MISSING(f"{label} is compiled into {target}, which "
                                                        f"{_STATE_WORDS[state]}", file=SOURCE_MAP, line=claim.line))
    return evidence


_STATE_WORDS = {"missing": "does not exist", "outside": "is outside the pack",
                "section-missing": "has no such section"}


def _section_problems(section: DocumentSection, reader: SourceReader) -> list[Diagnostic]:
    """A ``document_sections`` entry whose document, anchors or compiled views are gone."""
    label = f"section {section.section_id or '(no id)'} of {section.document or '(no document)'}"
    found: list[Diagnostic] = []
    if _compiled_state(reader, section.document) != "ok":
        found.append(EVIDENCE_SECTION_DOCUMENT_MISSING(f"{label}: the document does not exist in the pack",
                                                       file=SOURCE_MAP, line=section.line))
    for ref in section.source_anchors:
        path, fragment = split_ref(ref)
        problem = _excerpt_problem(reader.excerpt(path, parse_anchor(fragment)), SOURCE_MAP, section.line, 1,
                                   f"{label} anchor {ref}")
        if problem is not None:
            found.append(problem)
    for target in section.compiled_into:
        if (state := _compiled_state(reader, target)) != "ok":
            found.append(EVIDENCE_COMPILED_INTO_MISSING(f"{label} is compiled into {target}, which "
                                                        f"{_STATE_WORDS[state]}", file=SOURCE_MAP, line=section.line))
    return found


def _compiled_state(reader: SourceReader, target: str) -> str:
    path, fragment = split_ref(target)
    if reader.state(path) is ExcerptState.OUTSIDE:
        return "outside"
    if not reader.exists(path):
        return "missing"
    anchor = parse_anchor(fragment)
    lines = reader.lines(path) if anchor.kind is AnchorKind.HEADING else None
    if lines is not None and all(h.slug != anchor.slug for h in find_headings(lines)):
        return "section-missing"
    return "ok"


def _excerpt_problem(excerpt: Excerpt, file: str, line: int, column: int, label: str) -> Diagnostic | None:
    state = excerpt.state
    if state is ExcerptState.MISSING:
        return EVIDENCE_SOURCE_MISSING(f"{label}: source {excerpt.path or '(empty path)'} does not exist in the pack",
                                       file=file, line=line, column=column)
    if state is ExcerptState.OUTSIDE:
        return EVIDENCE_SOURCE_OUTSIDE(f"{label}: source {excerpt.path} is outside the pack; it was not read",
                                       file=file, line=line, column=column)
    if state is ExcerptState.OUT_OF_RANGE:
        return EVIDENCE_ANCHOR_OUT_OF_RANGE(f"{label}: anchor #{excerpt.anchor.raw.lstrip('#')} is past the end of "
                                            f"{excerpt.path}", file=file, line=line, column=column)
    if state is ExcerptState.NOT_FOUND:
        return EVIDENCE_ANCHOR_NOT_FOUND(f"{label}: {excerpt.path} has nothing at #{excerpt.anchor.raw.lstrip('#')}",
                                         file=file, line=line, column=column)
    if state is ExcerptState.RESOLVED and not excerpt.text.strip():
        return EVIDENCE_ANCHOR_BLANK(f"{label}: #{excerpt.anchor.raw.lstrip('#')} in {excerpt.path} is a blank line",
                                     file=file, line=line, column=column)
    if state is ExcerptState.TOO_LARGE:
        return EVIDENCE_SOURCE_TOO_LARGE(f"{label}: {excerpt.path} is too large to show an excerpt", file=file,
                                         line=line, column=column)
    return None


def _recorded_hashes(runs: RunsReport | None) -> dict[str, str]:
    """sha256 of each input as the latest compile run that hashed it recorded it (placeholders ignored)."""
    hashes: dict[str, str] = {}
    if runs is None:
        return hashes
    for record in runs.by_kind(RunKind.COMPILE_RUN):  # time order: later runs overwrite earlier ones
        data = record.data if isinstance(record.data, dict) else {}
        for key in ("inputs", "documents"):
            for entry in data.get(key, []) if isinstance(data.get(key), list) else []:
                if isinstance(entry, dict) and isinstance(entry.get("path"), str):
                    digest = str(entry.get("sha256", "")).removeprefix("sha256:").lower()
                    if len(digest) == 64 and all(ch in "0123456789abcdef" for ch in digest):
                        hashes[entry["path"].split("#", 1)[0]] = digest
    return hashes
