"""Read ``indexes/source-map.json``: claims with their source anchors, checked against the studio schema."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.core.diagnostics import Behavior, Code, Diagnostic, Severity
from studio.core.evidence.anchors import split_ref
from studio.core.paths import read_bounded
from studio.core.runs.jsonpos import line_column, value_positions
from studio.core.runs.schemas import check_against_schema

_REBUILD = "Rebuild the source map; indexes/ must be reproducible from sources."
SOURCE_MAP_UNREADABLE = Code("source-map-unreadable", Severity.ERROR, "indexes/source-map.json cannot be read",
                             Behavior.LOAD, "V36", hint=_REBUILD)
SOURCE_MAP_TOO_LARGE = Code("source-map-too-large", Severity.ERROR,
                            "indexes/source-map.json is larger than the studio parses", Behavior.LOAD, "V36",
                            hint=_REBUILD)
SOURCE_MAP_MALFORMED = Code("source-map-malformed", Severity.ERROR,
                            "indexes/source-map.json is not UTF-8 JSON that can be parsed", Behavior.LOAD, "V36",
                            hint=_REBUILD)
CODES = (SOURCE_MAP_UNREADABLE, SOURCE_MAP_TOO_LARGE, SOURCE_MAP_MALFORMED)

SOURCE_MAP = "indexes/source-map.json"
MAX_SOURCE_MAP_BYTES = 8 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class SourceClaim:
    """One claim of the source map, with every field read defensively (wrong types become empty)."""

    claim_id: str
    text: str
    status: str
    source_path: str
    fragment: str
    compiled_into: tuple[str, ...] = ()
    document: str = ""
    section_id: str = ""
    line: int = 1
    """Line of the claim in the source-map file."""


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
    claims: list[SourceClaim] = field(default_factory=list)
    sections: list[DocumentSection] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    present: bool = False


def read_source_map(root: Path) -> SourceMap:
    """Parse and check the pack's source map. A missing file is an empty map, not an error."""
    result = SourceMap()
    path = root / SOURCE_MAP
    if not path.exists() and not path.is_symlink():
        return result
    result.present = True
    data, size, problem = read_bounded(path, MAX_SOURCE_MAP_BYTES + 1, root=root)
    if problem is not None or data is None:
        result.diagnostics.append(problem or _problem(SOURCE_MAP_UNREADABLE, "cannot be read"))
        return result
    if size > MAX_SOURCE_MAP_BYTES:
        result.diagnostics.append(_problem(SOURCE_MAP_TOO_LARGE, f"is {size:,} bytes; not parsed"))
        return result
    try:
        text = data.decode("utf-8-sig")
        parsed: Any = json.loads(text)
    except UnicodeDecodeError:
        result.diagnostics.append(_problem(SOURCE_MAP_MALFORMED, "is not UTF-8 text"))
        return result
    except json.JSONDecodeError as exc:
        result.diagnostics.append(_problem(SOURCE_MAP_MALFORMED, f"is not valid JSON: {exc.msg}",
                                           exc.lineno, exc.colno))
        return result
    except (ValueError, RecursionError):
        result.diagnostics.append(_problem(SOURCE_MAP_MALFORMED, "cannot be parsed"))
        return result
    result.diagnostics.extend(check_against_schema(parsed, "source-map", file=SOURCE_MAP, text=text).diagnostics)
    positions = value_positions(text)
    raw_claims = parsed.get("claims") if isinstance(parsed, dict) else None
    for index, raw in enumerate(raw_claims if isinstance(raw_claims, list) else []):
        if isinstance(raw, dict):
            at = positions.get(("claims", index, "claim_id"), positions.get(("claims", index), 0))
            result.claims.append(_claim(raw, line_column(text, at)[0]))
    raw_sections = parsed.get("document_sections") if isinstance(parsed, dict) else None
    for index, raw in enumerate(raw_sections if isinstance(raw_sections, list) else []):
        if isinstance(raw, dict):
            at = positions.get(("document_sections", index), 0)
            result.sections.append(DocumentSection(
                _str(raw.get("document")), _str(raw.get("section_id")), _str(raw.get("title")),
                _strings(raw.get("source_anchors")), _strings(raw.get("compiled_into")),
                line_column(text, at)[0]))
    return result


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(v for v in value if isinstance(v, str)) if isinstance(value, list) else ()


def _claim(raw: dict[str, Any], line: int) -> SourceClaim:
    found = raw.get("source")
    source: dict[str, Any] = found if isinstance(found, dict) else {}
    path = _str(source.get("path"))
    fragment = _str(source.get("anchor"))
    if not fragment and "#" in path:
        path, fragment = split_ref(path)
    return SourceClaim(
        claim_id=_str(raw.get("claim_id")), text=_str(raw.get("text")), status=_str(raw.get("status")),
        source_path=path, fragment=fragment.lstrip("#"), compiled_into=_strings(raw.get("compiled_into")),
        document=_str(raw.get("document")), section_id=_str(raw.get("section_id")),
        line=line,
    )


def _str(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _problem(code: Code, what: str, line: int = 1, column: int = 1) -> Diagnostic:
    return code(f"{SOURCE_MAP} {what}", SOURCE_MAP, line, column)
