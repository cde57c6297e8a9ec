"""A resolve tokenizes only what its budget can reach, and says so; the choices never depend on it.

Items the fill never needed a number for are reported as not counted (``tokens`` None), those a lower bound
ruled out carry that bound, and ``count_pending`` makes the next run exact. Also: the lower bound really is
one.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from resolver_packs import knowledge

from studio.core.model import Pack
from studio.core.resolver import ResolveRequest, ResolveResult, ResolverSession
from studio.core.tokens import get_tokenizer

# Whitespace of every kind, the four separators only Python splits at, slashes and newlines (o200k),
# contractions, digits, marks, CJK, emoji: what could make a word count exceed a token count.
_HOSTILE = st.lists(st.sampled_from(list("ab Z19\n\r\t/!.,'_-#<>`|") + [
    "\u3000", "\xa0", "\x85", "\u2028", "\x0b", "\x0c", "\x1c", "\x1f", "咖", "啡", "é", "\u0301", "'s", "'ll",
    "😀", "١", "\u200b", "\ufeff", "ǅ"]), max_size=60).map("".join)


def _encodings() -> list[str]:
    return [name for name in ("cl100k_base", "o200k_base") if get_tokenizer(name).available]


@pytest.mark.parametrize("encoding", _encodings())
@settings(max_examples=400, deadline=None)
@given(text=_HOSTILE | st.text(max_size=60))
def test_at_least_never_exceeds_the_count(encoding: str, text: str) -> None:
    tok = get_tokenizer(encoding)
    assert tok.at_least(text) <= tok.count(text)


def test_at_least_is_a_useful_bound_on_prose() -> None:
    tok = get_tokenizer("cl100k_base")
    prose = "The kettle comes with a two year warranty that covers the heating element and the lid. " * 5
    assert tok.count(prose) * 0.7 <= tok.at_least(prose) <= tok.count(prose)


def _many_splits(pack_at: Callable[..., Pack]) -> Pack:
    files = {f"compiled/splits/guide/{i:03d}_topic.md": f"# Topic {i}\n\n"
             + "The kettle warranty covers the heating element and the lid for two years. " * (3 + i % 5)
             for i in range(40)}
    files["compiled/splits/guide/900_tiny.md"] = "# Tiny\n\nkettle warranty.\n"
    files["compiled/splits/guide/950_cleaning.md"] = "# Cleaning\n\nDescale the boiler every month.\n"
    files["documents/guide.md"] = "# Guide\n\n## Setup\n\nFill the kettle.\n"
    return pack_at("counting-pack", knowledge("counting-pack", primary="documents/guide.md"), files)


def _decisions(result: ResolveResult) -> dict[tuple[str, str | None], tuple[str, int | None, int | None]]:
    return {(d.path, d.section): (d.reason, d.tokens, d.tokens_at_least)
            for p in result.packs for d in p.selected + p.skipped}


def test_first_run_counts_only_what_the_budget_reaches(pack_at: Callable[..., Pack]) -> None:
    pack = _many_splits(pack_at)
    result = ResolverSession().resolve(ResolveRequest("kettle warranty", [pack], budget=600))
    decisions = [d for p in result.packs for d in p.selected + p.skipped]
    selected = result.packs[0].selected
    assert selected and all(d.tokens is not None for d in selected), "what goes into the fence is counted"
    bounded = [d for d in decisions if d.tokens is None and d.tokens_at_least is not None]
    assert bounded, "most splits are left out by their word count alone"
    for d in bounded:
        assert d.reason == "over-budget"
        assert "Costs at least" in d.detail and "Not tokenized" in d.detail
    assert result.uncounted == sum(1 for d in decisions if d.tokens is None and d.path.endswith(".md"))
    assert result.to_json()["uncounted"] == result.uncounted > 0
    # The small split further down the ranking still gets its chance: it is counted and fits.
    assert any(d.path.endswith("900_tiny.md") for d in selected)


def test_count_pending_makes_the_next_run_exact_with_the_same_choices(pack_at: Callable[..., Pack]) -> None:
    pack = _many_splits(pack_at)
    session = ResolverSession()
    request = ResolveRequest("kettle warranty", [pack], budget=600)
    first = session.resolve(request)
    assert session.count_pending(limit=3) == first.uncounted - 3, "a limit lets the GUI count in small steps"
    assert session.count_pending() == 0
    second = session.resolve(request)
    assert second.uncounted == 0
    assert second.fenced_text == first.fenced_text and second.tokens_used == first.tokens_used
    before, after = _decisions(first), _decisions(second)
    assert before.keys() == after.keys()
    for key, (reason, tokens, floor) in before.items():
        assert after[key][0] == reason, key
        if tokens is not None:
            assert after[key][1] == tokens, "counts shown before stay the same"
        if floor is not None:
            exact = after[key][1]
            assert exact is not None and exact >= floor, "the bound shown was a true lower bound"
    assert ResolverSession().count_pending() == 0, "a session that resolved nothing has nothing to count"


def test_count_all_gives_every_decision_an_exact_count(pack_at: Callable[..., Pack]) -> None:
    pack = _many_splits(pack_at)
    lazy = ResolverSession().resolve(ResolveRequest("kettle warranty", [pack], budget=600))
    full = ResolverSession().resolve(ResolveRequest("kettle warranty", [pack], budget=600, count_all=True))
    assert lazy.uncounted > 0 and full.uncounted == 0
    assert all(d.tokens is not None and d.tokens_at_least is None for p in full.packs for d in p.selected + p.skipped
               if d.path.endswith(".md"))
    assert full.fenced_text == lazy.fenced_text


def test_a_short_background_step_counts_what_the_budget_decides_first(pack_at: Callable[..., Pack]) -> None:
    pack = _many_splits(pack_at)
    session = ResolverSession()
    request = ResolveRequest("kettle warranty", [pack], budget=600)
    first = session.resolve(request)
    in_fill = [d for p in first.packs for d in p.skipped if d.reason == "over-budget" and d.tokens is None]
    assert in_fill and first.uncounted > len(in_fill), "the cleaning split is not relevant"
    session.count_pending(limit=len(in_fill))
    second = session.resolve(request)
    assert all(d.tokens is not None for p in second.packs for d in p.skipped if d.reason == "over-budget")
    assert second.uncounted == first.uncounted - len(in_fill) > 0


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(budget=st.integers(min_value=0, max_value=2500))
def test_lazy_and_fully_counted_sessions_choose_alike(pack_at: Callable[..., Pack], budget: int) -> None:
    pack = _PACKS.setdefault("p", _many_splits(pack_at))
    lazy = ResolverSession().resolve(ResolveRequest("kettle warranty", [pack], budget=budget))
    counted = _COUNTED.resolve(ResolveRequest("kettle warranty", [pack], budget=budget))
    _COUNTED.count_pending()
    counted = _COUNTED.resolve(ResolveRequest("kettle warranty", [pack], budget=budget))
    assert lazy.fenced_text == counted.fenced_text
    assert lazy.tokens_used == counted.tokens_used == get_tokenizer().count(lazy.fenced_text) <= budget
    assert {k: v[0] for k, v in _decisions(lazy).items()} == {k: v[0] for k, v in _decisions(counted).items()}


_PACKS: dict[str, Pack] = {}
_COUNTED = ResolverSession()


def test_background_work_tests_split_coverage_without_changing_any_decision(pack_at: Callable[..., Pack]) -> None:
    """Idle steps also test which sections the splits carry; a later task must decide exactly as without them."""
    sections = "\n\n".join(f"## Part {i}\n\nThe kettle warranty covers the heating element and the lid "
                            f"for two years. Topic {i} boiler descale." for i in range(12))
    # Split names differ from the section titles, so only the term test can find which section each carries.
    files = {f"compiled/splits/guide/{i:03d}_notes-{i}.md": f"# Notes {i}\n\nThe kettle warranty covers the "
             f"heating element and the lid for two years. Topic {i} boiler descale.\n" for i in range(0, 12, 2)}
    files["documents/guide.md"] = f"# Guide\n\n{sections}\n"
    pack = pack_at("coverage-pack", knowledge("coverage-pack", primary="documents/guide.md"), files)
    warmed = ResolverSession()
    warmed.resolve(ResolveRequest("setup", [pack], budget=300))
    assert warmed.count_pending(limit=0) > 0, "untested sections are background work too"
    assert warmed.count_pending() == 0
    for task in ("boiler descale topic 3", "kettle lid warranty", "topic 7"):
        request = ResolveRequest(task, [pack], budget=900)
        warm, cold = warmed.resolve(request), ResolverSession().resolve(request)
        reasons = [{(d.path, d.section): d.reason for p in r.packs for d in p.selected + p.skipped}
                   for r in (warm, cold)]
        assert reasons[0] == reasons[1], task
        assert "superseded-by-split" in reasons[0].values()
        assert warm.fenced_text == cold.fenced_text
