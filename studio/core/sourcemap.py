"""The one reader of ``indexes/source-map.json``: claims and document sections, read once, with one size limit.

The resolver (candidate hints, risky claims, split coverage), the evidence view (claims resolved to excerpts),
review reasons and the content checks all read the map through ``read_source_map``; they used to have three
readers with two limits (4 and 8 MiB) and two claim types that disagreed about the same file.

The map is an index: it is never model context and never fact authority (digest 1.1). A missing map is an empty
one; a map that cannot be read is an empty one with a positioned finding (``source-map-unreadable``,
``source-map-too-large``, ``source-map-malformed``) and a one-line ``problem`` the resolver shows as a warning.
Duplicate keys and NaN/Infinity are findings (``studio.core.jsonread``). Checking the map against the studio's
schema (``index-schema-violation``, ``index-extra-field``, V37/V38) costs a jsonschema import, so it runs only
when asked (``SourceMap.schema_findings``); the resolver never asks. Fields of the wrong type read as empty.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity
from studio.core.jsonread import JsonFailure, JsonText, read_json
from studio.core.pack_fs import PackFS, Status, held
from studio.core.paths import from_read_result

_REBUILD = "Rebuild the source map; indexes/ must be reproducible from sources."
SOURCE_MAP_UNREADABLE = Code("source-map-unreadable", Severity.ERROR, "indexes/source-map.json cannot be read",
                             Behavior.LOAD, "V36", hint=_REBUILD)
SOURCE_MAP_TOO_LARGE = Code("source-map-too-large", Severity.ERROR,
                            "indexes/source-map.json is larger than the studio parses", Behavior.LOAD, "V36",
                            hint=_REBUILD)
SOURCE_MAP_MALFORMED = Code("source-map-malformed", Severity.ERROR,
                            "indexes/source-map.json is not UTF-8 JSON that can be parsed", Behavior.LOAD, "V36",
                            hint=_REBUILD)
INDEX_SCHEMA_VIOLATION = Code("index-schema-violation", Severity.ERROR,
                              "the source map or a discovery suite does not match its schema",
                              Behavior.LOAD_WITH_WARNING, "V37")
INDEX_EXTRA_FIELD = Code("index-extra-field", Severity.WARNING,
                         "the source map or a discovery suite has a key its schema does not allow", Behavior.LOAD,
                         "V38")
CODES = (SOURCE_MAP_UNREADABLE, SOURCE_MAP_TOO_LARGE, SOURCE_MAP_MALFORMED, INDEX_SCHEMA_VIOLATION, INDEX_EXTRA_FIELD)

SOURCE_MAP = "indexes/source-map.json"
MAX_SOURCE_MAP_BYTES = 8 * 1024 * 1024
RISKY_STATUSES = ("stale", "disputed", "missing", "source-required", "retracted", "amended")
"""Claim statuses the resolver warns about. ``retracted`` and ``amended`` are not source-map statuses: a dispute
decision (``studio.core.disputes.effect``) puts them on a claim whose files were not recompiled yet."""


@dataclass(frozen=True, slots=True)
class SourceClaim:
    """One claim of the source map, with every field read defensively (wrong types become empty)."""

    claim_id: str
    text: str
    status: str
    source_path: str
    fragment: str
    """The source anchor without its ``#`` (``L42``, ``pricing``, ``page=3``), or empty."""
    compiled_into: tuple[str, ...] = ()
    document: str = ""
    section_id: str = ""
    line: int = 1
    """Line of the claim in the source-map file."""
    note: str = ""
    """Why the claim's status was changed after reading (an open dispute, a decision): shown with the warning."""

    @property
    def anchor(self) -> str:
        """``sources/<file>#L42`` style anchor, or the bare source path."""
        return f"{self.source_path}#{self.fragment}" if self.fragment else self.source_path

    @property
    def targets(self) -> list[str]:
        """The items the claim was compiled into: ``compiled_into`` and ``document#section_id``, once each."""
        found = list(self.compiled_into)
        if self.document and self.section_id:
            found.append(f"{self.document}#{self.section_id}")
        return list(dict.fromkeys(found))


