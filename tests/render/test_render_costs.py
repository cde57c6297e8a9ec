"""Token cost per tier: exact counts from the real encoding, and an honest answer when it is missing."""

from __future__ import annotations

from pathlib import Path

from render_helpers import pack_in_memory

from studio.core.render.catalog import catalog_entries, render_catalog, render_catalog_entry
from studio.core.render.costs import catalog_cost, count_tokens, fence_cost, guide_cost
from studio.core.render.fence import FenceItem, FencePack, render_fence
from studio.core.render.guide import render_guide
from studio.core.tokens import UnavailableTokenizer, get_tokenizer


def _packs() -> list:
    fields = {"description": "Facts about tea. Use when writing about tea.", "type": "t", "status": "ready"}
    return [pack_in_memory(Path("/packs") / n, {"name": n, **fields}, "# Guide\n") for n in ("tea", "coffee")]


def test_catalog_cost_per_pack_and_in_total() -> None:
    tok = get_tokenizer()
    assert tok.available
    packs = _packs()
    cost = catalog_cost(packs, tokenizer=tok)
    assert list(cost.per_pack) == ["coffee", "tea"]
    entry = catalog_entries(packs)[0]
    assert cost.per_pack["coffee"].tokens == tok.count(render_catalog_entry(entry))
    assert cost.catalog is not None and cost.catalog.tokens == tok.count(render_catalog(packs))
    assert cost.total is not None and cost.instruction is not None
    assert cost.total.tokens is not None and cost.catalog.tokens is not None and cost.instruction.tokens
    assert cost.total.tokens >= cost.catalog.tokens + cost.instruction.tokens - 2
    assert cost.per_pack["tea"].describe().endswith("tokens (cl100k_base)")


def test_an_empty_catalog_costs_nothing() -> None:
    cost = catalog_cost([])
    assert cost.per_pack == {} and cost.total is not None and cost.total.tokens == 0


def test_guide_and_fence_costs_count_the_rendered_text() -> None:
    tok = get_tokenizer()
    pack = _packs()[0]
    assert guide_cost(pack, tok).tokens == tok.count(render_guide(pack))
    fp = FencePack(pack, [FenceItem("compiled/facts.md", "Green tea is steamed.")])
    assert fence_cost([fp], tokenizer=tok).tokens == tok.count(render_fence([fp]))


def test_a_missing_encoding_is_reported_never_estimated() -> None:
    missing = UnavailableTokenizer("cl100k_base", "the encoding data is not installed")
    cost = catalog_cost(_packs(), tokenizer=missing)
    assert all(c.tokens is None for c in cost.per_pack.values())
    assert cost.total is not None and cost.total.tokens is None
    assert cost.total.describe() == "token count unavailable (cl100k_base): the encoding data is not installed"
    assert count_tokens("abc", missing).to_dict()["unavailable_reason"] == "the encoding data is not installed"
