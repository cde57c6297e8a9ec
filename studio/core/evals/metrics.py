"""Summary metrics of eval runs. Ranking metrics (RR, nDCG@10, R@5) come from ``ir-measures``.

Why ``ir-measures`` (over ``ranx``): it computes the same trec_eval measures through ``pytrec_eval``, its wheels
install in ~240 MB (numpy, scipy) against ~700 MB for ranx (numba, llvmlite, pandas, matplotlib ...), and it
imports in ~40 ms against ~1.6 s. It is imported here, lazily, so ``pack-studio --version`` and ``validate``
never pay for it.

How a case becomes a trec_eval query: the relevance judgements are the case's ``required_context`` entries
(each relevant, grade 1); the run is the resolver's full candidate ranking, where an item takes the id of
the first required entry it satisfies (``path`` matches the file and every section of it, ``path#slug``
one section), and only its first place counts. Scores are ``len - rank``, so trec_eval's order is exactly
the resolver's (trec_eval re-sorts by score and breaks ties by document id).
"""

from __future__ import annotations

from collections.abc import Sequence
from statistics import fmean
from typing import Any

from studio.core.evals.model import ContextOutcome, DiscoveryOutcome
from studio.core.resolver.sections import slugify


def requirement_matcher(required: Sequence[str]) -> list[tuple[str, str, str | None]]:
    """(entry, path, slug or None) for each required entry; the fragment is slugified (``#Warranty`` works)."""
    out = []
    for entry in required:
        path, _, fragment = entry.partition("#")
        out.append((entry, path, slugify(fragment) if fragment else None))
    return out


def satisfied_by(path: str, slug: str | None, required: list[tuple[str, str, str | None]]) -> str | None:
    """The first required entry that the item ``path``(``#slug``) satisfies, or None.

    A whole file (``slug`` None) satisfies every section entry of that file: it holds them all.
    """
    for entry, want_path, want_slug in required:
        if want_path == path and (want_slug is None or slug is None or want_slug == slug):
            return entry
    return None


def ranked_ids(ranking: Sequence[tuple[str, str | None]], required: Sequence[str]) -> list[str]:
    """The run for one case: item ids in ranking order, required items named by their entry, first place kept."""
    matcher = requirement_matcher(required)
    out: list[str] = []
    seen: set[str] = set()
    for path, slug in ranking:
        doc = satisfied_by(path, slug, matcher) or (f"{path}#{slug}" if slug is not None else path)
        if doc not in seen:
            seen.add(doc)
            out.append(doc)
    return out


def ranking_metrics(cases: Sequence[tuple[str, Sequence[str], Sequence[str]]],
                    ) -> dict[str, tuple[float, float, float]]:
    """(reciprocal rank, nDCG@10, recall@5) per case id, for (id, required entries, ranked ids) triples.

    Cases without required entries are left out (the measures are undefined); a case whose ranking holds
    nothing scores 0 on all three.
    """
    measured = [(cid, list(dict.fromkeys(req)), ranked) for cid, req, ranked in cases if req]
    if not measured:
        return {}
    import ir_measures  # lazy: numpy and pytrec_eval load only when a context eval runs
    from ir_measures import RR, R, nDCG

    # pytrec_eval's C core takes ids as C strings: a path that is not valid UTF-8 (a surrogate escape) crashed
    # the process. It gets plain ASCII stand-ins instead, and the results are mapped back to the case ids.
    docs: dict[str, str] = {}

    def doc_id(doc: str) -> str:
        return docs.setdefault(doc, f"d{len(docs)}")

    queries = {f"q{i}": cid for i, (cid, _, _) in enumerate(measured)}
    qrels = [ir_measures.Qrel(f"q{i}", doc_id(doc), 1) for i, (_, req, _) in enumerate(measured) for doc in req]
    run = [ir_measures.ScoredDoc(f"q{i}", doc_id(doc), float(len(ranked) - rank))
           for i, (_, _, ranked) in enumerate(measured) for rank, doc in enumerate(ranked)]
    values: dict[str, dict[str, float]] = {q: {} for q in queries}
    measures = {"rr": RR, "ndcg": nDCG @ 10, "r5": R @ 5}
    names = {str(m): key for key, m in measures.items()}
    for metric in ir_measures.iter_calc(list(measures.values()), qrels, run):
        values[metric.query_id][names[str(metric.measure)]] = float(metric.value)
    return {queries[q]: (v.get("rr", 0.0), v.get("ndcg", 0.0), v.get("r5", 0.0)) for q, v in values.items()}


def discovery_summary(outcomes: Sequence[DiscoveryOutcome]) -> dict[str, Any]:
    """The reference CLI's summary (passed, failed, total, pass_rate) plus selection precision and recall.

    Activation is the positive class: ``select`` and ``warn`` both activate. ``warning_accuracy`` is the share
    of cases expecting ``warn`` that got it (None when no case expects a warning).
    """
    total = len(outcomes)
    passed = sum(o.passed for o in outcomes)
    activates = {"select", "warn"}
    tp = sum(o.expected in activates and o.actual in activates for o in outcomes)
    fp = sum(o.expected == "reject" and o.actual in activates for o in outcomes)
    fn = sum(o.expected in activates and o.actual == "reject" for o in outcomes)
    warn_cases = [o for o in outcomes if o.expected == "warn"]
    return {
        "passed": passed, "failed": total - passed, "total": total,
        "pass_rate": round(passed / total, 4) if total else 0,
        "precision": round(tp / (tp + fp), 4) if tp + fp else None,
        "recall": round(tp / (tp + fn), 4) if tp + fn else None,
        "false_positives": fp, "false_negatives": fn,
        "warning_accuracy": round(sum(o.actual == "warn" for o in warn_cases) / len(warn_cases), 4)
        if warn_cases else None,
    }


def context_summary(outcomes: Sequence[ContextOutcome]) -> dict[str, Any]:
    """Means over the cases that name required context; ``tokens_mean`` over every case."""
    measured = [o for o in outcomes if o.context_recall is not None]
    total = len(outcomes)
    passed = sum(o.passed for o in outcomes)

    def mean(values: list[float | None]) -> float | None:
        present = [v for v in values if v is not None]
        return round(fmean(present), 4) if present else None

    return {
        "passed": passed, "failed": total - passed, "total": total,
        "pass_rate": round(passed / total, 4) if total else 0,
        "measured": len(measured),
        "context_recall": mean([o.context_recall for o in measured]),
        "mrr": mean([o.reciprocal_rank for o in measured]),
        "ndcg_at_10": mean([o.ndcg_at_10 for o in measured]),
        "recall_at_5": mean([o.recall_at_5 for o in measured]),
        "tokens_mean": round(fmean([o.tokens_used for o in outcomes]), 1) if outcomes else None,
        "not_run": sum(len(o.not_run) for o in outcomes),
    }
