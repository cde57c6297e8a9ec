"""Read ``indexes/source-map.json`` as candidate hints: which items carry anchored claims, which are at risk.

The source map is an index: it is never model context and never fact authority (digest 1.1). The resolver
uses it to raise candidates whose claims match the task, to list source anchors, to warn about stale,
disputed or missing sources behind selected items (6.3 step 7), to find citation gaps (6.6) and to tell
which document sections a split already covers. A malformed map yields a warning, never an exception.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from studio.core.paths import read_bounded

SOURCE_MAP = "indexes/source-map.json"
MAX_MAP_BYTES = 4 * 1_048_576
RISKY_STATUSES = ("stale", "disputed", "missing", "source-required")


@dataclass(frozen=True, slots=True)
class Claim:
    claim_id: str
    text: str
    status: str
    anchor: str
    """``sources/<file>#L42`` style anchor, or the bare source path."""


@dataclass(slots=True)
class SourceMap:
    """Claims indexed by the items they were compiled into (``path`` and ``path#section``)."""

    by_target: dict[str, list[Claim]] = field(default_factory=dict)
    by_source: dict[str, list[str]] = field(default_factory=dict)
    """Source file path -> the items its claims were compiled into."""
    covered_sections: dict[str, set[str]] = field(default_factory=dict)
    """``documents/x.md#slug`` -> split paths that carry the same claims."""
    problem: str | None = None

    def claims_for(self, path: str, slug: str | None = None) -> list[Claim]:
        found = list(self.by_target.get(path, ()))
        if slug is not None:
            found.extend(self.by_target.get(f"{path}#{slug}", ()))
        return found


def load_source_map(root: Path) -> SourceMap:
    """Parse the pack's source map; an absent map is an empty one, a broken map carries ``problem``."""
    path = root / SOURCE_MAP
    if not path.exists() and not path.is_symlink():
        return SourceMap()
    data, size, problem = read_bounded(path, MAX_MAP_BYTES + 1, root=root)
    if problem is not None or data is None:
        return SourceMap(problem=problem.message if problem else "source map unreadable")
    if size > MAX_MAP_BYTES:
        return SourceMap(problem=f"source map is larger than {MAX_MAP_BYTES} bytes; not read")
    try:
        doc = json.loads(data.decode("utf-8", errors="replace"))
    except json.JSONDecodeError as exc:
        return SourceMap(problem=f"source map is not valid JSON: {exc}")
    except RecursionError:
        return SourceMap(problem="source map is nested too deeply to read")
    except ValueError:  # an integer over Python's digit limit
        return SourceMap(problem="source map holds a number too large to read")
    if not isinstance(doc, dict) or not isinstance(doc.get("claims"), list):
        return SourceMap(problem="source map has no 'claims' list")
    out = SourceMap()
    for raw in doc["claims"]:
        if isinstance(raw, dict):
            _add_claim(out, raw)
    for raw in doc.get("document_sections") or []:
        if isinstance(raw, dict):
            _add_section(out, raw)
    return out


def _add_claim(out: SourceMap, raw: dict[str, object]) -> None:
    source = raw.get("source")
    src_path = _text(source.get("path")) if isinstance(source, dict) else ""
    anchor = _text(source.get("anchor")) if isinstance(source, dict) else ""
    full_anchor = f"{src_path}{anchor}" if anchor.startswith("#") or not anchor else f"{src_path}#{anchor}"
    claim = Claim(_text(raw.get("claim_id")), _text(raw.get("text")), _text(raw.get("status")), full_anchor)
    compiled = raw.get("compiled_into")
    targets = [t for t in compiled if isinstance(t, str)] if isinstance(compiled, list) else []
    document, section_id = raw.get("document"), raw.get("section_id")
    if isinstance(document, str) and isinstance(section_id, str):
        targets.append(f"{document}#{section_id}")
    for target in dict.fromkeys(targets):
        out.by_target.setdefault(target, []).append(claim)
    if src_path:
        out.by_source.setdefault(src_path, []).extend(targets)
    _link_sections(out, targets)


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _add_section(out: SourceMap, raw: dict[str, object]) -> None:
    document, section_id = raw.get("document"), raw.get("section_id")
    targets = raw.get("compiled_into")
    if isinstance(document, str) and isinstance(section_id, str) and isinstance(targets, list):
        _link_sections(out, [f"{document}#{section_id}", *(t for t in targets if isinstance(t, str))])


def _link_sections(out: SourceMap, targets: list[str]) -> None:
    sections = [t for t in targets if t.startswith("documents/") and "#" in t]
    splits = [t.split("#", 1)[0] for t in targets if t.startswith("compiled/splits/")]
    for sec in sections:
        if splits:
            out.covered_sections.setdefault(sec, set()).update(splits)
