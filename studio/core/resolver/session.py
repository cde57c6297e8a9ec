"""``ResolverSession``: the caches that make a re-run cheap, and ``resolve`` itself.

A session keeps, per pack root, the walk results per file (keyed by path, mtime and size), the BM25 term
statistics, the source map and, per encoding, the token cost of every candidate counted so far. A resolve
counts only the candidates its fill can reach (``meter``); ``count_pending`` counts the rest when there is
time. A re-run that changes only the task, budget, profile, mode or grounding re-walks the directory (stat
calls only), re-scores with BM25, counts any newly reachable candidate and renders the fence once more;
nothing is re-read. The GUI keeps one session for its lifetime; the CLI uses a fresh one. ``select`` makes the
same choices as ``resolve`` without explaining them (``selection``), for callers that resolve many tasks.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from studio.core.disputes.effect import with_disputes
from studio.core.render.fence import FenceVariant
from studio.core.resolver import warning_codes as codes
from studio.core.resolver.candidates import Candidate, FileCache, collect
from studio.core.resolver.compile_runs import latest_flagged_compile
from studio.core.resolver.coverage import Coverage
from studio.core.resolver.explain import (
    Decision,
    PackResolution,
    RankedItem,
    ResolveRequest,
    ResolveResult,
    ResolveWarning,
)
from studio.core.resolver.feedback import FeedbackFold
from studio.core.resolver.intent import asks_for_evidence
from studio.core.resolver.meter import Meter
from studio.core.resolver.plan import PackPlan, plan_packs
from studio.core.resolver.prepared import PreparedPack
from studio.core.resolver.rank import BM25Index, DocTerms
from studio.core.resolver.report import add_findings
from studio.core.resolver.select import Entry, ItemTerms, fence_measure, fill_order, fit_exactly, greedy_fill
from studio.core.resolver.tiers import LOW_RELEVANCE_FRACTION, Placement, place
from studio.core.sourcemap import SOURCE_MAP, SourceMap, read_source_map
from studio.core.text.terms import terms
from studio.core.tokens import DEFAULT_ENCODING, CannotCount, Tokenizer, get_tokenizer

if TYPE_CHECKING:  # selection builds on this module; the session only hands requests to it
    from studio.core.resolver.selection import RequestShape, Selection


@dataclass(slots=True)
class _PackCache:
    file_cache: FileCache = field(default_factory=dict)
    prepared: PreparedPack | None = None
    terms: dict[Candidate, DocTerms] = field(default_factory=dict)
    item_terms: dict[Candidate, ItemTerms] = field(default_factory=dict)
    """Each candidate's words and statements for the duplicate test, computed when a fill first reaches it:
    splitting an item into statements costs more than the rest of its fill, and the item is the same next run."""


class ResolverSession:
    """Caches across resolves. Not thread-safe: use one session per worker thread."""

    def __init__(self) -> None:
        self._packs: dict[str, _PackCache] = {}
        self._frozen = False
        self._last_order: list[tuple[Meter, int]] = []
        """The last fill's candidates in fill order: what a nearby request will reach first."""
        self._shapes: dict[tuple[object, ...], RequestShape] = {}
        """While frozen: ``selection.RequestShape`` per request shape (packs and options, not the task)."""

    def prepare(self, plan: PackPlan, tokenizer: Tokenizer | None = None) -> PreparedPack:
        """Walk the pack (cheaply when unchanged) and return its request-independent data.

        With an available ``tokenizer`` a ``Meter`` for that encoding is set up; it counts nothing yet.
        (Counting on a worker thread was measured and gained nothing: each encode call hands the GIL back
        and forth, and the walk and the term statistics are pure Python.)
        """
        pack = plan.pack
        cache = self._packs.setdefault(str(pack.root), _PackCache())
        primary = pack.primary_document
        prepared = cache.prepared
        pointers = (pack.body, primary, pack.primary_answers)
        if self._frozen and prepared is not None and prepared.fingerprint[1:4] == pointers:
            return self._with_meter(prepared, tokenizer)
        files = collect(pack.root, primary, pack.body, cache.file_cache, pack.primary_answers)
        fingerprint = (tuple(cache.file_cache.keys()), pack.body, primary, pack.primary_answers,
                       _stat_key(pack.root / SOURCE_MAP),
                       _stat_key(pack.root / "runs"))
        if prepared is None or prepared.fingerprint != fingerprint:
            source_map = with_disputes(read_source_map(pack.root), pack.root)  # open/decided disputes
            docs = []
            fresh_terms: dict[Candidate, DocTerms] = {}
            for c in files.candidates:
                dt = cache.terms.get(c) or DocTerms.of(c.text, item_title(c), c.section)
                fresh_terms[c] = dt
                # Source-map hits raise candidates: claim texts compiled into an item count as its words.
                claims = source_map.claims_for(c.path, c.slug)
                docs.append(dt.plus(" ".join(cl.text for cl in claims)) if claims else dt)
            cache.terms = fresh_terms
            cache.item_terms = {c: t for c, t in cache.item_terms.items() if c in fresh_terms}
            prepared = PreparedPack(files, BM25Index(docs), source_map, Coverage(files, source_map, fresh_terms),
                                    fingerprint, compile_verdict=latest_flagged_compile(pack.root))
            cache.prepared = prepared
        return self._with_meter(prepared, tokenizer)

    @staticmethod
    def _with_meter(prepared: PreparedPack, tokenizer: Tokenizer | None) -> PreparedPack:
        if tokenizer is not None and tokenizer.available and tokenizer.name not in prepared.meters:
            # After a change the texts of unchanged files still hit the tokenizer's count cache.
            prepared.meters[tokenizer.name] = Meter(tokenizer, prepared.files.candidates)
        return prepared

    @contextmanager
    def frozen(self) -> Iterator[ResolverSession]:
        """Within the block, a pack this session has prepared is not walked again: its candidates are shared.

        For callers that resolve many tasks against packs they know do not change meanwhile (coverage resolves
        a thousand tasks per pack; the budget sweep and the client comparison resolve one task many times).
        Outside the block every resolve re-checks the files (stat calls) as before. A pack whose guide or
        primary document changed is still re-walked.
        """
        was, self._frozen = self._frozen, True
        try:
            yield self
        finally:
            self._frozen = was
            if not was:
                self._shapes.clear()  # outside the block the packs may change: plans and counts go stale

    def shape_of(self, request: ResolveRequest, tokenizer: Tokenizer,
                 build: Callable[[], RequestShape]) -> RequestShape:
        """``build()``, remembered while frozen for requests of the same packs and options (``selection``)."""
        if not self._frozen:
            return build()
        key = (tuple(id(p) for p in request.packs), request.profile_override, request.mode_override,
               request.grounding_override, tuple(sorted(request.activation.items())),
               tuple(sorted(request.confirmed)), request.variant, tokenizer.name)
        shape = self._shapes.get(key)
        if shape is None:
            shape = self._shapes[key] = build()
        return shape

    def select(self, request: ResolveRequest) -> Selection:
        """What ``resolve(request)`` would select, in the same order and token count, without the explanation."""
        from studio.core.resolver.selection import select

        return select(request, self)

    def resolve(self, request: ResolveRequest) -> ResolveResult:
        return resolve(request, self)

    def item_terms_of(self, plans: list[PackPlan]) -> Callable[[Entry], ItemTerms]:
        """The duplicate test's view of an entry (``select.ItemTerms``), remembered per pack for later resolves."""
        caches = [self._packs.get(str(p.pack.root)) for p in plans]

        def terms_of(e: Entry) -> ItemTerms:
            cache = caches[e.plan_index]
            memo = cache.item_terms if cache is not None else {}
            found = memo.get(e.candidate)
            if found is None:
                doc = cache.terms.get(e.candidate) if cache is not None else None
                words = frozenset(doc.content_terms()) if doc is not None else frozenset()
                found = memo[e.candidate] = ItemTerms(words, statement_terms(e.candidate.text), e.candidate.roles)
            return found

        return terms_of

    def count_pending(self, encoding: str = DEFAULT_ENCODING, limit: int | None = None) -> int:
        """Count up to ``limit`` candidates the last resolves left uncounted (all when None).

        Returns how much background work is left: uncounted candidates, then document sections whose split
        coverage was not tested yet (a step with room to spare tests those, so a new task finds them ready).
        Call it when there is time, e.g. after showing a result (in small steps, so that a new request need
        not wait); a re-run of the same request then reports every token count exactly and chooses the same
        items. The last fill's candidates come first, in fill order: a slider move reaches those before any
        other.
        """
        name = get_tokenizer(encoding).name
        meters = [c.prepared.meters[name] for c in self._packs.values()
                  if c.prepared is not None and name in c.prepared.meters]
        current = {id(m) for m in meters}
        todo = [(m, i) for m, i in self._last_order if id(m) in current]
        todo += [(m, i) for m in meters for i in range(len(m))]
        counted = 0
        for meter, i in todo:
            if limit is not None and counted >= limit:
                break
            if meter.known(i) is None:
                try:
                    meter.exact(i)
                except CannotCount:
                    return 0  # nothing more to do in the background: the next resolve reports why
                counted += 1
        uncounted = sum(m.pending() for m in meters)
        untested = 0
        for cached in self._packs.values():
            if cached.prepared is not None:
                room = None if limit is None else max(0, limit - counted)
                untested += cached.prepared.coverage.fill(cached.prepared.files.candidates, room)
        return uncounted + untested