@dataclass(frozen=True, slots=True)
class DocumentSection:
    """A ``document_sections`` entry: a section of a primary document and where it came from and went."""

    document: str
    section_id: str
    title: str
    source_anchors: tuple[str, ...] = ()
    compiled_into: tuple[str, ...] = ()
    line: int = 1


@dataclass(slots=True)
class SourceMap:
    """The pack's source map as read: claims, sections, findings, and the indexes the resolver asks."""

    claims: list[SourceClaim] = field(default_factory=list)
    sections: list[DocumentSection] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    """Why the map could not be read, or its duplicate keys and NaN; schema findings are ``schema_findings()``."""
    present: bool = False
    document: JsonText | None = None
    """The parsed file (for positions), when it could be read."""
    problem: str | None = None
    """One line saying why the map is unusable (unreadable, too large, not JSON, no ``claims`` list), or None."""
    by_target: dict[str, list[SourceClaim]] = field(default_factory=dict)
    """Claims by the items they were compiled into (``path`` and ``path#section``)."""
    by_source: dict[str, list[str]] = field(default_factory=dict)
    """Source file path -> the items its claims were compiled into."""
    covered_sections: dict[str, set[str]] = field(default_factory=dict)
    """``documents/x.md#slug`` -> split paths that carry the same claims."""

    def claims_for(self, path: str, slug: str | None = None) -> list[SourceClaim]:
        found = list(self.by_target.get(path, ()))
        if slug is not None:
            found.extend(self.by_target.get(f"{path}#{slug}", ()))
        return found

    def with_claims(self, claims: list[SourceClaim]) -> SourceMap:
        """A copy of this map holding ``claims`` instead of its own, every index rebuilt from them."""
        out = SourceMap(sections=list(self.sections), diagnostics=list(self.diagnostics), present=self.present,
                        document=self.document, problem=self.problem)
        for claim in claims:
            _index_claim(out, claim)
        for section in out.sections:
            _link_section(out, section)
        return out

    def schema_findings(self) -> list[Diagnostic]:
        """The map checked against the studio's source-map schema (V37 violations, V38 extra keys)."""
        if self.document is None:
            return []
        return schema_findings(self.document, "source-map", SOURCE_MAP)


def schema_findings(document: JsonText, schema: str, file: str) -> list[Diagnostic]:
    """``document`` checked against ``schema``, as index findings (the source map and the discovery suites)."""
    from studio.core.runs.schemas import check_against_schema  # jsonschema: only when a check asks

    result = check_against_schema(document.value, schema, file=file, source=document)
    return ([INDEX_SCHEMA_VIOLATION(d.message, d.file, d.line, d.column, hint=d.hint) for d in result.errors]
            + [INDEX_EXTRA_FIELD(d.message, d.file, d.line, d.column, hint=d.hint) for d in result.infos])


def read_source_map(root: Path, fs: PackFS | None = None) -> SourceMap:
    """Read the pack's source map. A missing file is an empty map, not an error.

    Read by descriptor (``pack_fs``; ``fs`` when the caller holds the pack open, else one opened here): a map
    that is, or lies behind, a symlink leading out of the pack is reported, never read.
    Never raises: the map is an index, and nothing in it may keep a pack from loading or being validated. Even a
    failure of the studio itself while reading it becomes a ``source-map-unreadable`` finding (the audit boundary).
    """
    try:
        with held(root, fs) as pack:
            return _read_source_map(pack)
    except Exception as exc:  # the audit boundary
        finding = _problem(SOURCE_MAP_UNREADABLE, f"could not be read: the studio failed with {type(exc).__name__}: "
                                                  f"{str(exc)[:200]}")
        return _unusable(SourceMap(present=True), finding, finding.message)


