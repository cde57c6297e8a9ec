"""``ResolverSession``: the caches that make a re-run cheap, and ``resolve`` itself.

A session keeps, per pack root, the walk results per file (keyed by path, mtime and size), the BM25 term
statistics, the source map and the token cost of every candidate per encoding. A re-run that changes only
the task, budget, profile, mode or grounding re-walks the directory (stat calls only), re-scores with BM25
and renders the fence once more; nothing is re-read or re-tokenized except the final text. The GUI keeps one
session for its lifetime; the CLI uses a fresh one.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from studio.core.render.fence import FenceVariant
from studio.core.resolver.candidates import Candidate, FileCache, PackFiles, collect
from studio.core.resolver.coverage import covering_splits
from studio.core.resolver.explain import Decision, PackResolution, ResolveRequest, ResolveResult, ResolveWarning
from studio.core.resolver.intent import asks_for_evidence
from studio.core.resolver.plan import PackPlan, plan_packs
from studio.core.resolver.rank import BM25Index, DocTerms, terms
from studio.core.resolver.report import add_findings
from studio.core.resolver.select import Entry, cost_text, fill_order, fit_exactly, greedy_fill
from studio.core.resolver.source_map import SOURCE_MAP, SourceMap, load_source_map
from studio.core.resolver.tiers import LOW_RELEVANCE_FRACTION, place
from studio.core.tokens import Tokenizer, get_tokenizer


@dataclass(slots=True)
class PreparedPack:
    """Everything about one pack's files that does not depend on the request."""

    files: PackFiles
    index: BM25Index
    source_map: SourceMap
    superseded: dict[str, str]
    """Document-section key -> the split that covers it."""
    fingerprint: tuple[object, ...]


@dataclass(slots=True)
class _PackCache:
    file_cache: FileCache = field(default_factory=dict)
    prepared: PreparedPack | None = None
    terms: dict[Candidate, DocTerms] = field(default_factory=dict)


class ResolverSession:
    """Caches across resolves. Not thread-safe: use one session per worker thread."""

    def __init__(self) -> None:
        self._packs: dict[str, _PackCache] = {}
        self._costs: dict[tuple[str, Candidate], int] = {}

    def prepare(self, plan: PackPlan) -> PreparedPack:
        """Walk the pack (cheaply when unchanged) and return its request-independent data."""
        pack = plan.pack
        cache = self._packs.setdefault(str(pack.root), _PackCache())
        primary = pack.primary_document
        files = collect(pack.root, primary, pack.body, cache.file_cache)
        fingerprint = (tuple(cache.file_cache.keys()), pack.body, primary, _stat_key(pack.root / SOURCE_MAP))
        if cache.prepared is not None and cache.prepared.fingerprint == fingerprint:
            return cache.prepared
        source_map = load_source_map(pack.root)
        docs = []
        fresh_terms: dict[Candidate, DocTerms] = {}
        for c in files.candidates:
            dt = cache.terms.get(c) or DocTerms.of(c.text, f"{Path(c.path).stem} {c.section or ''}")
            fresh_terms[c] = dt
            # Source-map hits raise candidates: claim texts compiled into an item count as its words.
            claims = source_map.claims_for(c.path, c.slug)
            docs.append(dt.plus(" ".join(cl.text for cl in claims)) if claims else dt)
        cache.terms = fresh_terms
        prepared = PreparedPack(files, BM25Index(docs), source_map, covering_splits(files, source_map, fresh_terms),
                                fingerprint)
        cache.prepared = prepared
        return prepared

    def cost(self, tokenizer: Tokenizer, c: Candidate) -> int:
        key = (tokenizer.name, c)
        hit = self._costs.get(key)
        if hit is None:
            hit = tokenizer.count(cost_text(c))
            self._costs[key] = hit
        return hit

    def resolve(self, request: ResolveRequest) -> ResolveResult:
        return resolve(request, self)


def _stat_key(path: Path) -> tuple[int, int]:
    try:
        st = os.stat(path)
        return (st.st_mtime_ns, st.st_size)
    except OSError:
        return (-1, -1)


