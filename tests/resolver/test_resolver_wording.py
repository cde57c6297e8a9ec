"""The resolver's explanations in words a curator can act on: cost vs shortfall, and missing facts that are topics."""

from __future__ import annotations

import re
from collections.abc import Callable

from resolver_packs import DOC_FIRST_FILES, knowledge

from studio.core.model import Pack
from studio.core.resolver import ResolveRequest, resolve
from studio.core.resolver.report import content_terms

_COST = re.compile(r"Costs ([\d,]+) tokens \(([\d,]+) for the item \+ ([\d,]+) for the pack's wrapper.*?\); "
                   r"([\d,]+) of the budget of ([\d,]+) were left: ([\d,]+) short\.")


def _n(text: str) -> int:
    return int(text.replace(",", ""))


def test_an_item_over_budget_names_its_cost_the_wrapper_and_the_shortfall(pack_at: Callable[..., Pack]) -> None:
    pack = pack_at("one-file", knowledge("one-file", profile="wiki-first"),
                   {"compiled/briefing.md": "# Briefing\n\n" + "The kettle heats water quickly. " * 12 + "\n"})
    result = resolve(ResolveRequest("kettle", [pack], budget=100, count_all=True))
    skipped = [d for p in result.packs for d in p.skipped if d.reason == "over-budget"]
    assert skipped, [d.reason for p in result.packs for d in p.selected]
    d = skipped[0]
    match = _COST.search(d.detail)
    assert match, d.detail
    total, item, wrapper, left, budget, short = (_n(g) for g in match.groups())
    assert item == d.tokens and total == item + wrapper  # the cost is split, and adds up
    assert (left, budget) == (100, 100) and short == total - left  # the shortfall is what is missing, not the cost
    assert "more tokens" not in d.detail


def test_missing_facts_name_content_terms_only(pack_at: Callable[..., Pack]) -> None:
    pack = pack_at("falcon-kettle", knowledge("falcon-kettle", primary="documents/brief.md", grounding="required"),
                   DOC_FIRST_FILES)
    task = "I am asking whether the warranty is still covered when the grinder arrives broken"
    result = resolve(ResolveRequest(task, [pack], budget=4000))
    named = " ".join(result.missing)
    assert "grinder" in named  # the one topic the pack does not mention
    for ordinary in ("asking", "covered", "broken", "still", "whether", "arrives", "warranty"):
        assert f"\u201c{ordinary}\u201d" not in named, result.missing


def test_content_terms_drop_stop_words_in_english_and_chinese() -> None:
    assert content_terms("Please explain how the warranties are covered for broken kettles") == [
        "warranties", "kettles"]
    assert content_terms("请问林悦的口吻是什么") == ["林悦", "口吻"]
    assert content_terms("我们如何了解产品") == ["了解产品"]
