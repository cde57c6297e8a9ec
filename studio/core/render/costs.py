"""Token cost of each tier: the catalog (per pack and in total), a guide, a fence.

Counts come from a ``Tokenizer`` (``studio.core.tokens``: exact tiktoken counts from offline data).
When the encoding cannot be loaded the result says so, with the reason, and carries no number:
the studio never passes off an estimate as a count.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from studio.core.model import Pack
from studio.core.render.catalog import catalog_entries, catalog_instruction, render_catalog, render_catalog_entry
from studio.core.render.fence import FencePack, FenceVariant, render_fence
from studio.core.render.guide import render_guide
from studio.core.tokens import DEFAULT_ENCODING, CannotCount, Tokenizer, get_tokenizer


@dataclass(frozen=True, slots=True)
class TokenCount:
    """An exact count, or the reason there is none."""

    tokens: int | None
    tokenizer: str
    unavailable_reason: str | None = None
    failed: bool = False
    """The encoding is there but failed on this text (``unavailable_reason`` starts "cannot count:")."""

    @property
    def available(self) -> bool:
        return self.tokens is not None

    def describe(self) -> str:
        if self.tokens is None and self.failed:
            return f"{self.unavailable_reason} ({self.tokenizer})"
        if self.tokens is None:
            return f"token count unavailable ({self.tokenizer}): {self.unavailable_reason}"
        return f"{self.tokens} tokens ({self.tokenizer})"

    def to_dict(self) -> dict[str, object]:
        return {"tokens": self.tokens, "tokenizer": self.tokenizer, "unavailable_reason": self.unavailable_reason,
                "failed": self.failed}


@dataclass(slots=True)
class CatalogCost:
    """What the always-on catalog costs."""

    per_pack: dict[str, TokenCount] = field(default_factory=dict)
    """Pack name -> cost of its ``<knowledge_pack>`` element (location included)."""
    catalog: TokenCount | None = None
    """The whole ``<available_knowledge_packs>`` XML."""
    instruction: TokenCount | None = None
    """The behaviour instruction shown beside it."""
    total: TokenCount | None = None
    """Instruction plus catalog, as a client would send them (joined by a newline)."""

    def to_dict(self) -> dict[str, object]:
        def part(count: TokenCount | None) -> object:
            return count.to_dict() if count else None

        return {
            "per_pack": {name: c.to_dict() for name, c in self.per_pack.items()},
            "catalog": part(self.catalog),
            "instruction": part(self.instruction),
            "total": part(self.total),
        }


def default_tokenizer() -> Tokenizer:
    return get_tokenizer(DEFAULT_ENCODING)


def count_tokens(text: str, tokenizer: Tokenizer | None = None) -> TokenCount:
    tok = tokenizer if tokenizer is not None else default_tokenizer()
    if not tok.available:
        # Say why there is no number rather than estimating one.
        return TokenCount(None, tok.name, tok.unavailable_reason or "the encoding could not be loaded")
    try:
        return TokenCount(tok.count(text), tok.name)
    except CannotCount as exc:  # a visible "cannot count" state, never a crash or a silent worker
        return TokenCount(None, tok.name, str(exc), failed=True)


def catalog_cost(packs: Sequence[Pack], *, include_archived: bool = False,
                 tokenizer: Tokenizer | None = None) -> CatalogCost:
    """Cost per listed pack and in total; an empty catalog costs nothing (it is not sent)."""
    tok = tokenizer if tokenizer is not None else default_tokenizer()
    cost = CatalogCost()
    entries = catalog_entries(packs, include_archived=include_archived)
    for entry in entries:
        key = entry.name if entry.name not in cost.per_pack else f"{entry.name} ({entry.location})"
        cost.per_pack[key] = count_tokens(render_catalog_entry(entry), tok)
    xml = render_catalog(packs, include_archived=include_archived)
    instruction = catalog_instruction() if entries else ""
    cost.catalog = count_tokens(xml, tok)
    cost.instruction = count_tokens(instruction, tok)
    cost.total = count_tokens(f"{instruction}\n{xml}" if entries else "", tok)
    return cost


def guide_cost(pack: Pack, tokenizer: Tokenizer | None = None) -> TokenCount:
    return count_tokens(render_guide(pack), tokenizer)


def fence_cost(packs: Sequence[FencePack], variant: FenceVariant = FenceVariant.SUPERSET,
               tokenizer: Tokenizer | None = None) -> TokenCount:
    return count_tokens(render_fence(packs, variant), tokenizer)
