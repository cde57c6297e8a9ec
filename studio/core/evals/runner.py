"""Run a suite against a pack under one configuration: the entry point the CLI, the app and the bench share."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from studio.core.evals.context import run_context_cases
from studio.core.evals.discovery import Simulator, reference_decision
from studio.core.evals.model import DiscoveryOutcome, EvalConfig, EvalRun, Suite
from studio.core.model import Pack
from studio.core.resolver import ResolverSession


def run_suite(pack: Pack, suite: Suite, config: EvalConfig | None = None, workspace: Sequence[Pack] = (),
              session: ResolverSession | None = None, now: datetime | None = None) -> EvalRun:
    """Outcomes of every valid case of ``suite``; the suite's findings travel with the run."""
    config = config or EvalConfig()
    session = session or ResolverSession()
    kind = suite.kind or "discovery"
    run = EvalRun(pack.name, suite.path, kind, config, findings=list(suite.findings),
                  timestamp=(now or datetime.now(UTC)).strftime("%Y-%m-%dT%H:%M:%SZ"))
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
    return inside if inside.exists() else candidate
