"""Discovery evals: would a client activate the pack for a prompt, judging only by the tier-1 catalog?

A client sees a catalog entry per pack (name, description, type, status, trust ...) and activates the packs a
request clearly matches (digest 4.4, implicit activation). The simulation scores the entry the way the
resolver ranks items: the prompt's terms (``text.terms.terms``: stop words out, plural fold, CJK bigrams) against
the entry's fields, with the pack *name* as the title field.

Each prompt term is weighed by how specific it is (``Specificity``): a common word (``text.common_words``,
English and Chinese: "content", "calendar", "private", "个人"; and the words of the pack's own ``type``, which
name a kind of pack) weighs ``COMMON_WEIGHT`` of a specific one, and a term that the catalog entries of the
workspace's other packs share weighs less the more of them share it. ``score`` is the weighted share of the
prompt that the entry covers, in [0, 1], over at most ``PROMPT_CAP`` of the prompt's weight: a term in the
pack's name covers 1, a term in the description or type ``tf / (tf + DESCRIPTION_K)`` (0.6 for one
occurrence, 0.75 for two). Terms in a script the entry does not use (Chinese against an English entry) are
left out, and the outcome says so. One threshold (``DEFAULT_THRESHOLD``, calibrated on the bundled examples'
``discovery.train.json`` suites with ``calibrate``) serves every workspace; each outcome reports its margin
(score minus threshold).

Decisions, in order:

1. ``reject`` when the score is below the threshold, or when only common words match: a near-topic prompt
   ("an Instagram calendar for a bakery") shares everyday words with many packs and names nothing of this one.
2. With a workspace, the other packs a client would list compete (``view.rivals``: never hidden copies nor
   namesakes): every catalog entry is ranked by BM25F over the workspace's
   catalog (IDF across packs), and the pack is rejected when a competitor scores more than ``1 / COMPETITION``
   times its own score (the pack is not among the clear matches).
3. ``warn`` when the pack is activated but needs confirmation or a warning: status other than ``ready``,
   trust ``unreviewed`` or no status (digest 6.7), or a prompt word found mostly in the pack's boundaries
   (a request for something the pack forbids, such as "quietest" in "Never state ... 'quietest' claims").
4. Otherwise ``select``.

``reference_decision`` reproduces the reference CLI's smoke test exactly, for comparison.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from studio.core.diagnostics import counted
from studio.core.evals.model import DiscoveryCase, DiscoveryOutcome
from studio.core.evals.view import rivals
from studio.core.model import Pack
from studio.core.resolver import ResolveRequest, ResolverSession
from studio.core.resolver.candidates import Candidate
from studio.core.resolver.plan import plan_packs
from studio.core.resolver.rank import BM25Index, DocTerms
from studio.core.text.common_words import COMMON_CHINESE, COMMON_ENGLISH
from studio.core.text.terms import fold, raw_bag, surface_forms, terms

DEFAULT_THRESHOLD = 0.25
"""Calibrated with ``calibrate`` on the bundled examples' train suites (see ``bench/eval_ranking.py``): 0.194
with the specificity weights (0.171 before them)."""
DESCRIPTION_K = 2 / 3
COMPETITION = 0.5
"""A competitor scoring more than twice this pack's BM25F score takes the prompt."""
BOUNDARY_SHARE = 0.5
"""A prompt word with at least this share of its pack occurrences in boundary items touches a boundary."""
NEEDS_CONFIRMATION = ("draft", "needs-review", "stale", "disputed")
COMMON_WEIGHT = 0.25
"""A common word's weight against a specific term's 1: it still counts towards covering the prompt."""
PROMPT_CAP = 4.0
"""A prompt is judged on at most this much specific weight: one that also says more (a long request, a Chinese
run whose bigrams straddle words) is not less about the pack it names."""
SHARED_DISCOUNT = 0.5
"""A term in every rival's catalog entry weighs this much less (linear in the share of rivals that have it)."""
_COMMON = frozenset(fold(w) for w in COMMON_ENGLISH) | COMMON_CHINESE


