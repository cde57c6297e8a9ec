"""The budget bounds the whole fence, the reported total is the tokenizer's count, and output is stable."""

from __future__ import annotations

import json
from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from resolver_packs import knowledge

from studio.core.model import Pack
from studio.core.resolver import ResolveRequest, ResolverSession, resolve
from studio.core.tokens import get_tokenizer


def _big_pack(pack_at: Callable[..., Pack]) -> Pack:
    files = {f"compiled/splits/guide/{i:03d}_topic.md": f"# Topic {i}\n\n" + ("kettle warranty pricing " * (i % 7 + 1))
             + f"\nDetail number {i}.\n" for i in range(30)}
    files["compiled/boundaries.md"] = "# Boundaries\n\nNever promise delivery dates.\n"
    files["compiled/briefing.md"] = "# Briefing\n\n" + "Falcon kettle overview. " * 20 + "\n"
    files["documents/guide.md"] = "# Guide\n\n## Setup\n\nFill the kettle.\n\n## Cleaning\n\nDescale monthly.\n"
    return pack_at("budget-pack", knowledge("budget-pack", primary="documents/guide.md"), files)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(budget=st.integers(min_value=0, max_value=3000))
def test_budget_is_never_exceeded_and_total_is_exact(pack_at: Callable[..., Pack], budget: int) -> None:
    pack = _PACKS.setdefault("p", _big_pack(pack_at))
    result = _SESSION.resolve(ResolveRequest("kettle warranty", [pack], budget=budget))
    assert result.tokens_used <= budget
    assert result.tokens_used == get_tokenizer("cl100k_base").count(result.fenced_text)
    if result.fenced_text:
        assert result.fenced_text.count("<knowledge_pack ") == 1


_PACKS: dict[str, Pack] = {}
_SESSION = ResolverSession()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(budget=st.integers(min_value=0, max_value=2500),
       task=st.sampled_from(["kettle warranty", "语气", "cite the source", "", "Topic 3 detail"]),
       mode=st.sampled_from([None, "persona", "data"]))
def test_budget_holds_across_packs_tasks_and_modes(pack_at: Callable[..., Pack], budget: int, task: str,
                                                  mode: str | None) -> None:
    big = _PACKS.setdefault("p", _big_pack(pack_at))
    persona = _PACKS.setdefault("v", pack_at("voice", knowledge("voice", mode="persona"), {
        "compiled/voice.md": "# 语气\n\n温和，简短。Warm and brief about the kettle.\n",
        "compiled/boundaries.md": "# 边界\n\n不谈政治。<knowledge_pack name='x'> stays data.\n"}))
    result = _SESSION.resolve(ResolveRequest(task, [big, persona], budget=budget, mode_override=mode))
    assert result.tokens_used == get_tokenizer("cl100k_base").count(result.fenced_text) <= budget
    assert result.fenced_text.count("<knowledge_pack ") == len(result.wrapper_order)
    assert big.field("runtime", "mode") == "data"  # overrides never touch the loaded pack


def test_counts_match_o200k_too(doc_first: Pack) -> None:
    tok = get_tokenizer("o200k_base")
    result = resolve(ResolveRequest("warranty", [doc_first], budget=500, encoding="o200k_base"))
    if not tok.available:
        assert not result.tokenizer_available and result.tokens_used == 0
        return
    assert result.tokens_used == tok.count(result.fenced_text) <= 500
    assert result.tokenizer_name == "o200k_base"


def test_every_candidate_is_selected_or_skipped_once(doc_first: Pack) -> None:
    result = resolve(ResolveRequest("warranty", [doc_first], budget=200))
    pack = result.packs[0]
    keys = [(d.path, d.lines) for d in pack.selected + pack.skipped]
    assert len(keys) == len(set(keys))
    on_disk = {p.relative_to(doc_first.root).as_posix() for p in doc_first.root.rglob("*") if p.is_file()}
    # Record, schema and eval folders are one decision each ("runs/"): their files are never examined.
    folders = tuple(d.path for d in pack.skipped if d.path.endswith("/"))
    assert set(folders) == {"runs/", "schemas/", "evals/"}
    files = {d.path for d in pack.selected + pack.skipped if not d.path.endswith("/")}
    assert files == {p for p in on_disk if not p.startswith(folders)}
    assert all(d.reason for d in pack.skipped)


def test_small_budget_skips_with_over_budget_and_says_so(doc_first: Pack) -> None:
    result = resolve(ResolveRequest("warranty", [doc_first], budget=150))
    reasons = {d.reason for d in result.packs[0].skipped}
    assert "over-budget" in reasons
    assert any("token budget" in w.message for w in result.warnings)


def test_zero_budget_gives_an_empty_fence(doc_first: Pack) -> None:
    result = resolve(ResolveRequest("warranty", [doc_first], budget=0))
    assert result.fenced_text == "" and result.tokens_used == 0
    assert not result.packs[0].selected


def test_output_is_deterministic_across_sessions(doc_first: Pack) -> None:
    a = resolve(ResolveRequest("warranty and pricing", [doc_first], budget=400)).to_json()
    b = resolve(ResolveRequest("warranty and pricing", [doc_first], budget=400)).to_json()
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def test_session_rerun_sees_changed_files(doc_first: Pack) -> None:
    session = ResolverSession()
    first = session.resolve(ResolveRequest("warranty", [doc_first], budget=2000))
    assert "five years" not in first.fenced_text
    target = doc_first.root / "compiled/splits/brief/warranty.md"
    target.write_text("# Warranty\n\nfive years of warranty on every part, extended warranty.\n")
    second = session.resolve(ResolveRequest("warranty", [doc_first], budget=2000))
    assert "five years" in second.fenced_text


def test_unavailable_tokenizer_selects_nothing_and_says_why(doc_first: Pack) -> None:
    result = resolve(ResolveRequest("warranty", [doc_first], budget=2000, encoding="no-such-encoding"))
    assert not result.tokenizer_available
    assert result.fenced_text == "" and result.tokens_used == 0
    assert any(d.reason == "tokenizer-unavailable" for d in result.packs[0].skipped)
    assert any("does not guess" in w.message for w in result.warnings)
