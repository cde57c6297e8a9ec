"""After selection: source anchors, warnings (digest 6.7), citation gaps and missing facts (6.6).

Missing facts are found conservatively: with ``grounding: required`` every content term of the task that no
selected item mentions is listed, with the standard's recommendation ``ask_user_or_mark_unknown``. This
over-reports rather than letting a model answer from memory, but it names topics only: English stop words and
ordinary words ("asking", "covered", "broken") are left out, inflections are folded ("warranties" is mentioned
by "warranty"), and a Chinese run is split at its stop words and particles into terms of two or more characters
(``studio.core.text.stopwords``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from studio.core.checks.persona_boundaries import guide_has_boundaries
from studio.core.diagnostics import Code
from studio.core.resolver import warning_codes as codes
from studio.core.resolver.explain import PackResolution, ResolveRequest, ResolveResult, ResolveWarning
from studio.core.resolver.prepared import PreparedPack
from studio.core.sourcemap import RISKY_STATUSES
from studio.core.text.stopwords import chinese_content_terms, fold_forms, is_report_stopword

GAP_RECOMMENDATION = "ask_user_or_mark_unknown"
MAX_OMISSIONS_LISTED = 5
_TASK_WORDS = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]+|[^\W\d_\u3400-\u4dbf\u4e00-\u9fff]{3,}")


def add_findings(result: ResolveResult, prepared: Sequence[PreparedPack | None], request: ResolveRequest,
                 evidence: bool) -> None:
    """Fill ``result``'s warnings, anchors, citation gaps and missing facts in place."""
    selected_texts: list[str] = []
    any_required = False
    for res, prep in zip(result.packs, prepared, strict=True):
        if prep is None:
            continue
        by_place = {(c.path, c.section, c.lines): c for c in prep.files.candidates}
        warn = _warner(res)
        if prep.source_map.problem:
            warn(codes.SOURCE_MAP_UNUSABLE, f"Source map unusable: {prep.source_map.problem}",
                 "indexes/source-map.json")
        anchors: dict[str, None] = {}
        unanchored: list[str] = []
        for d in res.selected:
            c = by_place.get((d.path, d.section, d.lines))
            if c is None:
                continue
            selected_texts.append(c.text)
            if c.caution:
                warn(codes.UNSETTLED_ANSWER, f"{c.key} was selected but its {c.caution}; do not present it as "
                     "settled.", c.path)
            claims = prep.source_map.claims_for(c.path, c.slug)
            for claim in claims:
                anchors[claim.anchor] = None
                if claim.status in RISKY_STATUSES:
                    warn(codes.RISKY_CLAIM, f"{c.key} carries a {claim.status} claim "
                         f"({claim.claim_id or claim.text[:40]}) from {claim.anchor or 'an unnamed source'}."
                         + (f" {claim.note}" if claim.note else ""), c.path)
                    if res.grounding == "required" and claim.status in ("missing", "source-required"):
                        result.citation_gaps.append({"path": c.key, "reason": f"claim {claim.claim_id} is "
                                                     f"{claim.status}"})
            if not claims and c.layer not in ("guide", "source", "answer"):
                unanchored.append(c.key)
        res.source_anchors = sorted(anchors)
        if res.grounding == "required":
            any_required = True
            result.citation_gaps.extend({"path": key, "reason": "no source-map anchor backs this item"}
                                        for key in unanchored)
        elif res.grounding == "recommended" and unanchored:
            warn(codes.UNANCHORED_ITEMS,
                 f"{len(unanchored)} selected item(s) have no source anchors; grounding is recommended.")
        _compile_warnings(res, prep, warn)
        _evidence_warnings(res, prep, evidence, warn)
        _omission_warnings(res, warn)
    if any_required:
        missing = missing_terms(request.task, selected_texts)
        if missing:
            result.missing = missing
            result.citation_gaps.append({"missing": missing, "recommendation": GAP_RECOMMENDATION})
    result.warnings = [w for res in result.packs for w in res.warnings]
    if not any(res.selected for res in result.packs):
        result.warnings.append(ResolveWarning.of(codes.NOTHING_SELECTED, "Nothing was selected; the fence is empty."))