class Specificity:
    """How specific each prompt term is: against common words, and against the rivals' catalog entries."""

    def __init__(self, rivals: Sequence[DocTerms] = (), category: str | None = None) -> None:
        self._rivals = rivals
        self._category = frozenset(terms(category or ""))
        """The words of the pack's ``type`` ("content-ontology"): they name a kind of pack, which every pack of
        that kind shares by design, so a prompt about the kind ("what is an ontology?") is not about this pack."""

    @classmethod
    def of(cls, pack: Pack, rivals: Sequence[DocTerms] = ()) -> Specificity:
        return cls(rivals, pack.type)

    def common_terms(self, query: Sequence[str]) -> set[str]:
        """The common words among ``query`` (terms in prompt order): everyday words, the pack type's words, and
        the CJK bigrams that only straddle two common words (``达风`` in ``表达风格``): bigrams see across word
        boundaries, and such a bigram names nothing either word does not."""
        out = {t for t in query if t in _COMMON or t in self._category}
        for before, term, after in zip(query, query[1:], query[2:], strict=False):
            if (_is_cjk(term) and before in out and after in out and before[-1] == term[0]
                    and term[-1] == after[0]):
                out.add(term)
        return out

    def weight(self, term: str, common: bool) -> float:
        background = COMMON_WEIGHT if common else 1.0
        if not self._rivals:
            return background
        forms = [f.encode("utf-8", "surrogatepass") for f in surface_forms(term)]
        sharing = sum(any(d.title.get(f) or d.freqs.get(f) for f in forms) for d in self._rivals)
        return background * (1 - SHARED_DISCOUNT * sharing / len(self._rivals))


PLAIN = Specificity()
"""Specificity against common words alone (a pack evaluated without a workspace)."""


@dataclass(frozen=True, slots=True)
class CatalogScore:
    """How one catalog entry matches one prompt."""

    score: float
    matched: tuple[str, ...]
    """Prompt terms the entry covers."""
    content: int
    """Number of distinct content terms in the prompt."""
    specific: tuple[str, ...] = ()
    """Matched terms that are not common words: what a client would activate the pack on."""
    unmatched_script: str = ""
    """"Chinese" or "English" when the prompt has terms only in a script the entry never uses, else empty."""


def catalog_terms(pack: Pack) -> DocTerms:
    """The catalog entry as a resolver item: the name is the title, description and type the body."""
    description = pack.description or ""
    body = f"{description}\n{pack.type or ''}"
    return DocTerms.of(body, pack.name.replace("-", " "))


def catalog_score(entry: DocTerms, prompt: str, specificity: Specificity = PLAIN) -> CatalogScore:
    """Weighted share of the prompt's content terms that ``entry`` covers (see the module docstring).

    Terms in a script the entry does not use at all (Chinese words against an English-only catalog entry, or
    the reverse) are left out of the share: a client model may read across languages, lexical matching cannot,
    so it abstains on them rather than count them as misses. A prompt with nothing left scores 0, and
    ``unmatched_script`` names the script the entry lacks.
    """
    scripts = {_is_cjk(t.decode("utf-8", "surrogatepass")) for bag in (entry.title, entry.freqs) for t in bag}
    every = list(dict.fromkeys(terms(prompt)))
    query = [t for t in every if _is_cjk(t) in scripts]
    left_out = {_is_cjk(t) for t in every} - scripts
    lacking = "" if query or not left_out else ("Chinese" if True in left_out else "English")
    if not query:
        return CatalogScore(0.0, (), 0, (), lacking)
    total = mass = 0.0
    matched: list[str] = []
    common = specificity.common_terms(query)
    for term in query:
        weight = specificity.weight(term, term in common)
        mass += weight
        forms = [f.encode("utf-8", "surrogatepass") for f in surface_forms(term)]
        if any(entry.title.get(f) for f in forms):
            total += weight
            matched.append(term)
            continue
        tf = sum(entry.freqs.get(f, 0) for f in forms)
        if tf:
            total += weight * tf / (tf + DESCRIPTION_K)
            matched.append(term)
    specific = tuple(t for t in matched if t not in common)
    return CatalogScore(min(1.0, total / min(mass, PROMPT_CAP)) if mass else 0.0, tuple(matched), len(query),
                        specific)