def item_title(c: Candidate) -> str:
    """The title field of a candidate: the section title of a document section, else the file name.

    A section's file name names the whole document, so it would raise every section of it alike.
    """
    if c.section is not None:
        return c.section
    return c.path.rsplit("/", 1)[-1].rsplit(".", 1)[0]


def _stat_key(path: Path) -> tuple[int, int]:
    try:
        st = os.stat(path)
        return (st.st_mtime_ns, st.st_size)
    except OSError:
        return (-1, -1)


def resolve(request: ResolveRequest, session: ResolverSession | None = None) -> ResolveResult:
    """Simulate a client's context resolution for ``request``. Never raises on bad pack content.

    When the tokenizer fails on some text (``CannotCount``) no selection is made and the result says why, as for
    an unavailable encoding: the studio does not guess counts.
    """
    try:
        return _resolve(request, session or ResolverSession())
    except CannotCount as exc:
        tokenizer = get_tokenizer(request.encoding)
        resolutions = [PackResolution(plan.pack, plan.profile, plan.mode, plan.pack.grounding, plan.activation,
                                      warnings=list(plan.warnings)) for plan in plan_packs(request)]
        return _unavailable(request, tokenizer, resolutions, [], str(exc))


def _resolve(request: ResolveRequest, session: ResolverSession) -> ResolveResult:
    tokenizer = get_tokenizer(request.encoding)
    plans = plan_packs(request)
    fold = FeedbackFold.load(p.pack for p in plans if p.pack.knowledge is not None) if request.use_feedback else None
    evidence = asks_for_evidence(request.task)
    query = terms(request.task)
    variant = FenceVariant(request.variant) if request.variant in set(FenceVariant) else FenceVariant.SUPERSET
    resolutions: list[PackResolution] = []
    entries: list[Entry] = []
    below: list[tuple[int, Candidate, float]] = []
    prepared: list[PreparedPack | None] = []
    for i, plan in enumerate(plans):
        res = PackResolution(plan.pack, plan.profile, plan.mode, plan.pack.grounding, plan.activation,
                             warnings=list(plan.warnings))
        resolutions.append(res)
        if plan.gate is not None and plan.gate[0] == "pack-not-loadable":
            prepared.append(None)
            continue  # not a usable pack (maybe not a pack at all): do not walk it
        prep = session.prepare(plan, tokenizer)
        prepared.append(prep)
        if request.count_all and plan.gate is None and tokenizer.name in prep.meters:
            prep.meters[tokenizer.name].count_all()
        res.skipped.extend(Decision(s.path, None, None, None, s.reason, None, plan.name, s.detail)
                           for s in prep.files.skipped)
        entries.extend(_place_all(i, plan, prep, query, evidence, tokenizer, res, request.ranking, below, fold))
    if not tokenizer.available:
        return _unavailable(request, tokenizer, resolutions, entries)
    ordered = fill_order(entries)
    chosen = _fill(plans, ordered, request.budget, tokenizer, variant, resolutions, session.item_terms_of(plans))
    session._last_order = [(e.meter, e.index) for e in ordered]
    text, used = fit_exactly(chosen, request.budget, fence_measure(
        plans, tokenizer.count, lambda i: fence_warnings(resolutions[i].warnings), variant))
    _record(plans, ordered, resolutions)
    if fold is not None:
        fold.annotate(resolutions)
    result = ResolveResult(request.task, resolutions, [], [], [], used, request.budget, text, tokenizer.name, True,
                           uncounted=_uncounted(plans, prepared, tokenizer), ranking=_ranking(plans, ordered, below))
    add_findings(result, prepared, request, evidence)
    if request.reference:
        from studio.core.resolver.reference import reference_dry_run

        result.reference = [reference_dry_run(p.original, request.task) for p in plans]
    return result


