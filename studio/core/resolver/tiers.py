"""Where each candidate falls in the fill order, by profile and runtime mode (digest 1.2, 6.3, 6.5).

Fill order (our reading of 6.5; lower tiers fill first):

0. ``KNOWLEDGE.md`` body: the usage guide and context map.
1. boundaries: a compiled view, split or section whose name says boundaries, constraints or taboos (kept
   ahead of the facts they bound, so budget pressure never drops them first).
2. persona mode only: voice, values and usage-guide items ("persona first", 6.3).
3. ``compiled/briefing.md``;  4. ``compiled/facts.md``.
5+. ranked tiers, which differ per profile:

==============  ============================  =======================  ========================
tier            document-first                wiki-first               hybrid
==============  ============================  =======================  ========================
5               splits                        other compiled views     primary-document sections
                                                                       and splits
6               other compiled views          wiki pages               other compiled views
7               uncovered primary sections    splits                   documents/ and wiki/
8               other documents/ sections     documents/ named in the  -
                                              context map
9               wiki pages                    -                        -
10              sources (evidence tasks)      sources                  sources
==============  ============================  =======================  ========================

Answers (questions of ``metadata.primaryAnswers`` with their answer blocks) rank in tier 5 in every profile.

Tiers 0-4 are not relevance-gated: they are the pack's own short runtime views. Ranked tiers need a BM25
score above a floor (``LOW_RELEVANCE_FRACTION`` of the pack's best score, and above zero).
"""

from __future__ import annotations

from dataclasses import dataclass

from studio.core.resolver.candidates import Candidate

LOW_RELEVANCE_FRACTION = 0.2
PERSONA_ROLES = frozenset({"voice", "values", "usage", "boundaries"})
FIRST_RANKED_TIER = 5


@dataclass(frozen=True, slots=True)
class Placement:
    """A candidate's tier and the reason it would be selected, or why it is skipped outright."""

    tier: int | None
    reason: str
    detail: str = ""

    @property
    def ranked(self) -> bool:
        return self.tier is not None and self.tier >= FIRST_RANKED_TIER


def place(c: Candidate, profile: str, mode: str, *, evidence: bool, superseded_by: str | None,
          context_map: str) -> Placement:
    """Tier for ``c``; ``superseded_by`` names a split covering this document section, if any."""
    if c.layer == "guide":
        return Placement(0, "guide")
    if c.layer == "answer":  # a reviewed answer to the question asked is the best context there is
        return Placement(FIRST_RANKED_TIER, "answer-block")
    if c.layer == "source":
        if evidence:
            return Placement(10, "evidence-for-citation")
        return Placement(None, "sources-only-for-citation",
                         "Raw sources load only when the task asks for citation, verification or dispute handling.")
    if c.layer == "document" and superseded_by:
        return Placement(None, "superseded-by-split", f"{superseded_by} carries this section for runtime use.")
    if c.layer == "document" and profile == "wiki-first" and c.path not in context_map:
        return Placement(None, "secondary-document", "In a wiki-first pack documents/ are secondary; name the "
                         "file in KNOWLEDGE.md's context map to make it an escalation read.")
    if "boundaries" in c.roles and (c.layer in ("compiled", "split", "document") or mode == "persona"):
        return Placement(1, "boundaries")
    if mode == "persona" and c.roles & PERSONA_ROLES:
        return Placement(2, "persona-core")
    if c.layer == "compiled":
        stem = c.path.rsplit("/", 1)[-1]
        if stem == "briefing.md":
            return Placement(3, "core-view")
        if stem == "facts.md":
            return Placement(4, "core-view")
    return Placement(_ranked_tier(c, profile), "fallback-section" if c.layer == "document" else "relevant")


def _ranked_tier(c: Candidate, profile: str) -> int:
    if profile == "document-first":
        return {"split": 5, "compiled": 6, "wiki": 9}.get(c.layer, 7 if c.is_primary else 8)
    if profile == "hybrid":
        if c.layer == "split" or c.is_primary:
            return 5
        return 6 if c.layer == "compiled" else 7
    return {"compiled": 5, "wiki": 6, "split": 7}.get(c.layer, 8)
