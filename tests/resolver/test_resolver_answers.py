"""answers/ through metadata.primaryAnswers: questions with their answer blocks are candidates (issues #32, #36)."""

from __future__ import annotations

import json
from collections.abc import Callable

from resolver_packs import knowledge

from studio.core.model import Pack
from studio.core.resolver import ResolveRequest, resolve

GUIDE = "# Answers\n\nUse the question map for buyer questions.\n"
QUESTIONS = [
    {"id": "q-offline", "question": "Can Acme Widget work offline?",
     "variants": ["Can field teams use Acme Widget without internet?"], "answerBlockIds": ["a-offline"]},
    {"id": "q-price", "question": "What does Acme Widget cost?", "answerBlockIds": ["a-price"]},
]
BLOCKS = [
    {"id": "a-offline", "answer": "Work is queued locally and synchronized when connectivity returns.",
     "evidenceStatus": "verified", "reviewStatus": "approved"},
    {"id": "a-price", "answer": "Pricing is not published; ask sales.", "evidenceStatus": "needs-verification",
     "reviewStatus": "draft"},
    {"id": "a-orphan", "answer": "The mobile app syncs over cellular data.", "evidenceStatus": "verified",
     "reviewStatus": "approved"},
]


def _pack(pack_at: Callable[..., Pack], pointer: bool = True, questions: object = QUESTIONS) -> Pack:
    text = knowledge("acme-answers", profile="hybrid", body=GUIDE)
    if pointer:
        text = text.replace("---\n#", "metadata:\n  primaryAnswers: answers/questions.json\n---\n#", 1)
    return pack_at("acme-answers", text, {
        "answers/questions.json": json.dumps(questions),
        "answers/answer-blocks.json": json.dumps(BLOCKS),
        "answers/monitoring-runs.json": json.dumps([{"questionId": "q-offline", "answerPresence": "cited"}]),
        "compiled/briefing.md": "# Briefing\n\nAcme Widget is a field-service tablet app.\n",
    })


def test_the_answer_to_the_question_asked_is_loaded(pack_at: Callable[..., Pack]) -> None:
    result = resolve(ResolveRequest("Can field teams use Acme Widget without internet?", [_pack(pack_at)]))
    picked = [(d.path, d.section, d.reason) for d in result.packs[0].selected]
    assert ("answers/questions.json", "Can Acme Widget work offline?", "answer-block") in picked
    assert "synchronized when connectivity returns" in result.fenced_text
    slugs = [r.slug for r in result.ranking if r.path == "answers/questions.json"]
    assert slugs.index("q-offline") < slugs.index("q-price")  # the question asked ranks first


def test_monitoring_runs_stay_out_and_say_why(pack_at: Callable[..., Pack]) -> None:
    result = resolve(ResolveRequest("Can Acme Widget work offline?", [_pack(pack_at)]))
    skipped = {(d.path, d.section): d for d in result.packs[0].skipped}
    assert skipped["answers/monitoring-runs.json", None].reason == "not-simulated"
    assert "observations" in skipped["answers/monitoring-runs.json", None].detail
    # Read as part of the question map: only the block no question links is a decision of its own.
    assert [k for k in skipped if k[0] == "answers/answer-blocks.json"] == [("answers/answer-blocks.json", "a-orphan")]


def test_an_unsettled_answer_is_loaded_with_a_warning(pack_at: Callable[..., Pack]) -> None:
    result = resolve(ResolveRequest("What does Acme Widget cost?", [_pack(pack_at)]))
    assert "Pricing is not published" in result.fenced_text
    warning = next(w for w in result.warnings if w.code == "resolve-unsettled-answer")
    assert "needs-verification" in warning.message and "draft" in warning.message


def test_an_answer_block_no_question_links_is_its_own_candidate(pack_at: Callable[..., Pack]) -> None:
    result = resolve(ResolveRequest("Does the mobile app sync over cellular data?", [_pack(pack_at)]))
    assert ("answers/answer-blocks.json", "a-orphan") in {(d.path, d.section) for d in result.packs[0].selected}


def test_without_the_pointer_answers_are_not_simulated(pack_at: Callable[..., Pack]) -> None:
    result = resolve(ResolveRequest("Can Acme Widget work offline?", [_pack(pack_at, pointer=False)]))
    assert not [d for d in result.packs[0].selected if d.path.startswith("answers/")]
    assert {d.reason for d in result.packs[0].skipped if d.path.startswith("answers/")} == {"not-simulated"}


def test_a_single_object_question_map_is_read(pack_at: Callable[..., Pack]) -> None:
    # The standard's own example file holds one record, not a list.
    result = resolve(ResolveRequest("Can Acme Widget work offline?", [_pack(pack_at, questions=QUESTIONS[0])]))
    assert "synchronized when connectivity returns" in result.fenced_text


def test_broken_answer_files_give_no_candidates_and_no_crash(pack_at: Callable[..., Pack]) -> None:
    pack = pack_at("broken-answers", knowledge("broken-answers", profile="hybrid", body=GUIDE).replace(
        "---\n#", "metadata:\n  primaryAnswers: answers/questions.json\n---\n#", 1), {
        "answers/questions.json": "[{\"question\": ",
        "answers/answer-blocks.json": json.dumps([1, "x", {"id": "a"}, {"answer": 5}]),
    })
    result = resolve(ResolveRequest("anything offline", [pack]))
    assert not [d for d in result.packs[0].selected if d.path.startswith("answers/")]
