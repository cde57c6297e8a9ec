"""The pack's own eval suites run against both versions: which cases regressed, improved or changed.

Every suite file either version has (``evals/*.json``) is read with that version's pack and run under the same
configuration. A case that passed before and fails after has ``regressed`` (``improved`` the reverse); a
context case that passes or fails both times but whose recall or reciprocal rank moved has ``changed``; a case
only one version has is ``added`` or ``removed``.
"""

from __future__ import annotations

from dataclasses import dataclass

from studio.core.diff.report import CaseChange, EvalsDiff, SuiteSummary
from studio.core.evals.compare import EPSILON
from studio.core.evals.model import ContextOutcome, DiscoveryOutcome, EvalConfig, EvalRun, Suite
from studio.core.evals.records import summary_of
from studio.core.evals.runner import run_suite
from studio.core.evals.suites import pack_suites, read_suite
from studio.core.model import Pack
from studio.core.resolver import ResolverSession

Outcome = DiscoveryOutcome | ContextOutcome


@dataclass(slots=True)
class SuiteRuns:
    """One version's suites and their runs, by pack-relative suite path (a run is None when the suite could not
    be read, or was not run)."""

    suites: dict[str, Suite]
    runs: dict[str, EvalRun | None]

    def context_prompts(self) -> list[tuple[str, str]]:
        return [(case.prompt, name) for name, suite in self.suites.items() for case in suite.context]


def run_suites(pack: Pack, names: list[str], config: EvalConfig, session: ResolverSession, *,
               run: bool = True) -> SuiteRuns:
    """Read every suite of ``names`` the pack has; with ``run``, run each one that could be read."""
    suites = {name: read_suite(pack.root / name, pack) for name in names}
    runs = {name: run_suite(pack, suite, config, session=session) if run and suite.kind is not None else None
            for name, suite in suites.items()}
    return SuiteRuns(suites, runs)


def suite_names(pack: Pack) -> list[str]:
    return pack_suites(pack.root) if pack.knowledge is not None else []


def diff_evals(old: SuiteRuns, new: SuiteRuns) -> EvalsDiff:
    out = EvalsDiff()
    for name in dict.fromkeys([*new.runs, *old.runs]):
        a, b = old.runs.get(name), new.runs.get(name)
        if a is None and b is None:
            continue
        out.suites.append(_summary(name, a, b))
        before = {o.id: o for o in a.outcomes} if a is not None else {}
        after = {o.id: o for o in b.outcomes} if b is not None else {}
        for case_id in dict.fromkeys([*after, *before]):
            change = _case(name, case_id, before.get(case_id), after.get(case_id))
            if change is not None:
                out.cases.append(change)
    return out


def _case(suite: str, case_id: str, a: Outcome | None, b: Outcome | None) -> CaseChange | None:
    if a is not None and b is not None:
        if a.passed != b.passed:
            kind = "improved" if b.passed else "regressed"
        elif _moved(a, b):
            kind = "changed"
        else:
            return None
    else:
        kind = "added" if a is None else "removed"
    return CaseChange(suite, case_id, kind, None if a is None else a.passed, None if b is None else b.passed,
                      _measure(a, "context_recall"), _measure(b, "context_recall"),
                      _measure(a, "reciprocal_rank"), _measure(b, "reciprocal_rank"),
                      a.actual if isinstance(a, DiscoveryOutcome) else None,
                      b.actual if isinstance(b, DiscoveryOutcome) else None)


def _moved(a: Outcome, b: Outcome) -> bool:
    if isinstance(a, DiscoveryOutcome) and isinstance(b, DiscoveryOutcome):
        return a.actual != b.actual
    for name in ("context_recall", "reciprocal_rank"):
        va, vb = _measure(a, name), _measure(b, name)
        if (va is None) != (vb is None) or (va is not None and vb is not None and abs(va - vb) > EPSILON):
            return True
    return False


def _measure(o: Outcome | None, name: str) -> float | None:
    value = getattr(o, name, None)
    return float(value) if isinstance(value, int | float) else None


def _summary(name: str, a: EvalRun | None, b: EvalRun | None) -> SuiteSummary:
    sa = summary_of(a) if a is not None else {}
    sb = summary_of(b) if b is not None else {}
    some = b if b is not None else a
    kind = some.kind if some is not None else ""
    return SuiteSummary(name, kind, sa.get("passed"), sb.get("passed"), sa.get("total"), sb.get("total"),
                        sa.get("context_recall"), sb.get("context_recall"), sa.get("mrr"), sb.get("mrr"))