def _place_all(i: int, plan: PackPlan, prep: PreparedPack, query: list[str], evidence: bool, tokenizer: Tokenizer,
               res: PackResolution, ranking: str, below: list[tuple[int, Candidate, float]],
               fold: FeedbackFold | None = None) -> list[Entry]:
    cands = prep.files.candidates
    scores = scores_for(plan, prep, query, ranking, fold)
    placements = placements_for(plan, prep, evidence)
    best = max((s for s, p in zip(scores, placements, strict=True) if p.ranked), default=0.0)
    floor = relevance_floor(best)
    name = plan.name
    meter = prep.meters.get(tokenizer.name)
    if meter is None:  # the tokenizer is unavailable: nothing will be counted
        meter = Meter(tokenizer, cands)
    out: list[Entry] = []
    for k, (c, p, s) in enumerate(zip(cands, placements, scores, strict=True)):
        cost = meter.known(k)
        if plan.gate is not None:
            res.skipped.append(_decision(c, None, plan.gate[0], s, name, plan.gate[1]))
            continue
        p = settled(c, p, s, floor, plan, prep, evidence)
        if p.tier is None:
            res.skipped.append(_decision(c, cost, p.reason, s, name, p.detail))
        elif p.ranked and s < floor:
            detail = (f"BM25 score {s:.2f} is below the floor {floor:.2f} (a fifth of the best match in this pack)"
                      if query else "The task has no searchable words to rank this item by.")
            res.skipped.append(_decision(c, cost, "low-relevance", s, name, detail))
            below.append((i, c, s))
        else:
            out.append(Entry(i, c, p, s, meter, k))
    return out