def resolve(request: ResolveRequest, session: ResolverSession | None = None) -> ResolveResult:
    """Simulate a client's context resolution for ``request``. Never raises on bad pack content."""
    session = session or ResolverSession()
    tokenizer = get_tokenizer(request.encoding)
    plans = plan_packs(request)
    evidence = asks_for_evidence(request.task)
    query = terms(request.task)
    variant = FenceVariant(request.variant) if request.variant in set(FenceVariant) else FenceVariant.SUPERSET
    resolutions: list[PackResolution] = []
    entries: list[Entry] = []
    prepared: list[PreparedPack] = []
    for i, plan in enumerate(plans):
        res = PackResolution(plan.pack, plan.profile, plan.mode, plan.pack.grounding, plan.activation,
                             warnings=list(plan.warnings))
        resolutions.append(res)
        prep = session.prepare(plan)
        prepared.append(prep)
        res.skipped.extend(Decision(s.path, None, None, None, s.reason, None, plan.name, s.detail)
                           for s in prep.files.skipped)
        entries.extend(_place_all(i, plan, prep, query, evidence, tokenizer, session, res))
    if not tokenizer.available:
        return _unavailable(request, tokenizer, resolutions, entries)
    chosen = _fill(plans, entries, request.budget, tokenizer, variant, resolutions)
    text, used = fit_exactly(plans, chosen, request.budget, tokenizer.count,
                             lambda i: [w.message for w in resolutions[i].warnings if w.severity != "info"], variant)
    _record(plans, entries, resolutions)
    result = ResolveResult(request.task, resolutions, [], [], [], used, request.budget, text, tokenizer.name, True)
    add_findings(result, prepared, request, evidence)
    if request.reference:
        from studio.core.resolver.reference import reference_dry_run

        result.reference = [reference_dry_run(p.original, request.task) for p in plans]
    return result


def _place_all(i: int, plan: PackPlan, prep: PreparedPack, query: list[str], evidence: bool, tokenizer: Tokenizer,
               session: ResolverSession, res: PackResolution) -> list[Entry]:
    cands = prep.files.candidates
    scores = _with_source_links(cands, prep.index.scores(query), prep.source_map)
    placements = [place(c, plan.profile, plan.mode, evidence=evidence, superseded_by=prep.superseded.get(c.key),
                        context_map=plan.pack.body) for c in cands]
    best = max((s for s, p in zip(scores, placements, strict=True) if p.ranked), default=0.0)
    floor = max(best * LOW_RELEVANCE_FRACTION, 1e-9)
    out: list[Entry] = []
    for c, p, s in zip(cands, placements, scores, strict=True):
        if plan.gate is not None:
            res.skipped.append(_decision(c, None, plan.gate[0], s, plan.name, plan.gate[1]))
            continue
        cost = session.cost(tokenizer, c) if tokenizer.available else None
        if p.tier is None:
            res.skipped.append(_decision(c, cost, p.reason, s, plan.name, p.detail))
        elif p.ranked and s < floor:
            detail = (f"BM25 score {s:.2f} is below the floor {floor:.2f} (a fifth of the best match in this pack)"
                      if query else "The task has no searchable words to rank this item by.")
            res.skipped.append(_decision(c, cost, "low-relevance", s, plan.name, detail))
        else:
            out.append(Entry(i, c, p, s, cost or 0))
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


def _fill(plans: list[PackPlan], entries: list[Entry], budget: int, tokenizer: Tokenizer, variant: FenceVariant,
          resolutions: list[PackResolution]) -> list[Entry]:
    from studio.core.render.fence import FencePack, render_pack_fence

    wrapper_costs = [
        tokenizer.count(render_pack_fence(FencePack(p.pack, [], [w.message for w in r.warnings
                                                                   if w.severity != "info"]), variant))
        + 8  # the <selected_files> open/close lines appear once a pack has items
        for p, r in zip(plans, resolutions, strict=True)
    ]
    return greedy_fill(fill_order(entries), wrapper_costs, budget, join_cost=1)


def _record(plans: list[PackPlan], entries: list[Entry], resolutions: list[PackResolution]) -> None:
    for e in fill_order(entries):
        res = resolutions[e.plan_index]
        reason = e.placement.reason if e.selected else (e.skip_reason or "over-budget")
        detail = e.placement.detail if e.selected else e.skip_detail
        target = res.selected if e.selected else res.skipped
        target.append(_decision(e.candidate, e.cost, reason, e.score, plans[e.plan_index].name, detail))
    order = 0
    for res in sorted(resolutions, key=lambda r: 0 if r.runtime_mode == "persona" else 1):
        if res.selected:
            res.wrapper_order = order
            order += 1


def _decision(c: Candidate, tokens: int | None, reason: str, score: float | None, pack: str,
              detail: str = "") -> Decision:
    return Decision(c.path, c.section, c.lines, tokens, reason, score, pack, detail)


def _unavailable(request: ResolveRequest, tokenizer: Tokenizer, resolutions: list[PackResolution],
                 entries: list[Entry]) -> ResolveResult:
    reason = tokenizer.unavailable_reason or f"{tokenizer.name} is unavailable"
    for e in entries:
        resolutions[e.plan_index].skipped.append(_decision(e.candidate, None, "tokenizer-unavailable", e.score,
                                                           resolutions[e.plan_index].name, reason))
    warning = ResolveWarning("error", f"No selection was made: the {tokenizer.name} tokenizer is unavailable "
                             f"({reason}). The studio does not guess token counts.")
    return ResolveResult(request.task, resolutions, [warning], [], [], 0, request.budget, "", tokenizer.name, False,
                         reason)