class _Warn(Protocol):
    """Adds a warning of ``code`` to one pack's resolution."""

    def __call__(self, code: Code, message: str, path: str | None = None) -> None: ...


def _warner(res: PackResolution) -> _Warn:
    def warn(code: Code, message: str, path: str | None = None) -> None:
        res.warnings.append(ResolveWarning.of(code, message, path, res.name))

    return warn


def _compile_warnings(res: PackResolution, prep: PreparedPack, warn: _Warn) -> None:
    verdict = prep.compile_verdict
    if verdict is None:
        return
    for d in res.selected:
        if d.path in verdict.outputs or (not verdict.outputs and d.path.startswith("compiled/")):
            warn(codes.FLAGGED_COMPILE, f"{d.path} was written by a compile run with status {verdict.status} "
                 f"({verdict.run}); review it before relying on it.", d.path)


def _evidence_warnings(res: PackResolution, prep: PreparedPack, evidence: bool, warn: _Warn) -> None:
    if evidence and prep.files.has_sources:
        warn(codes.EVIDENCE_SOURCES, "The task asks for evidence; sources/ anchors were considered.", "sources/")
    elif evidence:
        warn(codes.EVIDENCE_WITHOUT_SOURCES, "The task asks for evidence, but the pack has no sources/ to cite.")
    if res.runtime_mode == "persona" and res.selected and not _boundaries_loaded(res):
        warn(codes.PERSONA_WITHOUT_BOUNDARIES,
             "Persona context was selected without any boundaries or taboos beside it.")


def _boundaries_loaded(res: PackResolution) -> bool:
    """A boundaries item was selected, or the guide was and has a boundaries section the validator accepts (V26)."""
    return any(d.reason == "boundaries" or (d.reason == "guide" and guide_has_boundaries(res.pack.body))
               for d in res.selected)


def _omission_warnings(res: PackResolution, warn: _Warn) -> None:
    for d in res.skipped:
        if d.reason == "duplicate":
            warn(codes.DUPLICATE_LOADED_ONCE, f"{d.path} was not loaded: {d.detail}", d.path)
    omitted = [d for d in res.skipped if d.reason == "over-budget"]
    if not omitted:
        return
    names = ", ".join(d.path + (f"#{d.section}" if d.section else "") for d in omitted[:MAX_OMISSIONS_LISTED])
    more = f" and {len(omitted) - MAX_OMISSIONS_LISTED} more" if len(omitted) > MAX_OMISSIONS_LISTED else ""
    warn(codes.OVER_BUDGET, f"Left out for the token budget: {names}{more}.")


def missing_terms(task: str, texts: Sequence[str]) -> list[str]:
    """Each content term of ``task`` that none of ``texts`` mentions, worded for the reader."""
    hay = "\n".join(texts).lower()
    missing: list[str] = []
    for term in dict.fromkeys(content_terms(task)):
        if term[0] >= "\u3400":
            pairs = [term[i:i + 2] for i in range(max(len(term) - 1, 1))]
            if sum(p in hay for p in pairs) * 2 < len(pairs):
                missing.append(f"no loaded context mentions \u201c{term}\u201d")
        elif not any(form in hay for form in fold_forms(term)):
            missing.append(f"no loaded context mentions \u201c{term}\u201d")
    return missing


def content_terms(task: str) -> list[str]:
    """The task's content terms, in order: English words of 3+ letters that are not stop or ordinary words, and
    the content pieces of each CJK run."""
    out: list[str] = []
    for word in _TASK_WORDS.findall(task.lower()):
        if word[0] >= "\u3400":
            out.extend(chinese_content_terms(word))
        elif not is_report_stopword(word):
            out.append(word)
    return out