def _read_source_map(fs: PackFS) -> SourceMap:
    result = SourceMap()
    found = fs.read(SOURCE_MAP, MAX_SOURCE_MAP_BYTES + 1)
    if found.status is Status.MISSING and fs.lstat(SOURCE_MAP) is None:
        return result  # no map (a link to nothing is a map that cannot be read)
    result.present = True
    data, size, problem = from_read_result(found, SOURCE_MAP)
    if problem is not None or data is None:
        finding = problem or _problem(SOURCE_MAP_UNREADABLE, "cannot be read")
        return _unusable(result, finding, finding.message)
    if size > MAX_SOURCE_MAP_BYTES:
        what = f"is {size:,} bytes, over the {MAX_SOURCE_MAP_BYTES // 1_048_576} MiB the studio reads; not parsed"
        return _unusable(result, _problem(SOURCE_MAP_TOO_LARGE, what), f"{SOURCE_MAP} {what}")
    parsed = read_json(data)
    if isinstance(parsed, JsonFailure):
        finding = _problem(SOURCE_MAP_MALFORMED, parsed.message, parsed.line, parsed.column)
        return _unusable(result, finding, f"{SOURCE_MAP} {parsed.message}")
    result.document = parsed
    result.diagnostics.extend(parsed.findings(SOURCE_MAP))
    doc = parsed.value
    raw_claims = doc.get("claims") if isinstance(doc, dict) else None
    if not isinstance(raw_claims, list):
        result.problem = f"{SOURCE_MAP} has no 'claims' list"
    for index, raw in enumerate(raw_claims if isinstance(raw_claims, list) else []):
        if isinstance(raw, dict):
            line = parsed.position(["claims", index, "claim_id"])[0]
            _index_claim(result, _claim(raw, line))
    raw_sections = doc.get("document_sections") if isinstance(doc, dict) else None
    for index, raw in enumerate(raw_sections if isinstance(raw_sections, list) else []):
        if isinstance(raw, dict):
            section = DocumentSection(_str(raw.get("document")), _str(raw.get("section_id")), _str(raw.get("title")),
                                      _strings(raw.get("source_anchors")), _strings(raw.get("compiled_into")),
                                      parsed.position(["document_sections", index])[0])
            result.sections.append(section)
            _link_section(result, section)
    return result


def _unusable(result: SourceMap, finding: Diagnostic, problem: str) -> SourceMap:
    result.diagnostics.append(finding)
    result.problem = problem
    return result


def _index_claim(out: SourceMap, claim: SourceClaim) -> None:
    out.claims.append(claim)
    targets = claim.targets
    for target in targets:
        out.by_target.setdefault(target, []).append(claim)
    if claim.source_path:
        out.by_source.setdefault(claim.source_path, []).extend(targets)
    _link_sections(out, targets)


def _link_section(out: SourceMap, section: DocumentSection) -> None:
    if section.document and section.section_id:
        _link_sections(out, [f"{section.document}#{section.section_id}", *section.compiled_into])


def _link_sections(out: SourceMap, targets: list[str]) -> None:
    sections = [t for t in targets if t.startswith("documents/") and "#" in t]
    splits = [t.split("#", 1)[0] for t in targets if t.startswith("compiled/splits/")]
    for sec in sections:
        if splits:
            out.covered_sections.setdefault(sec, set()).update(splits)


def _claim(raw: dict[str, Any], line: int) -> SourceClaim:
    found = raw.get("source")
    source: dict[str, Any] = found if isinstance(found, dict) else {}
    path = _str(source.get("path"))
    fragment = _str(source.get("anchor"))
    if not fragment and "#" in path:
        path, _, fragment = (part.strip() for part in path.partition("#"))
    return SourceClaim(
        claim_id=_str(raw.get("claim_id")), text=_str(raw.get("text")), status=_str(raw.get("status")),
        source_path=path, fragment=fragment.lstrip("#"), compiled_into=_strings(raw.get("compiled_into")),
        document=_str(raw.get("document")), section_id=_str(raw.get("section_id")), line=line,
    )


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(v for v in value if isinstance(v, str)) if isinstance(value, list) else ()


def _str(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _problem(code: Code, what: str, line: int = 1, column: int = 1) -> Diagnostic:
    return code(f"{SOURCE_MAP} {what}", SOURCE_MAP, line, column)


__all__ = ["CODES", "MAX_SOURCE_MAP_BYTES", "RISKY_STATUSES", "SOURCE_MAP", "DocumentSection", "SourceClaim",
           "SourceMap", "read_source_map", "schema_findings"]
