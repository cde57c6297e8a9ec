"""Which document sections a split already carries (those sections become ``superseded-by-split``).

A section of ``documents/<stem>.md`` counts as covered by a split in ``compiled/splits/<stem>/`` when
(a) the source map links them (the same claim compiled into both), (b) the split's file name or first heading
matches the section's slug, or (c) most of the section's distinct terms (``CONTAINMENT``) occur in one split.
Sections no split covers stay available as fallback reads (digest 6.3 step 4).
"""

from __future__ import annotations

from studio.core.resolver.candidates import Candidate, PackFiles
from studio.core.resolver.rank import DocTerms
from studio.core.resolver.sections import slugify
from studio.core.resolver.source_map import SourceMap

CONTAINMENT = 0.6


def covering_splits(files: PackFiles, source_map: SourceMap, doc_terms: dict[Candidate, DocTerms]) -> dict[str, str]:
    """Map ``documents/x.md#slug`` keys to the path of a split covering that section."""
    splits: dict[str, list[Candidate]] = {}
    for c in files.candidates:
        if c.layer == "split" and c.doc_stem:
            splits.setdefault(c.doc_stem, []).append(c)
    out: dict[str, str] = {}
    for c in files.candidates:
        if c.layer != "document" or c.doc_stem not in splits:
            continue
        mapped = sorted(source_map.covered_sections.get(c.key, ()))
        if mapped:
            out[c.key] = mapped[0]
            continue
        hit = _by_name(c, splits[c.doc_stem]) or _by_terms(c, splits[c.doc_stem], doc_terms)
        if hit is not None:
            out[c.key] = hit
    return out


def _by_name(section: Candidate, splits: list[Candidate]) -> str | None:
    slug = section.slug or ""
    if not slug:
        return None
    for s in splits:
        stem = s.path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        # Numbered splits like 008_voice.md carry the section name after the number.
        name = slugify(stem.split("_", 1)[1] if "_" in stem and stem.split("_", 1)[0].isdigit() else stem)
        if name and (name == slug or name.replace("_", "-") == slug):
            return s.path
    return None


def _by_terms(section: Candidate, splits: list[Candidate], doc_terms: dict[Candidate, DocTerms]) -> str | None:
    own = doc_terms.get(section)
    if own is None or not own.freqs:
        return None
    mine = set(own.freqs)
    best, best_share = None, 0.0
    for s in splits:
        theirs = doc_terms.get(s)
        if theirs is None:
            continue
        share = len(mine & theirs.freqs.keys()) / len(mine)
        if share > best_share:
            best, best_share = s.path, share
    return best if best_share >= CONTAINMENT else None
