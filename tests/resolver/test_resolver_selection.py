"""``ResolverSession.select`` (the selection without its explanation) chooses exactly what ``resolve`` chooses.

A differential test: the bundled example packs, each with its own eval prompts and generated tasks (words drawn
from its files, evidence requests, Chinese, nothing searchable), under several budgets, profiles, modes,
groundings and rankings, alone and together. Same items, same order, same token counts, same missing terms.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from studio.core.model import Pack
from studio.core.pack import load_pack
from studio.core.resolver import ResolveRequest, ResolverSession
from studio.core.resolver.selection import select

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"
BUDGETS = (0, 250, 900, 4000, 30000)
VARIANTS: tuple[tuple[str | None, str | None, str | None, str], ...] = (
    (None, None, None, "bm25f"),  # (profile, mode, grounding overrides, ranking)
    (None, None, "required", "bm25f"),
    ("document-first", None, None, "bm25f"),
    ("wiki-first", None, None, "bm25"),
    ("hybrid", "persona", None, "bm25f"),
)


def _packs() -> list[Pack]:
    return [load_pack(p) for p in sorted(EXAMPLES.iterdir()) if (p / "KNOWLEDGE.md").is_file()]


def _prompts(pack: Pack) -> list[str]:
    out: list[str] = []
    for suite in sorted((pack.root / "evals").glob("*.json")):
        data = json.loads(suite.read_text(encoding="utf-8"))
        for case in data.get("evals", []) + data.get("cases", []):
            if isinstance(case, dict) and isinstance(case.get("prompt"), str):
                out.append(case["prompt"])
    return out


def _generated(pack: Pack, rng: random.Random, n: int) -> list[str]:
    words = [w for f in sorted(pack.root.rglob("*.md")) for w in f.read_text(encoding="utf-8").split()
             if w.isalpha()]
    tasks = ["", "the and of", "品牌语气和禁忌", "cite the source for every claim", "volcano parking refund"]
    for _ in range(n):
        picked = " ".join(rng.choice(words) for _ in range(rng.randint(1, 7)))
        tasks.append(picked if rng.random() < 0.7 else f"verify with evidence: {picked}")
    return tasks


def _full(session: ResolverSession, request: ResolveRequest) -> tuple[list[object], int, list[str]]:
    result = session.resolve(request)
    return [d for res in result.packs for d in res.selected], result.tokens_used, result.missing


def _lean(session: ResolverSession, request: ResolveRequest) -> tuple[list[object], int, list[str]]:
    chosen = session.select(request)
    return list(chosen.selected), chosen.tokens_used, chosen.missing


def _request(task: str, packs: list[Pack], rng: random.Random) -> ResolveRequest:
    profile, mode, grounding, ranking = rng.choice(VARIANTS)
    return ResolveRequest(task, packs, profile_override=profile, mode_override=mode, grounding_override=grounding,
                          budget=rng.choice(BUDGETS), ranking=ranking)


def _requests(packs: list[Pack], seed: int) -> list[ResolveRequest]:
    rng = random.Random(seed)
    out = [_request(task, [pack], rng) for pack in packs for task in _prompts(pack) + _generated(pack, rng, 12)]
    # several packs in one fence
    out += [_request(task, packs, rng) for task in _generated(packs[0], rng, 4) + _generated(packs[-1], rng, 4)]
    return out


def test_the_examples_hold_eval_prompts_for_the_differential_test() -> None:
    packs = _packs()
    assert len(packs) >= 5
    assert sum(len(_prompts(p)) for p in packs) >= 20


@pytest.mark.parametrize("frozen", [False, True])
def test_select_chooses_what_resolve_chooses(frozen: bool) -> None:
    packs = _packs()
    requests = _requests(packs, seed=7)
    full_session, lean_session = ResolverSession(), ResolverSession()
    full = [_full(full_session, r) for r in requests]
    if frozen:
        with lean_session.frozen():
            lean = [_lean(lean_session, r) for r in requests]
    else:
        lean = [_lean(lean_session, r) for r in requests]
    assert sum(1 for items, _, _ in full if items) > len(requests) // 2  # most tasks select something
    assert any(missing for _, _, missing in full)
    for request, want, got in zip(requests, full, lean, strict=True):
        assert got == want, (request.task, request.budget, [p.name for p in request.packs])


def test_select_and_resolve_agree_when_they_share_a_frozen_session() -> None:
    packs = _packs()
    session = ResolverSession()
    with session.frozen():
        for request in _requests(packs, seed=19)[::3]:
            assert _lean(session, request) == _full(session, request), request.task


def test_select_sees_a_changed_pack_once_the_session_is_thawed(tmp_path: Path) -> None:
    pack_root = tmp_path / "orbit"
    shutil.copytree(EXAMPLES / "orbit-launch-notes", pack_root)
    session = ResolverSession()
    request = ResolveRequest("zeppelin mooring procedure", [load_pack(pack_root)], budget=4000)
    with session.frozen():
        before = session.select(request)
    assert not any("zeppelin" in d.path for d in before.selected)
    (pack_root / "wiki").mkdir(exist_ok=True)
    (pack_root / "wiki" / "zeppelin.md").write_text("# Zeppelin mooring\n\nThe zeppelin mooring procedure: tie "
                                                    "the zeppelin to the mast.\n", encoding="utf-8")
    after = session.select(ResolveRequest(request.task, [load_pack(pack_root)], budget=4000))
    assert "wiki/zeppelin.md" in [d.path for d in after.selected]
    assert after == select(ResolveRequest(request.task, [load_pack(pack_root)], budget=4000))
    assert after.selected == _full(ResolverSession(), ResolveRequest(request.task, [load_pack(pack_root)],
                                                                     budget=4000))[0]


def test_an_unavailable_tokenizer_selects_nothing_and_says_why() -> None:
    pack = _packs()[0]
    chosen = select(ResolveRequest("anything", [pack], encoding="no-such-encoding"))
    assert not chosen.available and chosen.selected == [] and chosen.reason