class Simulator:
    """Discovery decisions for one pack, optionally among the packs of a workspace.

    Build once per (pack, workspace); ``decide`` is then cheap per prompt.
    """

    def __init__(self, pack: Pack, workspace: Sequence[Pack] = (), threshold: float | None = None,
                 session: ResolverSession | None = None, ranking: str = "bm25f") -> None:
        self.pack = pack
        self.ranking = ranking
        self.threshold = DEFAULT_THRESHOLD if threshold is None else threshold
        self.entry = catalog_terms(pack)
        others = rivals(pack, workspace)
        self.competitors = others
        entries = [catalog_terms(p) for p in others]
        self.specificity = Specificity.of(pack, entries)
        self._index = BM25Index([self.entry, *entries]) if others else None
        boundary_items, self._others = pack_items(pack, session or ResolverSession())
        self._boundary = [raw_bag(c.text) for c in boundary_items]

    def decide(self, case: DiscoveryCase) -> DiscoveryOutcome:
        match = catalog_score(self.entry, case.prompt, self.specificity)
        warnings = self._warnings(case.prompt) if match.score >= self.threshold and match.specific else []
        actual, reason = self._decision(case.prompt, match, warnings)
        matched_warnings = None
        if case.expected_warnings:
            hay = " ".join(warnings).lower()
            matched_warnings = actual == "warn" and all(_loose_in(w, hay) for w in case.expected_warnings)
        return DiscoveryOutcome(case.id, case.prompt, case.expected, actual, match.score, reason,
                                tuple(warnings) if actual == "warn" else (), matched_warnings,
                                match.score - self.threshold)

    def _decision(self, prompt: str, match: CatalogScore, warnings: list[str]) -> tuple[str, str]:
        # "Covers 3 of 4 prompt terms (northwind, pro, 2)": the terms after the count, quoted, and a cut said, so a
        # matched "2" never reads as the count ("Covers northwind, pro, 2 of 4 prompt term(s)" did).
        shown = ", ".join(f'"{t}"' for t in match.matched[:6]) + (f" and {len(match.matched) - 6} more"
                                                                   if len(match.matched) > 6 else "")
        covered = f"{len(match.matched)} of {counted(match.content, 'prompt term')} ({shown})" if match.matched \
            else f"none of {counted(match.content, 'prompt term')}"
        if match.unmatched_script:
            return "reject", self._other_script(prompt, match.unmatched_script)
        if not match.content:
            return "reject", "The prompt has no content words to match the catalog entry against."
        if match.score < self.threshold:
            return "reject", (f"The catalog entry covers {covered}: score "
                              f"{match.score:.2f} is below the threshold {self.threshold:.2f}.")
        if not match.specific:
            return "reject", (f"Only common words match ({shown or 'none'}; score {match.score:.2f}): they occur in "
                              f"prompts about anything, and the prompt names nothing specific to this pack, so a "
                              f"client would not activate it.")
        if self._index is not None:
            scores = self._index.scores(terms(prompt), self.ranking)
            own, best_i = scores[0], max(range(len(scores)), key=scores.__getitem__)
            if best_i != 0 and own < COMPETITION * scores[best_i]:
                rival = self.competitors[best_i - 1].name
                return "reject", (f"{rival} matches the prompt better in the workspace catalog (BM25F "
                                  f"{scores[best_i]:.2f} against {own:.2f}); a client would activate it instead.")
        base = f"Covers {covered}, score {match.score:.2f} >= {self.threshold:.2f}"
        if warnings:
            return "warn", f"{base}, but activation needs a warning: {'; '.join(warnings)}"
        return "select", base + "."

    def _other_script(self, prompt: str, script: str) -> str:
        """Why a prompt in one language cannot select an entry written in the other, and what would fix it."""
        wanted = [t for t in dict.fromkeys(terms(prompt)) if _is_cjk(t) == (script == "Chinese")]
        in_guide = [t for t in wanted
                    if any(d.freqs.get(f.encode("utf-8", "surrogatepass"))
                           for d in self._others for f in surface_forms(t))]
        example = f" The pack's own files use {', '.join(in_guide[:4])}: say them in the description." if (
            in_guide) else ""
        return (f"The description has no {script} words; add them. A client sees only the catalog entry (name, "
                f"description, type), so nothing in it matches this {script} prompt; a model reading across "
                f"languages might still guess, but it has no words to go on.{example}")

    def _warnings(self, prompt: str) -> list[str]:
        pack = self.pack
        out: list[str] = []
        if pack.status is None:
            out.append("Pack declares no status; treat it as unreviewed.")
        elif pack.status in NEEDS_CONFIRMATION:
            out.append(f"Pack status is {pack.status}" + (" (needs explicit confirmation)." if pack.status == "disputed"
                                                          else "."))
        if pack.trust == "unreviewed":
            out.append("Pack trust is unreviewed.")
        touched = self._boundary_words(prompt)
        if touched:
            out.append(f"The prompt asks about {', '.join(touched)}, which the pack's boundaries restrict.")
        return out

    def _boundary_words(self, prompt: str) -> list[str]:
        if not self._boundary:
            return []
        found = []
        for term in dict.fromkeys(terms(prompt)):
            if len(term) < 4 and not _is_cjk(term):
                continue
            forms = [f.encode("utf-8", "surrogatepass") for f in surface_forms(term)]
            inside = sum(bag.get(f, 0) for bag in self._boundary for f in forms)
            if not inside:
                continue
            outside = sum(d.freqs.get(f, 0) for d in self._others for f in forms)
            if inside / (inside + outside) >= BOUNDARY_SHARE:
                found.append(term)
        return found