def scores_for(plan: PackPlan, prep: PreparedPack, query: list[str], ranking: str,
               fold: FeedbackFold | None) -> list[float]:
    """Every candidate's relevance: BM25, raised by source links, then the optional feedback stage."""
    cands = prep.files.candidates
    scores = _with_source_links(cands, prep.index.scores(query, ranking), prep.source_map)
    if fold is not None:  # the optional feedback stage, after the base scores (resolver.feedback)
        scores = fold.apply(plan.pack, cands, scores)
    return scores


def placements_for(plan: PackPlan, prep: PreparedPack, evidence: bool) -> list[Placement]:
    """Each candidate's placement for this plan's profile and mode (remembered per pack state)."""
    profile, mode, body = plan.profile, plan.mode, plan.pack.body
    key = placement_key(plan, evidence)
    placements = prep.placements.get(key)
    if placements is None:
        placements = [place(c, profile, mode, evidence=evidence, superseded_by=prep.coverage.by_map_or_name(c),
                            context_map=body) for c in prep.files.candidates]
        prep.placements[key] = placements
    return placements


def placement_key(plan: PackPlan, evidence: bool) -> tuple[object, ...]:
    """What a candidate's placement depends on besides the candidate (``PreparedPack.placements``)."""
    return (plan.profile, plan.mode, evidence, plan.pack.body)


def relevance_floor(best: float) -> float:
    """The score a ranked item needs: a fifth of the pack's best match, and above zero."""
    return max(best * LOW_RELEVANCE_FRACTION, 1e-9)


def settled(c: Candidate, p: Placement, score: float, floor: float, plan: PackPlan, prep: PreparedPack,
            evidence: bool) -> Placement:
    """``p``, unless ``c`` is a relevant document section whose words a split carries: then it is superseded.

    Tested only for sections that made the floor, because the term test costs more than the rest of placing.
    """
    if p.ranked and score >= floor and c.layer == "document" and prep.coverage.has_splits(c):
        covering = prep.coverage.by_terms(c)
        if covering is not None:
            return place(c, plan.profile, plan.mode, evidence=evidence, superseded_by=covering,
                         context_map=plan.pack.body)
    return p


def fence_warnings(warnings: list[ResolveWarning]) -> list[str]:
    """The pack warnings a fence shows (info notes are for the studio only)."""
    return [w.message for w in warnings if w.severity != "info"]


def _ranking(plans: list[PackPlan], ordered: list[Entry], below: list[tuple[int, Candidate, float]],
             ) -> list[RankedItem]:
    out = [RankedItem(plans[e.plan_index].name, e.candidate.path, e.candidate.section, e.candidate.slug, e.score,
                      e.placement.tier) for e in ordered]
    below.sort(key=lambda t: (-t[2], t[0], t[1].path, t[1].lines or (0, 0)))
    out.extend(RankedItem(plans[i].name, c.path, c.section, c.slug, s, None) for i, c, s in below)
    return out


