"""Rank measures count the items picked for the task; the guide and boundaries, loaded by policy whatever the
task, are reported beside the ranking (issue #36 item 4)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from studio.core.evals.model import EvalConfig
from studio.core.evals.runner import run_suite
from studio.core.evals.suites import read_suite
from studio.core.pack import load_pack

GUIDE = """---
name: tide-tables
description: Tide tables and harbour entry windows for the Kestrel estuary.
type: domain-reference
status: ready
profile: document-first
---
# Tide tables

Read `compiled/boundaries.md` before giving safety advice.
"""


def _pack(make_pack: Callable[..., Path], required: list[str]) -> Path:
    root = make_pack("tide-tables", GUIDE, {
        "compiled/boundaries.md": "# Boundaries\n\nNever promise a safe crossing; point to the harbour master.\n",
        "compiled/splits/spring-tides.md": "# Spring tides\n\nSpring tides at Kestrel bar peak two days after the "
                                           "full moon; the bar dries at low water springs.\n",
        "compiled/splits/neap-tides.md": "# Neap tides\n\nNeap tides leave two metres over the sill at low water.\n",
    })
    suite = {"pack_name": "tide-tables", "evals": [
        {"id": "spring", "prompt": "When do spring tides peak at the Kestrel bar?", "required_context": required}]}
    (root / "evals").mkdir()
    (root / "evals" / "answer-quality.json").write_text(json.dumps(suite), encoding="utf-8")
    return root


def test_a_perfect_pick_of_the_answer_file_scores_reciprocal_rank_one(make_pack) -> None:  # type: ignore[no-untyped-def]
    root = _pack(make_pack, ["compiled/splits/spring-tides.md"])
    pack = load_pack(root)
    run = run_suite(pack, read_suite(root / "evals" / "answer-quality.json", pack), EvalConfig())
    outcome = run.context[0]
    assert outcome.context_recall == 1.0
    assert outcome.reciprocal_rank == 1.0 and outcome.ndcg_at_10 == 1.0
    assert outcome.ranking[0] == "compiled/splits/spring-tides.md"
    assert "KNOWLEDGE.md" in outcome.policy_loaded and "compiled/boundaries.md" in outcome.policy_loaded
    assert "KNOWLEDGE.md" not in outcome.ranking
    assert outcome.to_json()["policy_loaded"] == list(outcome.policy_loaded)


def test_a_required_policy_file_counts_for_recall_but_not_for_the_ranks(make_pack) -> None:  # type: ignore[no-untyped-def]
    root = _pack(make_pack, ["compiled/boundaries.md", "compiled/splits/spring-tides.md"])
    pack = load_pack(root)
    outcome = run_suite(pack, read_suite(root / "evals" / "answer-quality.json", pack), EvalConfig()).context[0]
    assert outcome.context_recall == 1.0 and outcome.reciprocal_rank == 1.0 and outcome.recall_at_5 == 1.0