_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]")


def _is_cjk(term: str) -> bool:
    return bool(_CJK.match(term))


def _loose_in(needle: str, hay: str) -> bool:
    """An expected warning is raised when most of its words appear among the raised warnings."""
    words = [w for w in terms(needle)]
    return bool(words) and sum(w in hay for w in words) * 2 >= len(words)


def pack_items(pack: Pack, session: ResolverSession) -> tuple[list[Candidate], list[DocTerms]]:
    """The pack's boundary items, and the term bags of its other runtime items (sources left out)."""
    if not pack.loads:
        return [], []
    prepared = session.prepare(plan_packs(ResolveRequest("", [pack]))[0])
    boundary: list[Candidate] = []
    others: list[DocTerms] = []
    for candidate, doc in zip(prepared.files.candidates, prepared.index.docs, strict=True):
        if candidate.layer == "source":
            continue
        if "boundaries" in candidate.roles:
            boundary.append(candidate)
        else:
            others.append(doc)
    return boundary, others


# -- the reference CLI's smoke test -----------------------------------------------------------------------

_REF_SPLIT = re.compile(r"[^a-z0-9\u4e00-\u9fff]+")


def reference_decision(pack: Pack, prompt: str) -> tuple[str, str]:
    """The reference CLI's ``eval`` decision: ``select`` if any prompt token of 3+ characters occurs in the
    lower-cased ``name description type`` text, else ``reject`` (it never says ``warn``)."""
    hay = f"{pack.name or ''} {pack.description or ''} {pack.type or ''}".lower()
    for token in _REF_SPLIT.split(prompt.lower()):
        # JavaScript's length counts UTF-16 code units; these characters are all one unit each.
        if len(token) >= 3 and token in hay:
            return "select", f"The prompt token {token!r} occurs in the catalog text."
    return "reject", "No prompt token of 3+ characters occurs in the catalog text."


def calibrate(scores: Sequence[tuple[float, bool]]) -> float:
    """The threshold that classifies (score, should-activate) pairs best: most right, then widest margin.

    Candidates are the midpoints between neighbouring distinct scores (and just above/below all of them).
    """
    values = sorted({s for s, _ in scores})
    if not values:
        return DEFAULT_THRESHOLD
    cuts = [values[0] / 2] + [(a + b) / 2 for a, b in zip(values, values[1:], strict=False)] + [values[-1] + 0.01]
    best, best_key = DEFAULT_THRESHOLD, (-1, 0.0)
    for cut in cuts:
        right = sum((s >= cut) == want for s, want in scores)
        margin = min((abs(s - cut) for s, _ in scores), default=0.0)
        if (right, margin) > best_key:
            best, best_key = cut, (right, margin)
    return round(best, 3)
