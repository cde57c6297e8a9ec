"""Run a suite against a pack under one configuration: the entry point the CLI, the app and the bench share."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from studio.core.evals.compare import Comparison, compare_runs
from studio.core.evals.context import run_context_cases
from studio.core.evals.discovery import Simulator, reference_decision
from studio.core.evals.model import DiscoveryOutcome, EvalConfig, EvalRun, Suite
from studio.core.evals.records import run_from_record
from studio.core.evals.suites import read_suite
from studio.core.evals.view import copy_in_view
from studio.core.model import Pack
from studio.core.resolver import ResolverSession


def run_suite(pack: Pack, suite: Suite, config: EvalConfig | None = None, workspace: Sequence[Pack] = (),
              session: ResolverSession | None = None, now: datetime | None = None) -> EvalRun:
    """Outcomes of every valid case of ``suite``; the suite's findings travel with the run.

    A shadowed copy is evaluated as the copy in view (``view.copy_in_view``), with a note saying so.
    """
    config = config or EvalConfig()
    session = session or ResolverSession()
    kind = suite.kind or "discovery"
    pack, notes = copy_in_view(pack)
    run = EvalRun(pack.name, suite.path, kind, config, findings=list(suite.findings),
                  timestamp=(now or datetime.now(UTC)).strftime("%Y-%m-%dT%H:%M:%SZ"), notes=notes)
    if suite.kind == "discovery":
        run.discovery = run_discovery_cases(pack, suite, config, workspace, session)
    elif suite.kind == "context":
        run.context = run_context_cases(pack, suite.context, config, session)
    return run


def run_discovery_cases(pack: Pack, suite: Suite, config: EvalConfig, workspace: Sequence[Pack],
                        session: ResolverSession) -> list[DiscoveryOutcome]:
    if config.ranking == "reference":
        out = []
        for case in suite.discovery:
            actual, reason = reference_decision(pack, case.prompt)
            out.append(DiscoveryOutcome(case.id, case.prompt, case.expected, actual, 1.0 if actual == "select" else 0.0,
                                        reason))
        return out
    simulator = Simulator(pack, workspace, config.threshold, session, config.ranking)
    return [simulator.decide(case) for case in suite.discovery]


def suite_path(pack_root: Path, given: str) -> Path:
    """Where ``--suite`` points: relative to the pack first (as the reference CLI reads it), then as given."""
    candidate = Path(given)
    if candidate.is_absolute():
        return candidate
    inside = pack_root / candidate
    # Named, not opened: a link in the pack stays the pack's file (read_suite refuses one that leads out)
    # rather than letting a file of the same name in the working folder stand in for it.
    return inside if os.path.lexists(inside) else candidate


@dataclass(slots=True)
class PairResult:
    """A suite run under configuration A and, when asked, compared with B (another configuration or a record)."""

    suite: Suite
    a: EvalRun
    b: EvalRun | None = None
    comparison: Comparison | None = None
    note: str = ""
    """Why B is missing when it was asked for (e.g. no recorded run of this suite yet)."""


LAST_RECORDED = "last"
"""``evaluate_pair``'s ``b`` value for "the last recorded run of this suite"."""


def evaluate_pair(pack: Pack, suite_file: Path, a: EvalConfig, b: EvalConfig | str | None = None,
                  workspace: Sequence[Pack] = (), session: ResolverSession | None = None) -> PairResult:
    """Read the suite, run it under ``a`` and (optionally) ``b`` or the last recorded run, and compare.

    The working tree is run as configuration A; a recorded run is B's baseline, so the deltas read "A is the
    change, B is how it was" for records. Pure apart from reading files: the app calls it from a worker.
    """
    session = session or ResolverSession()
    suite = read_suite(suite_file, pack)
    run_a = run_suite(pack, suite, a, workspace, session)
    out = PairResult(suite, run_a)
    if b is None or suite.kind is None:
        return out
    if isinstance(b, EvalConfig):
        out.b = run_suite(pack, suite, b, workspace, session)
        out.comparison = compare_runs(run_a, out.b, a.label(), b.label())
        return out
    previous = last_recorded(pack, run_a)
    if previous is None:
        out.note = f"No recorded run of {run_a.suite} yet: record one to compare with it."
        return out
    out.b = previous
    out.comparison = compare_runs(previous, run_a, f"recorded {previous.source}", "working tree")
    return out


def last_recorded(pack: Pack, current: EvalRun) -> EvalRun | None:
    """The newest recorded run of the same suite and kind under ``runs/``, or None."""
    from studio.core.runs import RunKind, read_runs

    kinds = (RunKind.DISCOVERY_EVAL_RESULT, RunKind.CONTEXT_EVAL_RESULT)
    for record in reversed(read_runs(pack.root).by_kind(*kinds)):
        previous = run_from_record(record.data, record.path)
        if previous is not None and previous.suite == current.suite and previous.kind == current.kind:
            return previous
    return None
