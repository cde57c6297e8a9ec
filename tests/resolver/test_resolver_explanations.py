"""Explanations that do not mislead (issue #32): each defect found trying the studio as a new user, with a test."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from resolver_packs import DOC_FIRST_FILES, knowledge

from studio.cli import main
from studio.core.model import Pack
from studio.core.pack import load_pack
from studio.core.resolver import ResolveRequest, resolve
from studio.core.resolver.report import content_terms
from studio.core.validate import validate_pack

WARRANTY_TASK = "How long is the Northwind Pro 2 warranty and what does it cover?"


# -- missing facts name content terms only ---------------------------------------------------------------------


def test_instruction_verbs_are_not_missing_facts(pack_at: Callable[..., Pack]) -> None:
    pack = pack_at("falcon-kettle", knowledge("falcon-kettle", primary="documents/brief.md", grounding="required"),
                   DOC_FIRST_FILES)
    result = resolve(ResolveRequest("Reply to the customer and promise a refund for the grinder", [pack]))
    missing = " ".join(result.missing)
    assert "refund" in missing and "grinder" in missing
    for word in ("reply", "promise", "customer"):
        assert word not in missing


def test_a_chinese_instruction_is_cut_into_words_not_reported_as_a_clause() -> None:
    assert content_terms("请帮我回复粉丝，注意不要编造数据，承诺什么时候发货") == ["粉丝", "数据", "发货"]
    assert content_terms("请问林悦的口吻是什么") == ["林悦", "口吻"]


def test_a_chinese_task_reports_missing_words(pack_at: Callable[..., Pack]) -> None:
    pack = pack_at("falcon-kettle", knowledge("falcon-kettle", primary="documents/brief.md", grounding="required"),
                   DOC_FIRST_FILES)
    result = resolve(ResolveRequest("注意不要编造数据", [pack]))
    assert result.missing == ["no loaded context mentions \u201c数据\u201d"]


def test_facts_in_simulated_answers_are_not_missing(pack_at: Callable[..., Pack]) -> None:
    text = knowledge("acme", profile="hybrid", grounding="required").replace(
        "---\n#", "metadata:\n  primaryAnswers: answers/questions.json\n---\n#", 1)
    pack = pack_at("acme", text, {
        "answers/questions.json": json.dumps([{"id": "q", "question": "Does the tablet sync offline?",
                                               "answerBlockIds": ["a"]}]),
        "answers/answer-blocks.json": json.dumps([{"id": "a", "answer": "Edits are queued and synced later.",
                                                   "evidenceStatus": "verified", "reviewStatus": "approved"}]),
    })
    result = resolve(ResolveRequest("Does the tablet sync offline?", [pack]))
    assert result.missing == []


# -- one notion of "has boundaries" -------------------------------------------------------------------------------


def test_a_guide_with_a_boundaries_section_is_boundaries_for_the_validator_and_the_resolver(
        pack_at: Callable[..., Pack]) -> None:
    body = "# Lin\n\n## Voice\n\nWarm, short sentences.\n\n## Runtime boundaries\n\nNever invent sales figures.\n"
    pack = pack_at("lin", knowledge("lin", mode="persona", profile="wiki-first", body=body),
                   {"compiled/voice.md": "# Voice\n\nWarm and concrete.\n"})
    assert not [f for f in validate_pack(pack) if f.code == "persona-without-boundaries"]
    result = resolve(ResolveRequest("write a post in Lin's voice", [pack]))
    assert "KNOWLEDGE.md" in {d.path for d in result.packs[0].selected}
    assert not [w for w in result.warnings if w.code == "resolve-persona-without-boundaries"]


def test_a_persona_without_any_boundaries_still_warns(pack_at: Callable[..., Pack]) -> None:
    pack = pack_at("lin", knowledge("lin", mode="persona", profile="wiki-first", body="# Lin\n\nWarm voice.\n"),
                   {"compiled/voice.md": "# Voice\n\nWarm and concrete.\n"})
    assert [f for f in validate_pack(pack) if f.code == "persona-without-boundaries"]
    result = resolve(ResolveRequest("write a post in Lin's voice", [pack]))
    assert [w for w in result.warnings if w.code == "resolve-persona-without-boundaries"]


# -- over-budget arithmetic, duplicates ---------------------------------------------------------------------------


def test_over_budget_rows_give_the_arithmetic_in_text(pack_at: Callable[..., Pack],
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    pack = pack_at("falcon-kettle", knowledge("falcon-kettle", primary="documents/brief.md"), DOC_FIRST_FILES)
    main(["resolve", str(pack.root), "--task", "warranty", "--budget", "300"])
    lines = capsys.readouterr().out.splitlines()
    row = next(i for i, line in enumerate(lines) if line.endswith("over-budget") or "over-budget (score" in line)
    detail = lines[row + 1]
    assert "tokens" in detail and "were left" in detail and "short" in detail


@pytest.fixture
def northwind(examples_copy: Path) -> Pack:
    return load_pack(examples_copy / "northwind-espresso")


def test_duplicate_boundaries_load_once_and_the_answer_gets_in(northwind: Pack,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    result = resolve(ResolveRequest(WARRANTY_TASK, [northwind], budget=1500))
    selected = [d.path for d in result.packs[0].selected]
    assert "compiled/splits/product-brief/warranty.md" in selected  # the best-scoring file
    boundaries = [p for p in selected if p.endswith("boundaries.md")]
    assert len(boundaries) == 1
    dup = next(d for d in result.packs[0].skipped if d.reason == "duplicate")
    assert boundaries[0] in dup.detail
    assert any(w.code == "resolve-duplicate-loaded-once" for w in result.warnings)
    main(["resolve", str(northwind.root), "--task", WARRANTY_TASK, "--budget", "1500"])
    out = capsys.readouterr().out
    assert "duplicate" in out and "which is loaded" in out


def test_a_facts_summary_does_not_hide_the_split_that_answers(northwind: Pack) -> None:
    # compiled/facts.md sums up every split in other words; it has another role, so it never "duplicates" one.
    result = resolve(ResolveRequest(WARRANTY_TASK, [northwind], budget=4000))
    assert "compiled/splits/product-brief/warranty.md" in {d.path for d in result.packs[0].selected}


def test_the_sweep_shows_the_budget_at_which_the_answer_gets_in(northwind: Pack,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["resolve", str(northwind.root), "--task", WARRANTY_TASK, "--sweep", "500:2000:250",
                 "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [p["budget"] for p in out["sweep"]] == list(range(500, 2001, 250))
    first = out["first_budget"]["compiled/splits/product-brief/warranty.md"]
    point = next(p for p in out["sweep"] if p["budget"] == first)
    assert point["recall"] == 1.0
    assert all(p["recall"] == 0.0 for p in out["sweep"] if p["budget"] < first)
    assert out["required_context"] == ["compiled/splits/product-brief/warranty.md"]
    assert all(p["tokens"] <= p["budget"] for p in out["sweep"])


def test_a_bad_sweep_is_a_usage_error(northwind: Pack, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["resolve", str(northwind.root), "--task", "x", "--sweep", "2000:500:100"]) == 2
    assert "MIN must not be above its MAX" in capsys.readouterr().err
    assert main(["resolve", str(northwind.root), "--task", "x", "--sweep", "1:100000:1"]) == 2
