"""``resolve --use-feedback``: recorded feedback moves rankings only when asked, and every item says how."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from resolver_packs import DOC_FIRST_FILES, knowledge

from studio.cli import main
from studio.core.feedback import record_feedback
from studio.core.model import Pack
from studio.core.pack import load_pack
from studio.core.resolver import ResolveRequest, ResolverSession, resolve
from studio.core.resolver.feedback import WEIGHT, factor

TASK = "How much does the kettle cost and what does the warranty cover?"
T0 = datetime(2026, 5, 1, tzinfo=UTC)


@pytest.fixture
def kettle(pack_at: Callable[..., Pack]) -> Pack:
    return pack_at("falcon-kettle", knowledge("falcon-kettle", primary="documents/brief.md"), DOC_FIRST_FILES)


def _vote(pack: Pack, file: str, outcome: str, times: int) -> None:
    for i in range(times):
        record_feedback(pack.root, file, outcome, f"{TASK} #{i}", now=T0 + timedelta(seconds=i))


def _order(result: object) -> list[str]:
    return [d.path for p in result.packs for d in p.selected]  # type: ignore[attr-defined]


def _ranked_order(pack: Pack, use_feedback: bool, budget: int = 4000) -> list[str]:
    # Plain BM25 keeps the two splits close (3.5 against 2.5): eight votes each way can swap them. Under the
    # field-weighted default the title "warranty" puts its split 2.5 times ahead, beyond what feedback may move.
    result = resolve(ResolveRequest(TASK, [load_pack(pack.root)], budget=budget, use_feedback=use_feedback,
                                    ranking="bm25"))
    return [d.path for p in result.packs for d in p.selected if d.reason == "relevant"]


def test_factor_is_neutral_without_votes_and_bounded() -> None:
    assert factor(0, 0) == 1.0
    assert factor(1, 0) == pytest.approx(1.103, abs=1e-3) and factor(0, 1) == pytest.approx(0.897, abs=1e-3)
    assert factor(5, 5) == pytest.approx(1.0)
    assert 1 - WEIGHT <= factor(0, 10_000) < factor(10_000, 0) <= 1 + WEIGHT


def test_feedback_changes_the_ranking_only_when_asked(kettle: Pack) -> None:
    base = _ranked_order(kettle, use_feedback=False)
    first, second = base[:2]  # the two splits the task matches, in BM25 order
    assert {first, second} == {"compiled/splits/brief/pricing.md", "compiled/splits/brief/warranty.md"}
    _vote(kettle, first, "harmful", 8)
    _vote(kettle, second, "helpful", 8)
    assert _ranked_order(kettle, use_feedback=False) == base  # recorded, but not asked for: the standard's order
    assert _ranked_order(kettle, use_feedback=True)[0] == second


def test_off_by_default_the_output_is_unchanged(kettle: Pack) -> None:
    def without_records(doc: dict[str, object]) -> dict[str, object]:
        # The new record files are listed as skipped (not-a-runtime-surface), like every file under runs/.
        for pack in doc["packs"]:  # type: ignore[attr-defined]
            pack["skipped"] = [d for d in pack["skipped"] if not d["path"].startswith("runs/feedback-")]
        return doc

    before = resolve(ResolveRequest(TASK, [kettle])).to_json()
    _vote(kettle, "compiled/splits/brief/pricing.md", "harmful", 3)
    after = without_records(resolve(ResolveRequest(TASK, [load_pack(kettle.root)])).to_json())
    assert after == before
    assert "feedback" not in json.dumps(after["packs"][0]["selected"])


def test_every_decision_says_what_feedback_did(kettle: Pack) -> None:
    _vote(kettle, "compiled/splits/brief/warranty.md", "helpful", 4)
    _vote(kettle, "compiled/briefing.md", "helpful", 2)
    result = resolve(ResolveRequest(TASK, [load_pack(kettle.root)], use_feedback=True))
    decisions = {d.path: d for p in result.packs for d in [*p.selected, *p.skipped]}
    assert all(d.feedback.startswith("Feedback: ") for d in decisions.values())
    warranty = decisions["compiled/splits/brief/warranty.md"].feedback
    assert warranty.startswith(f"Feedback: 4 helpful, 0 harmful (x{factor(4, 0):.2f}): score ")
    assert "relevance rank" in warranty
    assert "no effect: 'core-view' does not depend on relevance" in decisions["compiled/briefing.md"].feedback
    assert decisions["compiled/facts.md"].feedback == "Feedback: none recorded for this file; ranking unchanged."


def test_harmful_feedback_can_push_an_item_under_the_relevance_floor(kettle: Pack) -> None:
    # "pricing" matches only the word "cost"; "warranty" matches several words of the task.
    task = "warranty heating element lid hinge cost"
    _vote(kettle, "compiled/splits/brief/pricing.md", "harmful", 30)
    _vote(kettle, "compiled/splits/brief/warranty.md", "helpful", 30)
    plain = resolve(ResolveRequest(task, [load_pack(kettle.root)]))
    folded = resolve(ResolveRequest(task, [load_pack(kettle.root)], use_feedback=True))
    reason = {d.path: d.reason for p in plain.packs for d in [*p.selected, *p.skipped]}
    reason_fb = {d.path: d for p in folded.packs for d in [*p.selected, *p.skipped]}
    assert reason["compiled/splits/brief/pricing.md"] == "relevant"
    pricing = reason_fb["compiled/splits/brief/pricing.md"]
    assert pricing.reason == "low-relevance" and "0 helpful, 30 harmful" in pricing.feedback


def test_section_feedback_applies_to_its_section(pack_at: Callable[..., Pack]) -> None:
    pack = pack_at("falcon-kettle", knowledge("falcon-kettle", profile="hybrid", primary="documents/brief.md"),
                   {"documents/brief.md": DOC_FIRST_FILES["documents/brief.md"]})
    record_feedback(pack.root, "documents/brief.md", "helpful", TASK, section="Warranty", now=T0)
    result = resolve(ResolveRequest(TASK, [load_pack(pack.root)], use_feedback=True))
    notes = {d.section: d.feedback for p in result.packs for d in [*p.selected, *p.skipped]
             if d.path == "documents/brief.md"}
    assert notes["Warranty"].startswith("Feedback: 1 helpful, 0 harmful")
    assert "0 helpful, 0 harmful for this section" in notes["Pricing"]


def test_a_session_sees_new_feedback_on_the_next_run(kettle: Pack) -> None:
    session = ResolverSession()
    request = ResolveRequest(TASK, [kettle], use_feedback=True)
    first = {d.path: d.feedback for p in session.resolve(request).packs for d in p.selected}
    _vote(kettle, "compiled/splits/brief/warranty.md", "helpful", 1)
    second = {d.path: d.feedback for p in session.resolve(request).packs for d in p.selected}
    assert first["compiled/splits/brief/warranty.md"].startswith("Feedback: none")
    assert second["compiled/splits/brief/warranty.md"].startswith("Feedback: 1 helpful")


def test_cli_use_feedback_in_text_and_json(kettle: Pack, capsys: pytest.CaptureFixture[str]) -> None:
    _vote(kettle, "compiled/splits/brief/warranty.md", "helpful", 2)
    assert main(["resolve", str(kettle.root), "--task", TASK, "--use-feedback"]) == 0
    assert "      Feedback: 2 helpful, 0 harmful" in capsys.readouterr().out
    assert main(["resolve", str(kettle.root), "--task", TASK, "--format", "json", "--use-feedback"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert all("feedback" in d for d in doc["packs"][0]["selected"] + doc["packs"][0]["skipped"])
    assert main(["resolve", str(kettle.root), "--task", TASK]) == 0
    assert "Feedback:" not in capsys.readouterr().out


def test_feedback_records_are_not_context(kettle: Pack, tmp_path: Path) -> None:
    _vote(kettle, "compiled/splits/brief/warranty.md", "helpful", 1)
    result = resolve(ResolveRequest(TASK, [load_pack(kettle.root)], use_feedback=True))
    assert "runs/feedback-" not in result.fenced_text


def test_feedback_for_a_folder_that_is_missing_or_not_a_pack_says_which(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--file", "KNOWLEDGE.md", "--outcome", "helpful", "--task", "x"]
    assert main(["feedback", str(tmp_path / "northwind-espresso"), *argv]) == 2  # a name typed for its folder
    assert "does not exist (a pack folder is needed here)" in capsys.readouterr().err
    assert main(["feedback", str(tmp_path), *argv]) == 2
    assert "is not a pack (no readable KNOWLEDGE.md)" in capsys.readouterr().err