def _with_source_links(cands: list[Candidate], scores: list[float], source_map: SourceMap) -> list[float]:
    """A source file scores at least as well as the best item its claims were compiled into."""
    if not source_map.by_source:
        return scores
    best_by_key: dict[str, float] = {}
    for c, s in zip(cands, scores, strict=True):
        for key in (c.path, c.key):
            best_by_key[key] = max(best_by_key.get(key, 0.0), s)
    out = list(scores)
    for i, c in enumerate(cands):
        if c.layer == "source":
            linked = [best_by_key.get(t, 0.0) for t in source_map.by_source.get(c.path, ())]
            out[i] = max([out[i], *linked])
    return out


def _fill(plans: list[PackPlan], ordered: list[Entry], budget: int, tokenizer: Tokenizer, variant: FenceVariant,
          resolutions: list[PackResolution], terms_of: Callable[[Entry], ItemTerms]) -> list[Entry]:
    return greedy_fill(ordered, wrapper_costs(plans, [r.warnings for r in resolutions], tokenizer, variant), budget,
                       join_cost=1, terms_of=terms_of)


def wrapper_costs(plans: list[PackPlan], warnings: list[list[ResolveWarning]], tokenizer: Tokenizer,
                  variant: FenceVariant) -> list[int]:
    """What each pack's wrapper costs once its first item goes in (opening tag, preamble, warnings, closing tag)."""
    from studio.core.render.fence import FencePack, render_pack_fence

    return [
        tokenizer.count(render_pack_fence(FencePack(p.pack, [], fence_warnings(ws)), variant))
        + 8  # the <selected_files> open/close lines appear once a pack has items
        for p, ws in zip(plans, warnings, strict=True)
    ]


MAX_STATEMENTS = 400
"""Lines of an item compared for duplicates; past that an item is long enough to be told apart anyway."""


def statement_terms(text: str) -> tuple[frozenset[bytes], ...]:
    """The content words of each statement of ``text``: its non-heading lines with two or more content words."""
    out = []
    for line in text.split("\n", MAX_STATEMENTS)[:MAX_STATEMENTS]:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        words = frozenset(DocTerms.of(line, "", None).content_terms())
        if len(words) >= 2:
            out.append(words)
    return tuple(out)


def _record(plans: list[PackPlan], ordered: list[Entry], resolutions: list[PackResolution]) -> None:
    for e in ordered:
        res = resolutions[e.plan_index]
        reason = e.placement.reason if e.selected else (e.skip_reason or "over-budget")
        detail = e.placement.detail if e.selected else e.skip_detail
        target = res.selected if e.selected else res.skipped
        target.append(_decision(e.candidate, e.cost, reason, e.score, plans[e.plan_index].name, detail, e.floor))
    order = 0
    for res in sorted(resolutions, key=lambda r: 0 if r.runtime_mode == "persona" else 1):
        if res.selected:
            res.wrapper_order = order
            order += 1


def _decision(c: Candidate, tokens: int | None, reason: str, score: float | None, pack: str,
              detail: str = "", floor: int | None = None) -> Decision:
    return Decision(c.path, c.section, c.lines, tokens, reason, score, pack, detail, floor)


def _uncounted(plans: list[PackPlan], prepared: list[PreparedPack | None], tokenizer: Tokenizer) -> int:
    """Decisions left without a count this run; the candidates of gated packs are never counted."""
    return sum(prep.meters[tokenizer.name].pending() for plan, prep in zip(plans, prepared, strict=True)
               if prep is not None and plan.gate is None and tokenizer.name in prep.meters)


def _unavailable(request: ResolveRequest, tokenizer: Tokenizer, resolutions: list[PackResolution],
                 entries: list[Entry], failure: str | None = None) -> ResolveResult:
    reason = failure or tokenizer.unavailable_reason or f"{tokenizer.name} is unavailable"
    for e in entries:
        resolutions[e.plan_index].skipped.append(_decision(e.candidate, None, "tokenizer-unavailable", e.score,
                                                           resolutions[e.plan_index].name, reason))
    what = f"the {tokenizer.name} tokenizer {'failed' if failure else 'is unavailable'}"
    warning = ResolveWarning.of(codes.TOKENIZER_UNAVAILABLE,
                                f"No selection was made: {what} ({reason}). The studio does not guess token counts.")
    pack_warnings = [w for res in resolutions for w in res.warnings]
    return ResolveResult(request.task, resolutions, [warning, *pack_warnings], [], [], 0, request.budget, "",
                         tokenizer.name, False, reason)
